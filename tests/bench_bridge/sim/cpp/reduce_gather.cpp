// Emulator reductions (ReduceSum/Max/Min, WholeReduce*, BlockReduce*, PairReduceSum, RepeatReduceSum)
// and Gather / Transpose / Brcb / CreateVecIndex, driven by parameters from the Python tests.
#include "kgen_test_io.h"

using namespace AscendC;

// Parameter slots shared by the Python side (p.bin, int64 each).
enum P { OP, MASKMODE, MASK, HI, REPEAT, DSTREP, SRCBLK, SRCREP, ORDER, COUNT, DOFF, NPARAM };

template <typename T>
static void load_ub(const LocalTensor<T>& t, const GlobalTensor<T>& g, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, g.GetValue(i));
}
template <typename T>
static void store_gm(const GlobalTensor<T>& g, const LocalTensor<T>& t, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) g.SetValue(i, t.GetValue(i));
}

// Call F(mask) with either the normal mask (int32) or the bit mask array.
#define WITH_MASK(CALL)                                               \
    if (p[MASKMODE] == 0) {                                           \
        const int32_t m = static_cast<int32_t>(p[MASK]);              \
        CALL;                                                         \
    } else {                                                          \
        const uint64_t m[2] = {(uint64_t)p[MASK], (uint64_t)p[HI]};   \
        CALL;                                                         \
    }

// ---- reductions: src, dst (pre-filled), work (pre-filled) in one TBuf -----------------------------------
template <typename T>
__global__ __aicore__ void red_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR work, GM_ADDR prm, uint32_t ns, uint32_t nd, uint32_t nw) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (ns + nd + nw) * sizeof(T));
    GlobalTensor<T> sg, dg, wg;
    GlobalTensor<int64_t> pg;
    sg.SetGlobalBuffer((__gm__ T*)src, ns);
    dg.SetGlobalBuffer((__gm__ T*)dst, nd);
    wg.SetGlobalBuffer((__gm__ T*)work, nw);
    pg.SetGlobalBuffer((__gm__ int64_t*)prm, NPARAM);
    int64_t p[NPARAM];
    for (int i = 0; i < NPARAM; ++i) p[i] = pg.GetValue(i);
    const uint32_t doff = (uint32_t)p[DOFF];
    LocalTensor<T> s = buf.GetWithOffset<T>(ns, 0);
    LocalTensor<T> dAll = buf.GetWithOffset<T>(nd, ns * sizeof(T));
    LocalTensor<T> w = buf.GetWithOffset<T>(nw, (ns + nd) * sizeof(T));
    load_ub(s, sg, ns);
    load_ub(dAll, dg, nd);
    load_ub(w, wg, nw);
    LocalTensor<T> d = buf.GetWithOffset<T>(nd - doff, (ns + doff) * sizeof(T));
    const int32_t rep = (int32_t)p[REPEAT], drep = (int32_t)p[DSTREP], sblk = (int32_t)p[SRCBLK], srep = (int32_t)p[SRCREP];
    const ReduceOrder order = static_cast<ReduceOrder>(p[ORDER]);
    const bool calIndex = p[ORDER] != 0;
    const int32_t count = (int32_t)p[COUNT];
    switch (p[OP]) {
        case 0: WITH_MASK(WholeReduceSum(d, s, m, rep, drep, sblk, srep)); break;
        case 1: WITH_MASK(WholeReduceMax(d, s, m, rep, drep, sblk, srep, order)); break;
        case 2: WITH_MASK(WholeReduceMin(d, s, m, rep, drep, sblk, srep, order)); break;
        case 3: WITH_MASK(BlockReduceSum(d, s, rep, m, drep, sblk, srep)); break;
        case 4: WITH_MASK(BlockReduceMax(d, s, rep, m, drep, sblk, srep)); break;
        case 5: WITH_MASK(BlockReduceMin(d, s, rep, m, drep, sblk, srep)); break;
        case 6: WITH_MASK(PairReduceSum(d, s, rep, m, drep, sblk, srep)); break;
        case 7: RepeatReduceSum(d, s, rep, (int32_t)p[MASK], 0, sblk, drep, srep); break;
        case 8: ReduceSum(d, s, w, count); break;
        case 9: ReduceMax(d, s, w, count, calIndex); break;
        case 10: ReduceMin(d, s, w, count, calIndex); break;
        case 11: WITH_MASK(ReduceSum(d, s, w, m, rep, srep)); break;
        case 12: WITH_MASK(ReduceMax(d, s, w, m, rep, srep, calIndex)); break;
        case 13: WITH_MASK(ReduceMin(d, s, w, m, rep, srep, calIndex)); break;
        case 14:  // isSetMask = false: the mask comes from SetVectorMask
            SetVectorMask<T>((uint64_t)p[HI], (uint64_t)p[MASK]);
            WholeReduceSum<T, false>(d, s, 0, rep, drep, sblk, srep);
            ResetMask();
            break;
        case 15:  // ReduceSum count form with workLocal = src (documented as allowed)
            ReduceSum(d, s, s, count);
            break;
    }
    store_gm(dg, dAll, nd);
    store_gm(wg, w, nw);
}

