// Emulator vector families: unary math, vector-scalar ops, compound ops, Duplicate, and the
// mask register (counter / normal mode with isSetMask = false).
//
// Every case reads its inputs from .bin files written by tests/bench_bridge/sim/test_vec_math.py:
//   x, y   source operands (element type TS), d: the destination's initial contents (TD),
//   p      int64 parameters (layout: enum P below), s: the scalar (float64).
// It writes z, the whole destination buffer after the call, so masked-off elements are checked too.
#include "kgen_test_io.h"

using namespace AscendC;

enum P {
    P_OP, P_FORM, P_MASK_LO, P_MASK_HI, P_REPEAT, P_DBLK, P_S0BLK, P_S1BLK, P_DREP, P_S0REP, P_S1REP, P_COUNT,
    P_REG_MODE, P_REG_LO, P_REG_HI, P_ROUND, P_AFTER, P_N
};
// P_FORM: 0 count form, 1 mask/repeat with a normal mask, 2 with a bit mask uint64_t[2],
//         3 mask/repeat with isSetMask = false, 4 count form with isSetMask = false.
// P_REG_MODE (set before the call): 0 nothing, 1 SetVectorMask(hi, lo), 2 SetVectorMask<T>(len = lo),
//         3 SetMaskCount + SetVectorMask<T, COUNTER>(lo), 4 SetMaskCount only (mask argument = count).
// P_AFTER: 1 = after the call, run Add<TD, false> of dst with itself over one full repeat
//         (shows the mask state a count-form call leaves behind).

struct Params {
    int64_t v[P_N] = {0};
    int64_t operator[](int i) const { return v[i]; }
    UnaryRepeatParams unary() const {
        return UnaryRepeatParams((uint16_t)v[P_DBLK], (uint16_t)v[P_S0BLK], (uint16_t)v[P_DREP], (uint16_t)v[P_S0REP]);
    }
    BinaryRepeatParams binary() const {
        return BinaryRepeatParams((uint16_t)v[P_DBLK], (uint16_t)v[P_S0BLK], (uint16_t)v[P_S1BLK], (uint16_t)v[P_DREP],
                                  (uint16_t)v[P_S0REP], (uint16_t)v[P_S1REP]);
    }
};

template <typename T>
void set_register(const Params& p) {
    switch (p[P_REG_MODE]) {
        case 1: SetVectorMask<T>((uint64_t)p[P_REG_HI], (uint64_t)p[P_REG_LO]); break;
        case 2: SetVectorMask<T>((int32_t)p[P_REG_LO]); break;
        case 3: SetMaskCount(); SetVectorMask<T, MaskMode::COUNTER>((int32_t)p[P_REG_LO]); break;
        case 4: SetMaskCount(); break;
        default: break;
    }
}

