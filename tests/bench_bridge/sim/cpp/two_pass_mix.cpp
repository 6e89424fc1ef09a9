// A MIX kernel written the way Catlass and bisheng-only code is: its cube (AIC) and vector (AIV) halves are
// chosen at compile time from g_coreType (a member template with `CORE_TYPE = g_coreType` as default
// argument, specialised per core type; `if constexpr` on g_coreType and on ASCEND_IS_AIC). Driven by
// tests/bench_bridge/sim/test_two_pass_mix.py, which builds it with each installed compiler.
//
//   AIC of block b:     s[b] = sum(w[b*K .. b*K+K))  (scalar GM reads), then tells its two AIVs (mode 2)
//   AIV v of block b:   y[(2b+v)*L ..] = x[(2b+v)*L ..] * s[b]  (DataCopy, Muls, DataCopy)
//   every core:         tags[slot] = PassTag(), a non-inlined function whose body differs per pass
#include "kgen_test_io.h"

using namespace AscendC;

constexpr int32_t K = 8;    // weights per block
constexpr int32_t L = 64;   // floats per AIV core

// One name, two bodies: the AIC pass and the AIV pass each compile their own (and must each call their own).
__attribute__((noinline)) __aicore__ int32_t PassTag() {
    if constexpr (g_coreType == AscendC::AIC) {
        return 1000;
    } else {
        return 2000;
    }
}

template <int32_t CORE_TYPE>
struct CoreName { static constexpr int32_t value = CORE_TYPE * 10; };

struct ScaleKernel {
    struct Params { GM_ADDR x; GM_ADDR w; GM_ADDR s; GM_ADDR y; GM_ADDR tags; };
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ void operator()(const Params& p);
};

template <>
__aicore__ void ScaleKernel::operator()<AscendC::AIC>(const Params& p) {
    GlobalTensor<float> w, s;
    const int32_t b = GetBlockIdx();
    w.SetGlobalBuffer((__gm__ float*)p.w + b * K, K);
    s.SetGlobalBuffer((__gm__ float*)p.s + b, 1);
    float sum = 0.f;
    for (int32_t i = 0; i < K; ++i) sum += w.GetValue(i);
    s.SetValue(0, sum);
    CrossCoreSetFlag<2, PIPE_FIX>(1);
}

template <>
__aicore__ void ScaleKernel::operator()<AscendC::AIV>(const Params& p) {
    CrossCoreWaitFlag(1);
    const int32_t core = GetBlockIdx();          // block * 2 + sub-block on an AIV of a MIX 1:2 launch
    GlobalTensor<float> x, y, s;
    x.SetGlobalBuffer((__gm__ float*)p.x + core * L, L);
    y.SetGlobalBuffer((__gm__ float*)p.y + core * L, L);
    s.SetGlobalBuffer((__gm__ float*)p.s + get_block_idx(), 1);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, L * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, x, L);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, s.GetValue(0), L);
    PipeBarrier<PIPE_ALL>();
    DataCopy(y, t, L);
}

extern "C" __global__ __mix__(1, 2) void scale_mix(GM_ADDR x, GM_ADDR w, GM_ADDR s, GM_ADDR y, GM_ADDR tags) {
    ScaleKernel::Params p{x, w, s, y, tags};
    ScaleKernel kernel;
    kernel(p);
    GlobalTensor<int32_t> t;
    t.SetGlobalBuffer((__gm__ int32_t*)tags, 64);
    // slot: AICs 0..blocks-1, AIVs 32 + GetBlockIdx()
    int32_t slot;
    if constexpr (ASCEND_IS_AIC) {
        slot = GetBlockIdx();
    } else {
        slot = 32 + GetBlockIdx();
    }
    t.SetValue(slot, PassTag() + CoreName<g_coreType>::value);
}

KT_CASE(scale) {
    const int64_t blocks = kt::param("blocks", 3);
    std::vector<float> x = kt::load<float>("x"), w = kt::load<float>("w");
    kt::Dev<float> dx(x), dw(w), ds(std::vector<float>(blocks, 0.f)), dy(std::vector<float>(blocks * 2 * L, 0.f));
    kt::Dev<int32_t> dt(std::vector<int32_t>(64, -1));
    scale_mix<<<(uint32_t)blocks, nullptr, nullptr>>>(dx.gm(), dw.gm(), ds.gm(), dy.gm(), dt.gm());
    kt::save("y", dy.host());
    kt::save("tags", dt.host());
}

KT_MAIN()