template <typename T>
static void run_red() {
    auto src = kt::load<T>("src");
    auto dst = kt::load<T>("dst");
    auto work = kt::load<T>("work");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> ds(src), dd(dst), dw(work);
    kt::Dev<int64_t> dp(p);
    red_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dd.gm(), dw.gm(), dp.gm(), (uint32_t)src.size(), (uint32_t)dst.size(),
                                           (uint32_t)work.size());
    kt::save("dst", dd.host());
    kt::save("work", dw.host());
}
KT_CASE(red_f32) { run_red<float>(); }
KT_CASE(red_f16) { run_red<half>(); }

// ---- Gather: src, uint32 offsets, dst --------------------------------------------------------------------------------
// p: [mode (0 count, 1 normal mask, 2 bit mask), mask/count, hi, repeat, dstRepStride, srcBaseAddr]
template <typename T>
__global__ __aicore__ void gather_kernel(GM_ADDR src, GM_ADDR off, GM_ADDR dst, GM_ADDR prm, uint32_t ns, uint32_t no, uint32_t nd) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bo, bd;
    pipe.InitBuffer(bs, ns * sizeof(T));
    pipe.InitBuffer(bo, no * sizeof(uint32_t));
    pipe.InitBuffer(bd, nd * sizeof(T));
    GlobalTensor<T> sg, dg;
    GlobalTensor<uint32_t> og;
    GlobalTensor<int64_t> pg;
    sg.SetGlobalBuffer((__gm__ T*)src, ns);
    og.SetGlobalBuffer((__gm__ uint32_t*)off, no);
    dg.SetGlobalBuffer((__gm__ T*)dst, nd);
    pg.SetGlobalBuffer((__gm__ int64_t*)prm, 6);
    LocalTensor<T> s = bs.Get<T>(), d = bd.Get<T>();
    LocalTensor<uint32_t> o = bo.Get<uint32_t>();
    load_ub(s, sg, ns);
    load_ub(o, og, no);
    load_ub(d, dg, nd);
    const int64_t mode = pg.GetValue(0), mask = pg.GetValue(1), hi = pg.GetValue(2);
    const uint8_t rep = (uint8_t)pg.GetValue(3);
    const uint16_t drep = (uint16_t)pg.GetValue(4);
    const uint32_t base = (uint32_t)pg.GetValue(5);
    if (mode == 0) {
        Gather(d, s, o, base, (uint32_t)mask);  // @gather-site
    } else if (mode == 1) {
        Gather(d, s, o, base, (uint64_t)mask, rep, drep);
    } else {
        uint64_t m[2] = {(uint64_t)mask, (uint64_t)hi};
        Gather(d, s, o, base, m, rep, drep);
    }
    store_gm(dg, d, nd);
}
template <typename T>
static void run_gather() {
    auto src = kt::load<T>("src");
    auto off = kt::load<uint32_t>("off");
    auto dst = kt::load<T>("dst");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> ds(src), dd(dst);
    kt::Dev<uint32_t> dof(off);
    kt::Dev<int64_t> dp(p);
    gather_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dof.gm(), dd.gm(), dp.gm(), (uint32_t)src.size(), (uint32_t)off.size(),
                                              (uint32_t)dst.size());
    kt::save("dst", dd.host());
}
KT_CASE(gather_f32) { run_gather<float>(); }
KT_CASE(gather_f16) { run_gather<half>(); }
KT_CASE(gather_i16) { run_gather<int16_t>(); }

