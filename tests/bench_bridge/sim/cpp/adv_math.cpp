// High-level math APIs (kgen_sim/adv/math.h, math_binary.h) and their host size helpers.
//
// Case `math_<type>`: inputs x.bin, y.bin (second operand), z.bin (initial destination), params
// op, n (calCount), tmp (bytes of sharedTmpBuffer; 0: the API takes its own), form (0: calCount
// form, 1: whole-tensor form), reserve (bytes of UB to hand out first), s.bin (float scalar).
// Output z.bin: the whole destination buffer (elements past n must be untouched).
#include "kgen_test_io.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

enum Op {
    SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH, ASINH, ACOSH, ATANH, ERF, ERFC,
    CEIL, FLOOR, ROUND, TRUNC, FRAC, SIGN, LOG, LOG2, LOG10, EXP0, EXP3, EXP12,
    POW_TT, POW_TS, POW_ST, FMOD, CLAMPMAX, CLAMPMIN, AXPY, XOR, INPLACE_SIN, INPLACE_TRUNC,
};

template <typename T>
struct Bufs {
    LocalTensor<T> x, y, z;
    LocalTensor<uint8_t> tmp;
    bool has_tmp;
};

// Unary ops: the calCount form (with or without tmp), or the whole-tensor form on n-element views.
#define UNARY(NAME)                                                                       \
    if (b.has_tmp) { if (whole) NAME(b.z, b.x, b.tmp); else NAME(b.z, b.x, b.tmp, n); }   \
    else { if (whole) NAME(b.z, b.x); else NAME(b.z, b.x, n); }
#define UNARY2(NAME)                                                                      \
    if (b.has_tmp) NAME(b.z, b.x, b.tmp, n); else NAME(b.z, b.x, n);

template <typename T>
void run_float_op(int op, Bufs<T>& b, uint32_t n, bool whole, float s) {
    switch (op) {
        case SIN: UNARY(Sin) break;
        case COS: UNARY(Cos) break;
        case TAN: UNARY(Tan) break;
        case ASIN: UNARY(Asin) break;
        case ACOS: UNARY(Acos) break;
        case ATAN: UNARY(Atan) break;
        case SINH: UNARY(Sinh) break;
        case COSH: UNARY(Cosh) break;
        case TANH: UNARY(Tanh) break;
        case ASINH: UNARY(Asinh) break;
        case ACOSH: UNARY(Acosh) break;
        case ATANH: UNARY(Atanh) break;
        case ERF: UNARY(Erf) break;
        case ERFC: UNARY(Erfc) break;
        case TRUNC: UNARY(Trunc) break;
        case FRAC: UNARY(Frac) break;
        case SIGN: UNARY(Sign) break;
        case LOG2: UNARY(Log2) break;
        case CEIL: UNARY2(Ceil) break;
        case FLOOR: UNARY2(Floor) break;
        case ROUND: UNARY2(Round) break;
        case LOG: if (whole) Log(b.z, b.x); else Log(b.z, b.x, n); break;
        case LOG10: if (whole) Log10(b.z, b.x); else Log10(b.z, b.x, n); break;
        case EXP0: if (b.has_tmp) Exp<T, 0>(b.z, b.x, b.tmp, n); else Exp<T, 0>(b.z, b.x, n); break;
        case EXP3: if (b.has_tmp) Exp<T, 3>(b.z, b.x, b.tmp, n); else Exp<T, 3>(b.z, b.x, n); break;
        case EXP12: if (b.has_tmp) Exp<T, 12, false>(b.z, b.x, b.tmp, n); else Exp<T, 12>(b.z, b.x, n); break;
        case POW_TT:
            if (b.has_tmp) { if (whole) Power(b.z, b.x, b.y, b.tmp); else Power(b.z, b.x, b.y, b.tmp, n); }
            else { if (whole) Power(b.z, b.x, b.y); else Power(b.z, b.x, b.y, n); }
            break;
        case POW_TS:
            if (b.has_tmp) Power(b.z, b.x, T(s), b.tmp, n); else Power(b.z, b.x, T(s), n);
            break;
        case POW_ST:
            if (b.has_tmp) Power(b.z, T(s), b.y, b.tmp, n); else Power(b.z, T(s), b.y, n);
            break;
        case FMOD:
            if (b.has_tmp) { if (whole) Fmod(b.z, b.x, b.y, b.tmp); else Fmod(b.z, b.x, b.y, b.tmp, n); }
            else { if (whole) Fmod(b.z, b.x, b.y); else Fmod(b.z, b.x, b.y, n); }
            break;
        case CLAMPMAX: if (b.has_tmp) ClampMax(b.z, b.x, b.tmp, T(s), n); else ClampMax(b.z, b.x, T(s), n); break;
        case CLAMPMIN: if (b.has_tmp) ClampMin(b.z, b.x, b.tmp, T(s), n); else ClampMin(b.z, b.x, T(s), n); break;
        case AXPY: Axpy(b.z, b.x, T(s), b.tmp, n); break;
        case INPLACE_SIN: Sin(b.z, b.z, b.tmp, n); break;  // documented as not allowed
        case INPLACE_TRUNC: Trunc(b.z, b.z, b.tmp, n); break;  // allowed
    }
}

