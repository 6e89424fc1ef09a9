// Fill (InitConstValue) of L1 / L0A / L0B, driven by tests/bench_bridge/sim/test_cube_fill.py: the memory is first set
// to a sentinel, filled, then read back with GetValue.
#include "kgen_test_io.h"

using namespace AscendC;

// p: where (0 = A1, 1 = A2, 2 = B2) repeatTimes blockNum dstGap
__global__ __aicore__ void fill_kernel(GM_ADDR out, GM_ADDR prm, uint32_t n) {
    GlobalTensor<int64_t> p;
    p.SetGlobalBuffer((__gm__ int64_t*)prm, 4);
    GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)out, n);
    const TPosition pos = p(0) == 0 ? TPosition::A1 : p(0) == 1 ? TPosition::A2 : TPosition::B2;
    LocalTensor<float> t(pos, 0, n);
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, -1.f);
    InitConstValueParams<float> fp(p(1), p(2), p(3), 2.5f);
    if (p(0) == 2) InitConstValue(t, fp);  // the older name
    else Fill(t, fp);
    for (uint32_t i = 0; i < n; ++i) o.SetValue(i, t.GetValue(i));
}
KT_CASE(fill) {
    auto p = kt::load<int64_t>("p");
    kt::Dev<float> out(std::vector<float>(4096, 0.f));
    kt::Dev<int64_t> dp(p);
    fill_kernel<<<1, nullptr, nullptr>>>(out.gm(), dp.gm(), 4096);
    kt::save("out", out.host());
}

__global__ __aicore__ void fill_ub(GM_ADDR) {
    LocalTensor<half> t(TPosition::VECCALC, 0, 256);
    Fill(t, InitConstValueParams<half>(1, 1, 0, half(1.f)));  // @fill-ub
}
__global__ __aicore__ void fill_int8(GM_ADDR) {
    LocalTensor<int8_t> t(TPosition::A1, 0, 256);
    Fill(t, InitConstValueParams<int8_t>(1, 1, 0, int8_t(1)));  // @fill-int8
}
__global__ __aicore__ void fill_l0a_misaligned(GM_ADDR) {
    LocalTensor<float> t(TPosition::A2, 256, 256);
    Fill(t, InitConstValueParams<float>(1, 1, 0, 1.f));  // @fill-align
}
template <typename K>
static void launch1(K kernel) {
    kt::Dev<float> out(std::vector<float>(64, 0.f));
    kernel<<<1, nullptr, nullptr>>>(out.gm());
}
KT_CASE(fill_ub) { launch1(fill_ub); }
KT_CASE(fill_int8) { launch1(fill_int8); }
KT_CASE(fill_l0a_misaligned) { launch1(fill_l0a_misaligned); }

KT_MAIN()
