// Compare, Compares/CompareScalar, the CMPMASK register and Select on the emulator. Reference
// values are computed independently in tests/bench_bridge/sim/test_compare_select.py.
#include "kgen_test_io.h"

using namespace AscendC;

// Copy a whole GM array into a UB tensor element by element (lengths need not be 32-byte multiples).
template <typename T>
void to_ub(const LocalTensor<T>& t, GM_ADDR g, uint32_t n) {
    GlobalTensor<T> gt;
    gt.SetGlobalBuffer((__gm__ T*)g, n);
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, gt.GetValue(i));
}
template <typename T>
void to_gm(GM_ADDR g, const LocalTensor<T>& t, uint32_t n) {
    GlobalTensor<T> gt;
    gt.SetGlobalBuffer((__gm__ T*)g, n);
    for (uint32_t i = 0; i < n; ++i) gt.SetValue(i, t.GetValue(i));
}
inline uint32_t pad32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// ---- Compare / Compares, count and mask/repeat forms ----------------------------------------------
// p.bin: [form, count_or_mask, repeat, blk0, blk1, rep0, rep1, mask_hi]
//   form 0 Compare count, 1 Compares count, 2 CompareScalar count,
//        3 Compare normal-mask repeat, 4 Compare bit-mask repeat, 5 Compares normal-mask repeat
template <typename T>
__global__ __aicore__ void cmp_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR d, GM_ADDR params, uint32_t na, uint32_t nd, int mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bd;
    pipe.InitBuffer(ba, pad32(na * sizeof(T)));
    pipe.InitBuffer(bb, pad32(na * sizeof(T)));
    pipe.InitBuffer(bd, pad32(nd));
    LocalTensor<T> x = ba.Get<T>(), y = bb.Get<T>();
    LocalTensor<uint8_t> z = bd.Get<uint8_t>();
    to_ub(x, a, na);
    to_ub(y, b, na);
    to_ub(z, d, nd);
    GlobalTensor<int64_t> p;
    p.SetGlobalBuffer((__gm__ int64_t*)params, 8);
    CMPMODE m = static_cast<CMPMODE>(mode);
    T s = y.GetValue(0);
    uint8_t rep = (uint8_t)p(2);
    BinaryRepeatParams bp(1, (uint16_t)p(3), (uint16_t)p(4), 8, (uint16_t)p(5), (uint16_t)p(6));
    UnaryRepeatParams up(1, (uint16_t)p(3), 8, (uint16_t)p(5));
    switch (p(0)) {
        case 0: Compare(z, x, y, m, (uint32_t)p(1)); break;  // @compare-site
        case 1: Compares(z, x, s, m, (uint32_t)p(1)); break;
        case 2: CompareScalar(z, x, s, m, (uint32_t)p(1)); break;
        case 3: Compare(z, x, y, m, (uint64_t)p(1), rep, bp); break;
        case 4: {
            uint64_t mk[2] = {(uint64_t)p(1), (uint64_t)p(7)};
            Compare(z, x, y, m, mk, rep, bp);
            break;
        }
        case 5: Compares(z, x, s, m, (uint64_t)p(1), rep, up); break;
    }
    to_gm(d, z, nd);
}
template <typename T>
void run_cmp() {
    auto a = kt::load<T>("a");
    auto b = kt::load<T>("b");
    auto d0 = kt::load<uint8_t>("d0");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> da(a), db(b);
    kt::Dev<uint8_t> dd(d0);
    kt::Dev<int64_t> dp(p);
    cmp_kernel<T><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dd.gm(), dp.gm(), (uint32_t)a.size(), (uint32_t)d0.size(),
                                           (int)kt::param("mode"));
    kt::save("d", dd.host());
}
KT_CASE(cmp_f32) { run_cmp<float>(); }
KT_CASE(cmp_f16) { run_cmp<half>(); }
KT_CASE(cmp_i32) { run_cmp<int32_t>(); }

// ---- Compare into CMPMASK, read back with GetCmpMask ---------------------------------------------
// p.bin: [kind (0 normal, 1 bit mask, 2 register mask), lo, hi, blk0, blk1]
template <typename T>
__global__ __aicore__ void cmp_reg_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR d, GM_ADDR params, uint32_t na, int mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bd;
    pipe.InitBuffer(ba, pad32(na * sizeof(T)));
    pipe.InitBuffer(bb, pad32(na * sizeof(T)));
    pipe.InitBuffer(bd, 32);
    LocalTensor<T> x = ba.Get<T>(), y = bb.Get<T>();
    LocalTensor<uint8_t> z = bd.Get<uint8_t>();
    to_ub(x, a, na);
    to_ub(y, b, na);
    GlobalTensor<int64_t> p;
    p.SetGlobalBuffer((__gm__ int64_t*)params, 5);
    BinaryRepeatParams bp(1, (uint16_t)p(3), (uint16_t)p(4), 8, 8, 8);
    CMPMODE m = static_cast<CMPMODE>(mode);
    if (p(0) == 0) {
        Compare(x, y, m, (uint64_t)p(1), bp);
    } else if (p(0) == 1) {
        uint64_t mk[2] = {(uint64_t)p(1), (uint64_t)p(2)};
        Compare(x, y, m, mk, bp);
    } else {
        SetVectorMask<T>((uint64_t)p(2), (uint64_t)p(1));
        Compare<T, false>(x, y, m, (uint64_t)0, bp);
        ResetMask();
    }
    GetCmpMask(z);
    to_gm(d, z, 16);
}
template <typename T>
void run_cmp_reg() {
    auto a = kt::load<T>("a");
    auto b = kt::load<T>("b");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> da(a), db(b);
    kt::Dev<uint8_t> dd(16);
    kt::Dev<int64_t> dp(p);
    cmp_reg_kernel<T><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dd.gm(), dp.gm(), (uint32_t)a.size(), (int)kt::param("mode"));
    kt::save("d", dd.host());
}
KT_CASE(cmp_reg_f32) { run_cmp_reg<float>(); }
KT_CASE(cmp_reg_f16) { run_cmp_reg<half>(); }