template <typename T>
void run_int_op(int op, Bufs<T>& b, uint32_t n, bool whole, float s) {
    if constexpr (std::is_same_v<T, int32_t>) {
        if (op == POW_TT) { if (b.has_tmp) Power(b.z, b.x, b.y, b.tmp, n); else Power(b.z, b.x, b.y, n); }
        if (op == POW_TS) Power(b.z, b.x, (int32_t)s, b.tmp, n);
    } else {
        if (op == XOR) {
            if (b.has_tmp) { if (whole) Xor(b.z, b.x, b.y, b.tmp); else Xor(b.z, b.x, b.y, b.tmp, n); }
            else { if (whole) Xor(b.z, b.x, b.y); else Xor(b.z, b.x, b.y, n); }
        }
    }
}

template <typename T>
__global__ __aicore__ void math_kernel(GM_ADDR xg, GM_ADDR yg, GM_ADDR zg, uint32_t len, uint32_t n, uint32_t tmpBytes,
                                       int op, int whole, uint32_t reserve, float s) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> rbuf, xb, yb, zb, tb;
    if (reserve) pipe.InitBuffer(rbuf, reserve);
    pipe.InitBuffer(xb, len * sizeof(T));
    pipe.InitBuffer(yb, len * sizeof(T));
    pipe.InitBuffer(zb, len * sizeof(T));
    Bufs<T> b;
    b.has_tmp = tmpBytes != 0;
    if (b.has_tmp) {
        pipe.InitBuffer(tb, tmpBytes);
        b.tmp = tb.Get<uint8_t>();
    }
    GlobalTensor<T> X, Y, Z;
    X.SetGlobalBuffer((__gm__ T*)xg, len);
    Y.SetGlobalBuffer((__gm__ T*)yg, len);
    Z.SetGlobalBuffer((__gm__ T*)zg, len);
    // whole-tensor forms see tensors of exactly n elements
    b.x = whole ? xb.Get<T>(n) : xb.Get<T>();
    b.y = whole ? yb.Get<T>(n) : yb.Get<T>();
    b.z = whole ? zb.Get<T>(n) : zb.Get<T>();
    LocalTensor<T> xf = xb.Get<T>(), yf = yb.Get<T>(), zf = zb.Get<T>();
    DataCopy(xf, X, len);
    DataCopy(yf, Y, len);
    DataCopy(zf, Z, len);
    if constexpr (kgen::is_float_v<T>) run_float_op<T>(op, b, n, whole, s);
    else run_int_op<T>(op, b, n, whole, s);
    DataCopy(Z, zf, len);
}

template <typename T>
void run_math() {
    auto x = kt::load<T>("x");
    auto y = kt::load<T>("y");
    auto z = kt::load<T>("z");
    auto s = kt::load<float>("s");
    kt::Dev<T> dx(x), dy(y), dz(z);
    math_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dz.gm(), (uint32_t)x.size(), (uint32_t)kt::param("n"),
                                            (uint32_t)kt::param("tmp"), (int)kt::param("op"), (int)kt::param("whole"),
                                            (uint32_t)kt::param("reserve"), s.empty() ? 0.0f : s[0]);
    kt::save("z", dz.host());
}
KT_CASE(math_f32) { run_math<float>(); }
KT_CASE(math_f16) { run_math<half>(); }
KT_CASE(math_i32) { run_math<int32_t>(); }
KT_CASE(math_i16) { run_math<int16_t>(); }
KT_CASE(math_u16) { run_math<uint16_t>(); }