/// Device-side buffers: src0 (nx), src1 (nx), dst (nd), each 32-byte padded, filled from GM.
template <typename TD, typename TS>
struct Bufs {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    LocalTensor<TS> x, y;
    LocalTensor<TD> d;
    Params p;
    uint32_t nd;
    double scalar;
    Bufs(GM_ADDR gx, GM_ADDR gy, GM_ADDR gd, GM_ADDR gp, GM_ADDR gs, uint32_t nx, uint32_t nd_) : nd(nd_) {
        uint32_t bx = (nx * sizeof(TS) + 31) / 32 * 32, bd = (nd * sizeof(TD) + 31) / 32 * 32;
        pipe.InitBuffer(buf, 2 * bx + bd);
        LocalTensor<uint8_t> all = buf.Get<uint8_t>();
        x = all.ReinterpretCast<TS>();
        x.SetSize(nx);
        y = all[bx].ReinterpretCast<TS>();
        y.SetSize(nx);
        d = all[2 * bx].ReinterpretCast<TD>();
        d.SetSize(nd);
        GlobalTensor<TS> X, Y;
        GlobalTensor<TD> D;
        GlobalTensor<int64_t> Pg;
        GlobalTensor<double> S;
        X.SetGlobalBuffer((__gm__ TS*)gx, nx);
        Y.SetGlobalBuffer((__gm__ TS*)gy, nx);
        D.SetGlobalBuffer((__gm__ TD*)gd, nd);
        Pg.SetGlobalBuffer((__gm__ int64_t*)gp, P_N);
        S.SetGlobalBuffer((__gm__ double*)gs, 1);
        for (uint32_t i = 0; i < nx; ++i) { x.SetValue(i, X.GetValue(i)); y.SetValue(i, Y.GetValue(i)); }
        for (uint32_t i = 0; i < nd; ++i) d.SetValue(i, D.GetValue(i));
        for (int i = 0; i < P_N; ++i) p.v[i] = Pg.GetValue(i);
        scalar = S.GetValue(0);
    }
    void store(GM_ADDR gz) {
        if (p[P_AFTER] == 1) Add<TD, false>(d, d, d, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
        GlobalTensor<TD> Z;
        Z.SetGlobalBuffer((__gm__ TD*)gz, nd);
        for (uint32_t i = 0; i < nd; ++i) Z.SetValue(i, d.GetValue(i));
        SetMaskNorm();
        ResetMask();
    }
};

// Run one API in the form P_FORM selects. CALL(args...) is the API call with the trailing arguments.
#define KT_FORMS(T, COUNT_CALL, MASK_CALL, BITS_CALL, NOSET_CALL, NOSET_COUNT_CALL)                       \
    do {                                                                                                    \
        uint64_t maskv = (uint64_t)b.p[P_MASK_LO];                                                          \
        uint64_t maskb[2] = {(uint64_t)b.p[P_MASK_LO], (uint64_t)b.p[P_MASK_HI]};                           \
        uint8_t rep = (uint8_t)b.p[P_REPEAT];                                                               \
        int32_t cnt = (int32_t)b.p[P_COUNT];                                                                \
        (void)maskv; (void)maskb; (void)rep; (void)cnt;                                                     \
        set_register<T>(b.p);                                                                               \
        switch (b.p[P_FORM]) {                                                                              \
            case 0: COUNT_CALL; break;                                                                      \
            case 1: MASK_CALL; break;                                                                       \
            case 2: BITS_CALL; break;                                                                       \
            case 3: NOSET_CALL; break;                                                                      \
            case 4: NOSET_COUNT_CALL; break;                                                                \
        }                                                                                                   \
    } while (0)

// ---- unary math -----------------------------------------------------------------------------------
#define KT_UNARY(NAME)                                                                                      \
    KT_FORMS(T, NAME(b.d, b.x, cnt), NAME(b.d, b.x, maskv, rep, b.p.unary()),                               \
             NAME(b.d, b.x, maskb, rep, b.p.unary()), (NAME<T, false>(b.d, b.x, MASK_PLACEHOLDER, rep, b.p.unary())), \
             (void)0)

template <typename T>
__global__ __aicore__ void unary_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR d, GM_ADDR p, GM_ADDR s, GM_ADDR z, uint32_t nx, uint32_t nd) {
    Bufs<T, T> b(x, y, d, p, s, nx, nd);
    constexpr bool fl = std::is_same_v<T, half> || std::is_same_v<T, float>;
    switch (b.p[P_OP]) {
        case 0: if constexpr (fl) KT_UNARY(Exp); break;
        case 1: if constexpr (fl) KT_UNARY(Ln); break;
        case 2: if constexpr (fl) KT_UNARY(Abs); break;
        case 3: if constexpr (fl) KT_UNARY(Sqrt); break;
        case 4: if constexpr (fl) KT_UNARY(Rsqrt); break;
        case 5: if constexpr (fl) KT_UNARY(Reciprocal); break;
        case 6: if constexpr (fl || std::is_same_v<T, int32_t>) KT_UNARY(Relu); break;
        case 7: if constexpr (std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>) KT_UNARY(Not); break;
    }
    b.store(z);
}

// ---- vector-scalar ops -------------------------------------------------------------------------------
#define KT_SCALAR(NAME, SV)                                                                                 \
    KT_FORMS(T, NAME(b.d, b.x, SV, cnt), NAME(b.d, b.x, SV, maskv, rep, b.p.unary()),                       \
             NAME(b.d, b.x, SV, maskb, rep, b.p.unary()),                                                   \
             (NAME<T, false>(b.d, b.x, SV, MASK_PLACEHOLDER, rep, b.p.unary())),                            \
             (NAME<T, false>(b.d, b.x, SV, 1)))

