// Cast on the emulator: every Atlas A2 (dst, src) pair in the count form, the mask/repeat forms
// with mixed-width addressing, saturation switches and DEQSCALE. Reference values are computed
// independently in tests/bench_bridge/sim/test_cast.py.
#include "kgen_test_io.h"

using namespace AscendC;

// ---- count form: x.bin (TS) -> y.bin (TD), processed in UB chunks ------------------------------
// flags: 1 = CAST saturation off, 2 = FLOAT saturation on, 4 = SetDeqScale(deq_milli / 1000)
template <typename TD, typename TS>
__global__ __aicore__ void cast_count_kernel(GM_ADDR src, GM_ADDR dst, uint32_t n, int mode, int flags, float deq) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    constexpr uint32_t CH = 4096;
    pipe.InitBuffer(bs, CH * sizeof(TS));
    pipe.InitBuffer(bd, CH * sizeof(TD));
    LocalTensor<TS> s = bs.Get<TS>();
    LocalTensor<TD> d = bd.Get<TD>();
    GlobalTensor<TS> sg;
    GlobalTensor<TD> dg;
    sg.SetGlobalBuffer((__gm__ TS*)src, n);
    dg.SetGlobalBuffer((__gm__ TD*)dst, n);
    if (flags & 1) SetSaturationFlag<SaturationMode::CAST>(false);
    if (flags & 2) SetSaturationFlag<SaturationMode::FLOAT>(true);
    if (flags & 4) SetDeqScale(half(deq));
    for (uint32_t off = 0; off < n; off += CH) {
        uint32_t len = n - off < CH ? n - off : CH;
        for (uint32_t i = 0; i < len; ++i) s.SetValue(i, sg.GetValue(off + i));
        Cast(d, s, static_cast<RoundMode>(mode), len);  // @cast-site
        for (uint32_t i = 0; i < len; ++i) dg.SetValue(off + i, d.GetValue(i));
    }
}

template <typename TD, typename TS>
void run_cast() {
    auto x = kt::load<TS>("x");
    kt::Dev<TS> dx(x);
    kt::Dev<TD> dy(x.size());
    cast_count_kernel<TD, TS><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), (uint32_t)x.size(), (int)kt::param("mode"),
                                                       (int)kt::param("flags"), (float)kt::param("deq_milli", 1000) / 1000.0f);
    kt::save("y", dy.host());
}

#define CAST_CASE(NAME, TD, TS) KT_CASE(cast_##NAME) { run_cast<TD, TS>(); }
CAST_CASE(half_int8, half, int8_t)
CAST_CASE(half_uint8, half, uint8_t)
CAST_CASE(half_int16, half, int16_t)
CAST_CASE(float_int16, float, int16_t)
CAST_CASE(int8_half, int8_t, half)
CAST_CASE(uint8_half, uint8_t, half)
CAST_CASE(int16_half, int16_t, half)
CAST_CASE(int32_half, int32_t, half)
CAST_CASE(float_half, float, half)
CAST_CASE(int32_bf16, int32_t, bfloat16_t)
CAST_CASE(float_bf16, float, bfloat16_t)
CAST_CASE(int16_int32, int16_t, int32_t)
CAST_CASE(half_int32, half, int32_t)
CAST_CASE(float_int32, float, int32_t)
CAST_CASE(int64_int32, int64_t, int32_t)
CAST_CASE(int16_float, int16_t, float)
CAST_CASE(half_float, half, float)
CAST_CASE(bf16_float, bfloat16_t, float)
CAST_CASE(int32_float, int32_t, float)
CAST_CASE(float_float, float, float)
CAST_CASE(int64_float, int64_t, float)
CAST_CASE(int32_int64, int32_t, int64_t)
CAST_CASE(float_int64, float, int64_t)

