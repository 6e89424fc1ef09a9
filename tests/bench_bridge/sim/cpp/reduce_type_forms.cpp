// ReduceRepeat / ReduceDataBlock / ReducePairElem (kgen_sim/reduce_type_forms.h), the sum register
// GetReduceRepeatSumSpr / GetAccVal (kgen_sim/reduce_spr.h) and AscendC::Conditional / Std traits
// (kgen_sim/type_traits.h), driven by parameters from tests/bench_bridge/sim/test_reduce_type_forms.py.
#include "kgen_test_io.h"

using namespace AscendC;

// Compile-time checks of the type utilities: a wrong rule fails the build of this program.
static_assert(std::is_same_v<Conditional<true, float, half>::type, float>);
static_assert(std::is_same_v<Conditional<false, float, half>::type, half>);
static_assert(Std::is_same_v<Std::remove_cv_t<const volatile int>, int>);
static_assert(Std::is_floating_point<half>::value && Std::is_floating_point<const float>::value);
static_assert(!Std::is_floating_point<int>::value && !Std::is_integral<float>::value);
static_assert(Std::is_same_v<Std::add_pointer<int>::type, int*> && Std::is_reference<int&>::value);

// Params: form (0 ReduceRepeat, 1 ReduceDataBlock, 2 ReducePairElem), op (0 SUM, 1 MAX, 2 MIN),
// mask (contiguous count; 0 -> bit mask from mlo/mhi), rep, srcblk, srcrep, dstrep, order, nout.
// Output `y`: the first nout elements of dst (dst pre-filled with 7).
template <ReduceType R, typename T, typename M>
__aicore__ void call(int form, const LocalTensor<T>& d, const LocalTensor<T>& s, M mask, int rep, int dstRep, int srcBlk,
                     int srcRep, ReduceOrder order) {
    if (form == 0) ReduceRepeat<R, T>(d, s, mask, rep, dstRep, srcBlk, srcRep, order);
    if (form == 1) ReduceDataBlock<R, T>(d, s, mask, rep, dstRep, srcBlk, srcRep);
    if constexpr (R == ReduceType::SUM)
        if (form == 2) ReducePairElem<R, T>(d, s, mask, rep, dstRep, srcBlk, srcRep);
}

template <typename T>
__global__ __aicore__ void forms_kernel(GM_ADDR src, GM_ADDR out, uint32_t n, uint32_t nout, int form, int op, int mask,
                                        uint64_t mlo, uint64_t mhi, int rep, int srcBlk, int srcRep, int dstRep, int order) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, (n * sizeof(T) + 31) / 32 * 32);
    pipe.InitBuffer(db, (nout * sizeof(T) + 31) / 32 * 32);
    GlobalTensor<T> sg, og;
    sg.SetGlobalBuffer((__gm__ T*)src, n);
    og.SetGlobalBuffer((__gm__ T*)out, nout);
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>();
    for (uint32_t i = 0; i < n; ++i) s.SetValue(i, sg.GetValue(i));
    for (uint32_t i = 0; i < d.GetSize(); ++i) d.SetValue(i, T(7));
    ReduceOrder ord = static_cast<ReduceOrder>(order);
    uint64_t bits[2] = {mlo, mhi};
    if (mask > 0) {
        if (op == 0) call<ReduceType::SUM, T>(form, d, s, int32_t(mask), rep, dstRep, srcBlk, srcRep, ord);
        if (op == 1) call<ReduceType::MAX, T>(form, d, s, int32_t(mask), rep, dstRep, srcBlk, srcRep, ord);
        if (op == 2) call<ReduceType::MIN, T>(form, d, s, int32_t(mask), rep, dstRep, srcBlk, srcRep, ord);
    } else {
        if (op == 0) call<ReduceType::SUM, T>(form, d, s, bits, rep, dstRep, srcBlk, srcRep, ord);
        if (op == 1) call<ReduceType::MAX, T>(form, d, s, bits, rep, dstRep, srcBlk, srcRep, ord);
        if (op == 2) call<ReduceType::MIN, T>(form, d, s, bits, rep, dstRep, srcBlk, srcRep, ord);
    }
    for (uint32_t i = 0; i < nout; ++i) og.SetValue(i, d.GetValue(i));
}

template <typename T>
void run_forms() {
    auto x = kt::load<T>("x");
    uint32_t nout = uint32_t(kt::param("nout", 16));
    kt::Dev<T> dx(x);
    kt::Dev<T> dout(nout);
    forms_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dout.gm(), uint32_t(x.size()), nout, int(kt::param("form")),
                                             int(kt::param("op")), int(kt::param("mask", 0)), uint64_t(kt::param("mlo")),
                                             uint64_t(kt::param("mhi")), int(kt::param("rep", 1)), int(kt::param("srcblk", 1)),
                                             int(kt::param("srcrep", 8)), int(kt::param("dstrep", 1)), int(kt::param("order")));
    kt::save("y", dout.host());
}
KT_CASE(forms_f32) { run_forms<float>(); }
KT_CASE(forms_f16) { run_forms<half>(); }

// Params: count (ReduceSum count), skip (1: no ReduceSum before reading), old (1: GetAccVal).
// Output `y`: [register value, dst[0]].
template <typename T>
__global__ __aicore__ void sum_spr_kernel(GM_ADDR src, GM_ADDR out, uint32_t n, int count, int skip, int old) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db, wb;
    pipe.InitBuffer(sb, (n * sizeof(T) + 31) / 32 * 32);
    pipe.InitBuffer(db, 32);
    pipe.InitBuffer(wb, 1024);
    GlobalTensor<T> sg, og;
    sg.SetGlobalBuffer((__gm__ T*)src, n);
    og.SetGlobalBuffer((__gm__ T*)out, 2);
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>(), w = wb.Get<T>();
    for (uint32_t i = 0; i < n; ++i) s.SetValue(i, sg.GetValue(i));
    d.SetValue(0, T(0));
    if (!skip) ReduceSum<T>(d, s, w, count);
    T v = old ? GetAccVal<T>() : GetReduceRepeatSumSpr<T>();
    og.SetValue(0, v);
    og.SetValue(1, d.GetValue(0));
}
template <typename T>
void run_sum_spr() {
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x);
    kt::Dev<T> dout(2);
    sum_spr_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dout.gm(), uint32_t(x.size()), int(kt::param("count")),
                                               int(kt::param("skip")), int(kt::param("old")));
    kt::save("y", dout.host());
}
KT_CASE(sum_spr_f32) { run_sum_spr<float>(); }
KT_CASE(sum_spr_f16) { run_sum_spr<half>(); }

KT_MAIN()
