// LoadData with LoadData3DParamsV2 into A2 with enTranspose and into B2, driven by
// tests/sim/test_cube_load3d.py. L1 is filled and L0 read back with SetValue/GetValue.
#include "kgen_test_io.h"

using namespace AscendC;

template <typename T>
static GlobalTensor<T> gt(GM_ADDR p, uint64_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// p: l1H l1W channelSize kExtension mExtension kStartPt mStartPt filterW filterH padL padR padT padB toB enTranspose
template <typename T>
__global__ __aicore__ void load3d_kernel(GM_ADDR fm, GM_ADDR out, GM_ADDR prm, uint32_t nf, uint32_t nout) {
    auto p = gt<int64_t>(prm, 16);
    LocalTensor<T> l1(TPosition::A1, 0, nf);
    LocalTensor<T> l0 = p(13) ? LocalTensor<T>(TPosition::B2, 0, nout) : LocalTensor<T>(TPosition::A2, 0, nout);
    auto f = gt<T>(fm, nf);
    auto o = gt<T>(out, nout);
    for (uint32_t i = 0; i < nf; ++i) l1.SetValue(i, f.GetValue(i));
    for (uint32_t i = 0; i < nout; ++i) l0.SetValue(i, o.GetValue(i));
    const uint8_t pads[4] = {(uint8_t)p(9), (uint8_t)p(10), (uint8_t)p(11), (uint8_t)p(12)};
    LoadData3DParamsV2<T> l(pads, p(0), p(1), p(2), p(3), p(4), p(5), p(6), 1, 1, p(7), p(8), 1, 1, p(14) != 0, false, T(0));
    LoadData(l0, l1, l);
    for (uint32_t i = 0; i < nout; ++i) o.SetValue(i, l0.GetValue(i));
}
template <typename T>
static void run_load3d() {
    auto fm = kt::load<T>("fm");
    auto out = kt::load<T>("out");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> df(fm), dout(out);
    kt::Dev<int64_t> dp(p);
    load3d_kernel<T><<<1, nullptr, nullptr>>>(df.gm(), dout.gm(), dp.gm(), (uint32_t)fm.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}
KT_CASE(load3d_f16) { run_load3d<half>(); }
KT_CASE(load3d_f32) { run_load3d<float>(); }

__global__ __aicore__ void int8_into_b2(GM_ADDR) {
    LocalTensor<int8_t> l1(TPosition::B1, 0, 4096);
    LocalTensor<int8_t> b2(TPosition::B2, 0, 4096);
    const uint8_t pads[4] = {0, 0, 0, 0};
    LoadData3DParamsV2<int8_t> l(pads, 1, 32, 32, 32, 32, 0, 0, 1, 1, 1, 1, 1, 1, false, false, int8_t(0));
    LoadData(b2, l1, l);  // @int8-b2
}
KT_CASE(int8_into_b2) {
    kt::Dev<float> out(std::vector<float>(64, 0.f));
    int8_into_b2<<<1, nullptr, nullptr>>>(out.gm());
}

KT_MAIN()