// ---- Select ---------------------------------------------------------------------------------------
// p.bin: [form, selmode, count_or_mask_lo, mask_hi, repeat, dblk, s0blk, s1blk, drep, s0rep, s1rep]
//   form 0 count (tensor src1), 1 count (scalar src1), 2 normal-mask repeat, 3 bit-mask repeat,
//        4 normal-mask repeat with scalar, 5 no-mask form (SetCmpMask + SetVectorMask(lo, hi)),
//        6 bit-mask repeat with scalar
// The scalar is b[0]; selMask is sel.bin (uint8 bytes) viewed as U = uint8_t or uint32_t (param u32).
template <typename T, typename U>
__global__ __aicore__ void sel_kernel(GM_ADDR sel, GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR params, uint32_t nsel,
                                      uint32_t na, uint32_t ny) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, ba, bb, by, bt;
    pipe.InitBuffer(bs, pad32(nsel));
    pipe.InitBuffer(ba, pad32(na * sizeof(T)));
    pipe.InitBuffer(bb, pad32(na * sizeof(T)));
    pipe.InitBuffer(by, pad32(ny * sizeof(T)));
    pipe.InitBuffer(bt, 64);
    LocalTensor<uint8_t> s8 = bs.Get<uint8_t>();
    LocalTensor<T> x = ba.Get<T>(), z = bb.Get<T>(), d = by.Get<T>();
    to_ub(s8, sel, nsel);
    to_ub(x, a, na);
    to_ub(z, b, na);
    to_ub(d, y, ny);
    LocalTensor<U> s = s8.ReinterpretCast<U>();
    GlobalTensor<int64_t> p;
    p.SetGlobalBuffer((__gm__ int64_t*)params, 11);
    SELMODE sm = static_cast<SELMODE>(p(1));
    T scalar = z.GetValue(0);
    uint8_t rep = (uint8_t)p(4);
    BinaryRepeatParams bp((uint16_t)p(5), (uint16_t)p(6), (uint16_t)p(7), (uint16_t)p(8), (uint16_t)p(9), (uint16_t)p(10));
    switch (p(0)) {
        case 0: Select(d, s, x, z, sm, (uint32_t)p(2)); break;  // @select-site
        case 1: Select(d, s, x, scalar, sm, (uint32_t)p(2)); break;
        case 2: Select(d, s, x, z, sm, (uint64_t)p(2), rep, bp); break;
        case 3: {
            uint64_t mk[2] = {(uint64_t)p(2), (uint64_t)p(3)};
            Select(d, s, x, z, sm, mk, rep, bp);
            break;
        }
        case 4: Select(d, s, x, scalar, sm, (uint64_t)p(2), rep, bp); break;
        case 6: {
            uint64_t mk[2] = {(uint64_t)p(2), (uint64_t)p(3)};
            Select(d, s, x, scalar, sm, mk, rep, bp);
            break;
        }
        case 5: {
            LocalTensor<T> tmp = bt.Get<T>();
            if (sm == SELMODE::VSEL_CMPMASK_SPR) {
                SetCmpMask(s);
            } else if (sm == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
                // the documented CPU-debug recipe: the register holds the selMask address
                tmp.template ReinterpretCast<int64_t>().SetValue(0, reinterpret_cast<int64_t>(
                    reinterpret_cast<__ubuf__ int64_t*>(s.GetPhyAddr())));
                SetCmpMask<int64_t>(tmp.template ReinterpretCast<int64_t>());
            } else {
                for (uint32_t i = 0; i < 32 / sizeof(T); ++i) tmp.SetValue(i, scalar);
                SetCmpMask(tmp);
            }
            SetVectorMask<T>((uint64_t)p(3), (uint64_t)p(2));
            if (sm == SELMODE::VSEL_CMPMASK_SPR) Select<T, SELMODE::VSEL_CMPMASK_SPR>(d, x, z, rep, bp);
            else if (sm == SELMODE::VSEL_TENSOR_TENSOR_MODE) Select<T, SELMODE::VSEL_TENSOR_TENSOR_MODE>(d, x, z, rep, bp);
            else Select(d, s, x, rep, bp);
            ResetMask();
            break;
        }
    }
    to_gm(y, d, ny);
}
template <typename T, typename U>
void run_sel() {
    auto sel = kt::load<uint8_t>("sel");
    auto a = kt::load<T>("a");
    auto b = kt::load<T>("b");
    auto y0 = kt::load<T>("y0");
    auto p = kt::load<int64_t>("p");
    kt::Dev<uint8_t> ds(sel);
    kt::Dev<T> da(a), db(b), dy(y0);
    kt::Dev<int64_t> dp(p);
    sel_kernel<T, U><<<1, nullptr, nullptr>>>(ds.gm(), da.gm(), db.gm(), dy.gm(), dp.gm(), (uint32_t)sel.size(),
                                              (uint32_t)a.size(), (uint32_t)y0.size());
    kt::save("y", dy.host());
}
KT_CASE(sel_f32) { run_sel<float, uint8_t>(); }
KT_CASE(sel_f16) { run_sel<half, uint8_t>(); }
KT_CASE(sel_f32_u32) { run_sel<float, uint32_t>(); }

KT_MAIN()