// Axpy with a float destination and a half source.
__global__ __aicore__ void axpy_mixed_kernel(GM_ADDR xg, GM_ADDR zg, uint32_t n, uint32_t tmpBytes, float s) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, tb;
    uint32_t len = (n + 63) / 64 * 64;
    pipe.InitBuffer(xb, len * 2);
    pipe.InitBuffer(zb, len * 4);
    pipe.InitBuffer(tb, tmpBytes);
    GlobalTensor<half> X;
    GlobalTensor<float> Z;
    X.SetGlobalBuffer((__gm__ half*)xg, len);
    Z.SetGlobalBuffer((__gm__ float*)zg, len);
    LocalTensor<half> x = xb.Get<half>();
    LocalTensor<float> z = zb.Get<float>();
    DataCopy(x, X, len);
    DataCopy(z, Z, len);
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    Axpy(z, x, half(s), tmp, n);
    DataCopy(Z, z, len);
}
KT_CASE(axpy_mixed) {
    auto x = kt::load<half>("x");
    auto z = kt::load<float>("z");
    kt::Dev<half> dx(x);
    kt::Dev<float> dz(z);
    axpy_mixed_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), (uint32_t)kt::param("n"), (uint32_t)kt::param("tmp"),
                                               kt::load<float>("s")[0]);
    kt::save("z", dz.host());
}

// The temporary buffer is clobbered by the call (its contents afterwards are unspecified).
__global__ __aicore__ void tmp_clobber_kernel(GM_ADDR outg) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, tb;
    pipe.InitBuffer(xb, 256);
    pipe.InitBuffer(zb, 256);
    pipe.InitBuffer(tb, 1024);
    LocalTensor<float> x = xb.Get<float>(), z = zb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    for (int i = 0; i < 64; ++i) x.SetValue(i, 0.5f);
    for (int i = 0; i < 1024; ++i) tmp.SetValue(i, 7);
    Sin(z, x, tmp, 64);
    GlobalTensor<uint8_t> O;
    O.SetGlobalBuffer((__gm__ uint8_t*)outg, 1024);
    for (int i = 0; i < 1024; ++i) O.SetValue(i, tmp.GetValue(i));
}
KT_CASE(tmp_clobber) {
    kt::Dev<uint8_t> out(1024);
    tmp_clobber_kernel<<<1, nullptr, nullptr>>>(out.gm());
    kt::save("out", out.host());
}

// ---- host helpers ----------------------------------------------------------------------------
// One line per helper: name, typeSize, reuse, n -> max, min (and the factor-size pair).
KT_CASE(host_sizes) {
    std::vector<uint32_t> out;
    auto add = [&](uint32_t mx, uint32_t mn) { out.push_back(mx); out.push_back(mn); };
    uint32_t mx = 0, mn = 0, node = 0, extra = 0;
    for (uint32_t n : {16u, 100u, 1000u})
        for (uint32_t ts : {2u, 4u}) {
            TensorShape sh({int64_t(n)});
            GetSinMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetCosMaxMinTmpSize(sh, ts, ts == 4, mx, mn); add(mx, mn);
            GetTanhMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetErfMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetAtanMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetFloorMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetLogMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetLog2MaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetClampMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            GetFmodMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, mn);
            bool ok = GetExpMaxMinTmpSize(sh, ts, false, mx, mn); add(mx, ok ? mn : 999999);
            GetRoundMaxMinTmpSize(*platform_ascendc::PlatformAscendCManager::GetInstance(), sh, ts, false, mx, mn); add(mx, mn);
            GetPowerMaxMinTmpSize(sh, sh, false, ts, false, mx, mn); add(mx, mn);
            GetPowerMaxMinTmpSize(sh, TensorShape({1}), false, ts, false, mx, mn); add(mx, mn);
        }
    GetSinTmpBufferFactorSize(2, node, extra); add(node, extra);
    GetSinTmpBufferFactorSize(4, node, extra); add(node, extra);
    GetPowerTmpBufferFactorSize(true, true, true, 4, node, extra); add(node, extra);
    kt::save("sizes", out);
}

KT_MAIN()