// ---- mask/repeat forms -----------------------------------------------------------------------------
// p.bin: [kind, mask_lo, mask_hi, repeat, dstBlk, srcBlk, dstRep, srcRep, counter_total]
// kind 0 normal mask, 1 bit mask, 2 mask register (isSetMask=false), 3 counter mode (isSetMask=false)
template <typename TD, typename TS>
__global__ __aicore__ void cast_repeat_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR params, uint32_t ns, uint32_t nd, int mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    pipe.InitBuffer(bs, ns * sizeof(TS));
    pipe.InitBuffer(bd, nd * sizeof(TD));
    LocalTensor<TS> s = bs.Get<TS>();
    LocalTensor<TD> d = bd.Get<TD>();
    GlobalTensor<TS> sg;
    GlobalTensor<TD> dg;
    GlobalTensor<int64_t> pg;
    sg.SetGlobalBuffer((__gm__ TS*)src, ns);
    dg.SetGlobalBuffer((__gm__ TD*)dst, nd);
    pg.SetGlobalBuffer((__gm__ int64_t*)params, 9);
    for (uint32_t i = 0; i < ns; ++i) s.SetValue(i, sg.GetValue(i));
    for (uint32_t i = 0; i < nd; ++i) d.SetValue(i, dg.GetValue(i));
    UnaryRepeatParams rp((uint16_t)pg(4), (uint16_t)pg(5), (uint16_t)pg(6), (uint16_t)pg(7));
    uint8_t rep = (uint8_t)pg(3);
    RoundMode rm = static_cast<RoundMode>(mode);
    switch (pg(0)) {
        case 0: Cast(d, s, rm, (uint64_t)pg(1), rep, rp); break;
        case 1: {
            uint64_t m[2] = {(uint64_t)pg(1), (uint64_t)pg(2)};
            Cast(d, s, rm, m, rep, rp);
            break;
        }
        case 2:
            SetVectorMask<TD>((uint64_t)pg(2), (uint64_t)pg(1));
            Cast<TD, TS, false>(d, s, rm, (uint64_t)0, rep, rp);
            ResetMask();
            break;
        case 3:
            SetMaskCount();
            SetVectorMask<TD, MaskMode::COUNTER>((int32_t)pg(8));
            Cast<TD, TS, false>(d, s, rm, (uint64_t)0, rep, rp);
            SetMaskNorm();
            ResetMask();
            break;
    }
    for (uint32_t i = 0; i < nd; ++i) dg.SetValue(i, d.GetValue(i));
}

template <typename TD, typename TS>
void run_cast_repeat() {
    auto x = kt::load<TS>("x");
    auto y0 = kt::load<TD>("y0");
    auto p = kt::load<int64_t>("p");
    kt::Dev<TS> dx(x);
    kt::Dev<TD> dy(y0);
    kt::Dev<int64_t> dp(p);
    cast_repeat_kernel<TD, TS><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dp.gm(), (uint32_t)x.size(), (uint32_t)y0.size(),
                                                        (int)kt::param("mode"));
    kt::save("y", dy.host());
}
KT_CASE(repeat_float_half) { run_cast_repeat<float, half>(); }
KT_CASE(repeat_half_float) { run_cast_repeat<half, float>(); }
KT_CASE(repeat_int32_half) { run_cast_repeat<int32_t, half>(); }
KT_CASE(repeat_int8_half) { run_cast_repeat<int8_t, half>(); }

// ---- saturation flags are per core and start at their defaults ------------------------------------
__global__ __aicore__ void flags_kernel(GM_ADDR out) {
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 4);
    o.SetValue(0, GetSaturationFlag<SaturationMode::CAST>() ? 1 : 0);
    o.SetValue(1, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);
    SetSaturationFlag<SaturationMode::CAST>(false);
    SetSaturationFlag<SaturationMode::FLOAT>(true);
    o.SetValue(2, GetSaturationFlag<SaturationMode::CAST>() ? 1 : 0);
    o.SetValue(3, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);
}
KT_CASE(flags) {
    kt::Dev<int32_t> a(4), b(4);
    flags_kernel<<<1, nullptr, nullptr>>>(a.gm());
    flags_kernel<<<1, nullptr, nullptr>>>(b.gm());  // a fresh launch starts from the defaults again
    auto va = a.host(), vb = b.host();
    va.insert(va.end(), vb.begin(), vb.end());
    kt::save("y", va);
}

KT_MAIN()
