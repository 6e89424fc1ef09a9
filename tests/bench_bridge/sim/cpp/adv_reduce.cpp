// High-level reductions: Sum, Mean, and the pattern forms ReduceSum/ReduceMean/ReduceMax/ReduceMin
// with their host size helpers (kgen_sim/adv/reduce_adv.h, reduce_rules.h, host_reduce_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

// ---- Sum / Mean: params outter, n, op (0 Sum, 1 Mean, 2 Mean with float acc), tmp (-1 min, 0 framework)
template <typename T>
__global__ __aicore__ void summean_kernel(GM_ADDR x, GM_ADDR y, uint32_t outter, uint32_t inner, uint32_t n, int op,
                                          uint32_t tmpBytes) {
    // the official examples' assertion form: a braced action with commas (compiled away here)
    ASCENDC_ASSERT(outter != 0, { KERNEL_LOG(KERNEL_ERROR, "outter %u, n %u", outter, n); });
    TPipe pipe;
    Ub<T> X(pipe, x, outter * inner), Y(pipe, y, outter);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    if (op == 0) {
        SumParams p{outter, inner, n};
        if (tmpBytes) Sum(Y.t, X.t, tmp, p);
        else Sum(Y.t, X.t, p);
    } else {
        MeanParams p{outter, inner, n};
        if (op == 2) {
            if constexpr (std::is_same_v<T, half>) {
                if (tmpBytes) Mean<T, float>(Y.t, X.t, tmp, p);
                else Mean<T, float>(Y.t, X.t, p);
            }
        } else if (tmpBytes) {
            Mean(Y.t, X.t, tmp, p);
        } else {
            Mean(Y.t, X.t, p);
        }
    }
    Y.out();
}
template <typename T>
void run_summean() {
    uint32_t outter = kt::param("outter"), n = kt::param("n");
    uint32_t inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    int op = kt::param("op");
    uint32_t mx = 0, mn = 0;
    if (op == 0) GetSumMaxMinTmpSize(n, sizeof(T), false, mx, mn);
    else GetMeanMaxMinTmpSize(n, sizeof(T), op == 2 ? 4 : sizeof(T), false, mx, mn);
    uint32_t nodes = 9, extra = 9;
    GetMeanTmpBufferFactorSize(sizeof(T), nodes, extra);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, nodes, extra});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? (mn ? mn : 32) : uint32_t(tmp);
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x), dy(std::vector<T>((outter * sizeof(T) + 31) / 32 * 32 / sizeof(T), T(-7.0f)));
    summean_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), outter, inner, n, op, tmpBytes);
    kt::save("y", dy.host());
}
KT_CASE(summean_f32) { run_summean<float>(); }
KT_CASE(summean_f16) { run_summean<half>(); }

// ---- pattern forms: params first, last, op (0 sum, 1 mean, 2 max, 3 min), ra (1: RA), tmp (-1 min, 0 framework)
template <typename T, typename P>
__aicore__ void pattern_call(int op, const LocalTensor<T>& y, const LocalTensor<T>& x, const LocalTensor<uint8_t>* tmp,
                             const uint32_t shape[]) {
    if constexpr (std::is_same_v<T, float>) {
        if (op == 0) { if (tmp) ReduceSum<T, P>(y, x, *tmp, shape, true); else ReduceSum<T, P>(y, x, shape, true); return; }
        if (op == 1) { if (tmp) ReduceMean<T, P>(y, x, *tmp, shape, true); else ReduceMean<T, P>(y, x, shape, true); return; }
    }
    if (op == 2) { if (tmp) ReduceMax<T, P>(y, x, *tmp, shape, true); else ReduceMax<T, P>(y, x, shape, true); }
    if (op == 3) { if (tmp) ReduceMin<T, P>(y, x, *tmp, shape, true); else ReduceMin<T, P>(y, x, shape, true); }
}
template <typename T>
__global__ __aicore__ void pattern_kernel(GM_ADDR x, GM_ADDR y, uint32_t first, uint32_t last, int op, int ra,
                                          uint32_t tmpBytes) {
    TPipe pipe;
    uint32_t stride = (last * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    Ub<T> X(pipe, x, first * stride), Y(pipe, y, ra ? last : first);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    uint32_t shape[2] = {first, last};
    if (ra) pattern_call<T, Pattern::Reduce::RA>(op, Y.t, X.t, tmpBytes ? &tmp : nullptr, shape);
    else pattern_call<T, Pattern::Reduce::AR>(op, Y.t, X.t, tmpBytes ? &tmp : nullptr, shape);
    Y.out();
}
template <typename T>
void run_pattern() {
    uint32_t first = kt::param("first"), last = kt::param("last");
    int op = kt::param("op"), ra = kt::param("ra");
    TensorShape shape({int64_t(first), int64_t(last)});
    TensorDataType dt = sizeof(T) == 4 ? ge::DT_FLOAT : ge::DT_FLOAT16;
    ReducePattern p = ra ? ReducePattern::RA : ReducePattern::AR;
    uint32_t mx = 7, mn = 7;
    if (op == 0) GetReduceSumMaxMinTmpSize(shape, dt, p, true, false, mx, mn);
    if (op == 1) GetReduceMeanMaxMinTmpSize(shape, dt, p, true, false, mx, mn);
    if (op == 2) GetReduceMaxMaxMinTmpSize(shape, dt, p, true, false, mx, mn);
    if (op == 3) GetReduceMinMaxMinTmpSize(shape, dt, p, true, false, mx, mn);
    uint32_t rmx = 7, rmn = 7;
    GetReduceMaxMaxMinTmpSize(shape, dt, p, true, true, rmx, rmn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, rmn, rmx});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? (mn ? mn : 32) : uint32_t(tmp);
    auto x = kt::load<T>("x");
    uint32_t nd = ra ? last : first;
    kt::Dev<T> dx(x), dy(std::vector<T>((nd * sizeof(T) + 31) / 32 * 32 / sizeof(T), T(-7.0f)));
    pattern_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), first, last, op, ra, tmpBytes);
    kt::save("y", dy.host());
}
KT_CASE(pattern_f32) { run_pattern<float>(); }
KT_CASE(pattern_f16) { run_pattern<half>(); }

KT_MAIN()