template <typename T>
__global__ __aicore__ void scalar_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR d, GM_ADDR p, GM_ADDR s, GM_ADDR z, uint32_t nx, uint32_t nd) {
    Bufs<T, T> b(x, y, d, p, s, nx, nd);
    constexpr bool arith = std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int16_t> ||
                           std::is_same_v<T, int32_t>;
    constexpr bool fl = std::is_same_v<T, half> || std::is_same_v<T, float>;
    constexpr bool shift = std::is_integral_v<T>;
    const T sv = static_cast<T>(b.scalar);  // the scalar already of type T
    const double sd = b.scalar;             // a double: converted by the API
    const int si = (int)b.scalar;           // an int: converted by the API
    (void)sd; (void)si;
    switch (b.p[P_OP]) {
        case 0: if constexpr (arith) KT_SCALAR(Adds, sv); break;
        case 1: if constexpr (arith) KT_SCALAR(Muls, sv); break;
        case 2: if constexpr (arith) KT_SCALAR(Maxs, sv); break;
        case 3: if constexpr (arith) KT_SCALAR(Mins, sv); break;
        case 4: if constexpr (fl) KT_SCALAR(LeakyRelu, sv); break;
        case 5: if constexpr (shift) KT_SCALAR(ShiftLeft, sv); break;
        case 6: if constexpr (shift) KT_SCALAR(ShiftRight, sv); break;
        case 7: if constexpr (shift) {  // ShiftRight with roundEn (mask/repeat forms only)
            if (b.p[P_FORM] == 1) ShiftRight(b.d, b.x, sv, (uint64_t)b.p[P_MASK_LO], (uint8_t)b.p[P_REPEAT], b.p.unary(), b.p[P_ROUND] != 0);
            else {
                uint64_t m[2] = {(uint64_t)b.p[P_MASK_LO], (uint64_t)b.p[P_MASK_HI]};
                ShiftRight(b.d, b.x, sv, m, (uint8_t)b.p[P_REPEAT], b.p.unary(), b.p[P_ROUND] != 0);
            }
        } break;
        case 8: if constexpr (fl) Adds(b.d, b.x, sd, (int32_t)b.p[P_COUNT]); break;   // double scalar
        case 9: if constexpr (arith) Muls(b.d, b.x, si, (int32_t)b.p[P_COUNT]); break;  // int scalar
        case 10: if constexpr (std::is_same_v<T, half>) Adds(b.d, b.x, 2.0f, (int32_t)b.p[P_COUNT]); break;
        case 11: if constexpr (std::is_same_v<T, half>) Muls(b.d, b.x, (half)2.0, (int32_t)b.p[P_COUNT]); break;
    }
    b.store(z);
}

// ---- compound ops -------------------------------------------------------------------------------------
template <typename TD, typename TS>
__global__ __aicore__ void compound_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR d, GM_ADDR p, GM_ADDR s, GM_ADDR z, uint32_t nx, uint32_t nd) {
    Bufs<TD, TS> b(x, y, d, p, s, nx, nd);
    using T = TD;
    const TS sv = static_cast<TS>(b.scalar);
    constexpr bool same = std::is_same_v<TD, TS>;
    switch (b.p[P_OP]) {
        case 0:
            KT_FORMS(T, Axpy(b.d, b.x, sv, cnt), Axpy(b.d, b.x, sv, maskv, rep, b.p.unary()),
                     Axpy(b.d, b.x, sv, maskb, rep, b.p.unary()),
                     (Axpy<TD, TS, false>(b.d, b.x, sv, MASK_PLACEHOLDER, rep, b.p.unary())), (void)0);
            break;
        case 1:
            KT_FORMS(T, MulAddDst(b.d, b.x, b.y, cnt), MulAddDst(b.d, b.x, b.y, maskv, rep, b.p.binary()),
                     MulAddDst(b.d, b.x, b.y, maskb, rep, b.p.binary()),
                     (MulAddDst<TD, TS, false>(b.d, b.x, b.y, MASK_PLACEHOLDER, rep, b.p.binary())), (void)0);
            break;
#define KT_TERNARY(NAME)                                                                                    \
    KT_FORMS(T, NAME(b.d, b.x, b.y, cnt), NAME(b.d, b.x, b.y, maskv, rep, b.p.binary()),                    \
             NAME(b.d, b.x, b.y, maskb, rep, b.p.binary()),                                                 \
             (NAME<T, false>(b.d, b.x, b.y, MASK_PLACEHOLDER, rep, b.p.binary())), (void)0)
        case 2: if constexpr (same) KT_TERNARY(FusedMulAdd); break;
        case 3: if constexpr (same) KT_TERNARY(MulAddRelu); break;
        case 4: if constexpr (same) KT_TERNARY(FusedMulAddRelu); break;
        case 5: if constexpr (!same) Axpy(b.d, b.x, 2.5f, (int32_t)b.p[P_COUNT]); break;  // float literal scalar, half src
        case 6: if constexpr (!same) {  // overlapping half source and float destination: an error
            LocalTensor<TS> alias = b.d.template ReinterpretCast<TS>();  // @overlap-site
            Axpy(b.d, alias, sv, (int32_t)b.p[P_COUNT]);
        } break;
    }
    b.store(z);
}

