// LoadData with LoadData3DParamsV2 into A2 with enTranspose and into B2, driven by
// tests/bench_bridge/sim/test_cube_load3d.py. L1 is filled and L0 read back with SetValue/GetValue.
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

// Registers: q = [form, regH, regW, regPadL, regPadR, regPadT, regPadB, regPadValue, boundary, repeatTime,
//                 l1H, l1W, channelSize, kExt, mExt, kStart, mStart, filterW, filterH, strideW, strideH, paramPad, srcAddr]
// form 0: LoadData3DParamsV2 with the default config (parameters write the registers)
// form 1: LoadData<T, {false, false}> (feature map and pad value from SetFmatrix / SetLoadDataPaddingValue)
// form 2: LoadData3DParamsV2Pro (registers + extConfig / filterConfig)
static constexpr IsResetLoad3dConfig FROM_REGS = {false, false};
__global__ __aicore__ void regs_kernel(GM_ADDR fm, GM_ADDR out, GM_ADDR prm, uint32_t nf, uint32_t nout) {
    auto q = gt<int64_t>(prm, 24);
    LocalTensor<half> l1(TPosition::A1, q(22), nf);
    LocalTensor<half> l0(TPosition::A2, 0, nout);
    auto f = gt<half>(fm, nf);
    auto o = gt<half>(out, nout);
    for (uint32_t i = 0; i < nf; ++i) l1.SetValue(i, f.GetValue(i));
    for (uint32_t i = 0; i < nout; ++i) l0.SetValue(i, o.GetValue(i));
    const uint8_t regPads[4] = {(uint8_t)q(3), (uint8_t)q(4), (uint8_t)q(5), (uint8_t)q(6)};
    SetFmatrix(q(1), q(2), regPads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue(half(float(q(7))));
    SetLoadDataBoundary(q(8));
    SetLoadDataRepeat({0, (uint8_t)q(9), 0});
    if (q(0) == 2) {
        LoadData3DParamsV2Pro pro;
        pro.channelSize = q(12);
        pro.extConfig = (uint64_t(q(16)) << 48) | (uint64_t(q(15)) << 32) | (uint64_t(q(14)) << 16) | uint64_t(q(13));
        pro.filterConfig = (1ull << 40) | (1ull << 32) | (uint64_t(q(18)) << 24) | (uint64_t(q(17)) << 16) | (uint64_t(q(20)) << 8) |
                           uint64_t(q(19));
        LoadData(l0, l1, pro);  // @pro
    } else {
        const uint8_t pads[4] = {0, 0, 0, 0};
        LoadData3DParamsV2<half> l(pads, q(10), q(11), q(12), q(13), q(14), q(15), q(16), q(19), q(20), q(17), q(18), 1, 1, false,
                                   false, half(float(q(21))));
        if (q(0) == 1) LoadData<half, FROM_REGS>(l0, l1, l);
        else LoadData(l0, l1, l);
    }
    for (uint32_t i = 0; i < nout; ++i) o.SetValue(i, l0.GetValue(i));
}
KT_CASE(regs) {
    auto fm = kt::load<half>("fm");
    auto out = kt::load<half>("out");
    auto p = kt::load<int64_t>("p");
    kt::Dev<half> df(fm), dout(out);
    kt::Dev<int64_t> dp(p);
    regs_kernel<<<1, nullptr, nullptr>>>(df.gm(), dout.gm(), dp.gm(), (uint32_t)fm.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}

KT_MAIN()