// ---- Transpose: p = [mode (0 plain 16x16, 1 ext), n, c, h, w, type, tmp bytes, in-place] -------------------------------
template <typename T>
__global__ __aicore__ void transpose_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR prm, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd, bt;
    GlobalTensor<int64_t> pg;
    pg.SetGlobalBuffer((__gm__ int64_t*)prm, 8);
    pipe.InitBuffer(bs, n * sizeof(T));
    pipe.InitBuffer(bd, n * sizeof(T));
    pipe.InitBuffer(bt, (uint32_t)pg.GetValue(6) + 32);
    GlobalTensor<T> sg, dg;
    sg.SetGlobalBuffer((__gm__ T*)src, n);
    dg.SetGlobalBuffer((__gm__ T*)dst, n);
    LocalTensor<T> s = bs.Get<T>(), d = bd.Get<T>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>((uint32_t)pg.GetValue(6));
    load_ub(s, sg, n);
    for (uint32_t i = 0; i < n; ++i) d.SetValue(i, 0);
    if (pg.GetValue(7)) d = s;  // in place
    if (pg.GetValue(0) == 0) {
        if constexpr (sizeof(T) == 2) Transpose(d, s);
    } else {
        TransposeParamsExt tp((uint16_t)pg.GetValue(1), (uint16_t)pg.GetValue(2), (uint16_t)pg.GetValue(3),
                              (uint16_t)pg.GetValue(4), static_cast<TransposeType>(pg.GetValue(5)));
        Transpose(d, s, tmp, tp);
    }
    store_gm(dg, d, n);
}
template <typename T>
static void run_transpose() {
    auto src = kt::load<T>("src");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> ds(src), dd(src.size());
    kt::Dev<int64_t> dp(p);
    transpose_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dd.gm(), dp.gm(), (uint32_t)src.size());
    kt::save("dst", dd.host());
}
KT_CASE(transpose_f16) { run_transpose<half>(); }
KT_CASE(transpose_u16) { run_transpose<uint16_t>(); }
KT_CASE(transpose_f32) { run_transpose<float>(); }
KT_CASE(transpose_u8) { run_transpose<uint8_t>(); }

// ---- Brcb: p = [repeat, dstBlkStride, dstRepStride, same-buffer] ------------------------------------------------------
template <typename T>
__global__ __aicore__ void brcb_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR prm, uint32_t ns, uint32_t nd) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    pipe.InitBuffer(bs, ns * sizeof(T));
    pipe.InitBuffer(bd, nd * sizeof(T));
    GlobalTensor<T> sg, dg;
    GlobalTensor<int64_t> pg;
    sg.SetGlobalBuffer((__gm__ T*)src, ns);
    dg.SetGlobalBuffer((__gm__ T*)dst, nd);
    pg.SetGlobalBuffer((__gm__ int64_t*)prm, 4);
    LocalTensor<T> s = bs.Get<T>(), d = bd.Get<T>();
    load_ub(s, sg, ns);
    load_ub(d, dg, nd);
    if (pg.GetValue(3)) d = s;
    Brcb(d, s, (uint8_t)pg.GetValue(0), {(uint16_t)pg.GetValue(1), (uint16_t)pg.GetValue(2)});
    store_gm(dg, d, nd);
}
template <typename T>
static void run_brcb() {
    auto src = kt::load<T>("src");
    auto dst = kt::load<T>("dst");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> ds(src), dd(dst);
    kt::Dev<int64_t> dp(p);
    brcb_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dd.gm(), dp.gm(), (uint32_t)src.size(), (uint32_t)dst.size());
    kt::save("dst", dd.host());
}
KT_CASE(brcb_f32) { run_brcb<float>(); }
KT_CASE(brcb_f16) { run_brcb<half>(); }

// ---- CreateVecIndex: p = [mode (0 count, 1 normal mask, 2 bit mask), count/mask, hi, repeat, blk, rep, first] ------------
template <typename T>
__global__ __aicore__ void vidx_kernel(GM_ADDR dst, GM_ADDR prm, uint32_t nd) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bd;
    pipe.InitBuffer(bd, nd * sizeof(T));
    GlobalTensor<T> dg;
    GlobalTensor<int64_t> pg;
    dg.SetGlobalBuffer((__gm__ T*)dst, nd);
    pg.SetGlobalBuffer((__gm__ int64_t*)prm, 7);
    LocalTensor<T> d = bd.Get<T>();
    load_ub(d, dg, nd);
    const int64_t mode = pg.GetValue(0);
    const T first = static_cast<T>(pg.GetValue(6));
    if (mode == 0) {
        CreateVecIndex(d, first, (uint32_t)pg.GetValue(1));
    } else if (mode == 1) {
        CreateVecIndex(d, first, (uint64_t)pg.GetValue(1), (uint8_t)pg.GetValue(3), (uint16_t)pg.GetValue(4), (uint8_t)pg.GetValue(5));
    } else {
        uint64_t m[2] = {(uint64_t)pg.GetValue(1), (uint64_t)pg.GetValue(2)};
        CreateVecIndex(d, first, m, (uint8_t)pg.GetValue(3), (uint16_t)pg.GetValue(4), (uint8_t)pg.GetValue(5));
    }
    store_gm(dg, d, nd);
}
template <typename T>
static void run_vidx() {
    auto dst = kt::load<T>("dst");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> dd(dst);
    kt::Dev<int64_t> dp(p);
    vidx_kernel<T><<<1, nullptr, nullptr>>>(dd.gm(), dp.gm(), (uint32_t)dst.size());
    kt::save("dst", dd.host());
}
KT_CASE(vidx_f32) { run_vidx<float>(); }
KT_CASE(vidx_f16) { run_vidx<half>(); }
KT_CASE(vidx_i32) { run_vidx<int32_t>(); }
KT_CASE(vidx_i16) { run_vidx<int16_t>(); }

KT_MAIN()