// ---- Duplicate --------------------------------------------------------------------------------------------
template <typename T>
__global__ __aicore__ void dup_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR d, GM_ADDR p, GM_ADDR s, GM_ADDR z, uint32_t nx, uint32_t nd) {
    Bufs<T, T> b(x, y, d, p, s, nx, nd);
    const double sd = b.scalar;
    KT_FORMS(T, Duplicate(b.d, sd, cnt),
             Duplicate(b.d, sd, maskv, rep, (uint16_t)b.p[P_DBLK], (uint8_t)b.p[P_DREP]),
             Duplicate(b.d, sd, maskb, rep, (uint16_t)b.p[P_DBLK], (uint8_t)b.p[P_DREP]),
             (Duplicate<T, false>(b.d, sd, MASK_PLACEHOLDER, rep, (uint16_t)b.p[P_DBLK], (uint8_t)b.p[P_DREP])), (void)0);
    b.store(z);
}

// ---- Add with the mask register (vec_engine counter-mode fix) --------------------------------------------
template <typename T>
__global__ __aicore__ void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR d, GM_ADDR p, GM_ADDR s, GM_ADDR z, uint32_t nx, uint32_t nd) {
    Bufs<T, T> b(x, y, d, p, s, nx, nd);
    KT_FORMS(T, Add(b.d, b.x, b.y, cnt), Add(b.d, b.x, b.y, maskv, rep, b.p.binary()),
             Add(b.d, b.x, b.y, maskb, rep, b.p.binary()),
             (Add<T, false>(b.d, b.x, b.y, MASK_PLACEHOLDER, rep, b.p.binary())), (void)0);
    b.store(z);
}

// ---- call spellings used by real kernels and the API documentation (must compile unchanged) ----------------
// Writes z = [Exp (normal mask) | Exp (bit mask) | Adds<half,false> counter | Axpy | Duplicate | ShiftRight] as half
// (ShiftRight and Duplicate<int16_t> results converted), 128 elements per section.
__global__ __aicore__ void spelling_kernel(GM_ADDR gx, GM_ADDR gz) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 1024);
    AscendC::LocalTensor<half> src = buf.Get<half>(), out = src[512];
    AscendC::LocalTensor<float> f = src[1280].ReinterpretCast<float>();
    AscendC::LocalTensor<int16_t> i16 = src[1536].ReinterpretCast<int16_t>();
    GlobalTensor<half> X, Z;
    X.SetGlobalBuffer((__gm__ half*)gx, 512);
    Z.SetGlobalBuffer((__gm__ half*)gz, 768);
    AscendC::DataCopy(src, X, 512);
    uint64_t mask = 256 / sizeof(half);
    AscendC::Exp(out, src, mask, 1, { 1, 1, 8, 8 });
    uint64_t maskBits[2] = { UINT64_MAX, UINT64_MAX };
    AscendC::Exp(out[128], src[128], maskBits, 1, { 1, 1, 8, 8 });
    half num = 2;
    AscendC::SetMaskCount();
    AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(128);
    AscendC::Adds<half, false>(out[256], src[256], num, 1);
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
    AscendC::Duplicate<float>(f, 1.0f, 128);
    AscendC::Axpy<float, half>(f, src[384], (half)2.0, 64, 2, { 1, 1, 8, 4 });
    AscendC::Cast(out[384], f, AscendC::RoundMode::CAST_NONE, 128);
    AscendC::Duplicate(out[512], (half)0.5, 64);
    AscendC::Duplicate(out[576], 3, 64);  // int literal into a half tensor
    AscendC::Duplicate(i16, (int16_t)-64, 128);
    AscendC::ShiftRight(i16, i16, (int16_t)2, mask, 1, { 1, 1, 8, 8 }, false);
    AscendC::Cast(out[640], i16, AscendC::RoundMode::CAST_NONE, 128);
    AscendC::DataCopy(Z, out, 768);
}
KT_CASE(spellings) {
    auto x = kt::load<half>("x");
    kt::Dev<half> dx(x), dz(768);
    spelling_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dz.gm());
    kt::save("z", dz.host());
}

// ---- host side: one case per (family, element types) ----------------------------------------------------
template <typename TD, typename TS, typename K>
void run_case(K kernel) {
    auto x = kt::load<TS>("x");
    auto y = kt::load<TS>("y");
    auto d = kt::load<TD>("d");
    auto p = kt::load<int64_t>("p");
    auto s = kt::load<double>("s");
    p.resize(P_N, 0);
    kt::Dev<TS> dx(x), dy(y);
    kt::Dev<TD> dd(d), dz(d.size());
    kt::Dev<int64_t> dp(p);
    kt::Dev<double> ds(s);
    kernel<<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dd.gm(), dp.gm(), ds.gm(), dz.gm(), (uint32_t)x.size(), (uint32_t)d.size());
    kt::save("z", dz.host());
}

KT_CASE(unary_f32) { run_case<float, float>(unary_kernel<float>); }
KT_CASE(unary_f16) { run_case<half, half>(unary_kernel<half>); }
KT_CASE(unary_i32) { run_case<int32_t, int32_t>(unary_kernel<int32_t>); }
KT_CASE(unary_i16) { run_case<int16_t, int16_t>(unary_kernel<int16_t>); }
KT_CASE(unary_u16) { run_case<uint16_t, uint16_t>(unary_kernel<uint16_t>); }
KT_CASE(scalar_f32) { run_case<float, float>(scalar_kernel<float>); }
KT_CASE(scalar_f16) { run_case<half, half>(scalar_kernel<half>); }
KT_CASE(scalar_i32) { run_case<int32_t, int32_t>(scalar_kernel<int32_t>); }
KT_CASE(scalar_i16) { run_case<int16_t, int16_t>(scalar_kernel<int16_t>); }
KT_CASE(scalar_u16) { run_case<uint16_t, uint16_t>(scalar_kernel<uint16_t>); }
KT_CASE(scalar_u32) { run_case<uint32_t, uint32_t>(scalar_kernel<uint32_t>); }
KT_CASE(compound_f32) { run_case<float, float>(compound_kernel<float, float>); }
KT_CASE(compound_f16) { run_case<half, half>(compound_kernel<half, half>); }
KT_CASE(compound_f32_f16) { run_case<float, half>(compound_kernel<float, half>); }
KT_CASE(dup_f32) { run_case<float, float>(dup_kernel<float>); }
KT_CASE(dup_f16) { run_case<half, half>(dup_kernel<half>); }
KT_CASE(dup_bf16) { run_case<bfloat16_t, bfloat16_t>(dup_kernel<bfloat16_t>); }
KT_CASE(dup_i16) { run_case<int16_t, int16_t>(dup_kernel<int16_t>); }
KT_CASE(dup_u32) { run_case<uint32_t, uint32_t>(dup_kernel<uint32_t>); }
KT_CASE(add_f32) { run_case<float, float>(add_kernel<float>); }
KT_CASE(add_f16) { run_case<half, half>(add_kernel<half>); }

KT_MAIN()
