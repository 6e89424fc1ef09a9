// CumSum (kgen_sim/adv/cumsum.h) and GetCumSumMaxMinTmpSize, driven by tests/bench_bridge/sim/test_adv_cumsum.py.
#include "kgen_test_io.h"
#include "lib/math/cumsum.h"  // the install path kernels include
#include "tiling/tiling_api.h"

using namespace AscendC;

constexpr CumSumConfig FIRST_LBL = {false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
constexpr CumSumConfig FIRST_SKL = {false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
constexpr CumSumConfig LAST_LBL = {true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
constexpr CumSumConfig LAST_SKL = {true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};

// Params: m, n, cfg (0 first/linebyline, 1 first/sklansky, 2 last/linebyline, 3 last/sklansky),
// tmp (bytes of sharedTmpBuffer; -1: the API takes its own). Outputs y ([m, n]) and last ([n]).
template <typename T, const CumSumConfig& C>
__aicore__ void call(LocalTensor<T>& d, LocalTensor<T>& l, LocalTensor<T>& s, LocalTensor<uint8_t>* tmp, CumSumInfo info) {
    if (tmp) CumSum<T, C>(d, l, s, *tmp, info);
    else CumSum<T, C>(d, l, s, info);
}
template <typename T>
__global__ __aicore__ void cumsum_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR last, uint32_t m, uint32_t n, int cfg, int tmp) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db, lb, tb;
    pipe.InitBuffer(sb, m * n * sizeof(T));
    pipe.InitBuffer(db, m * n * sizeof(T));
    pipe.InitBuffer(lb, n * sizeof(T));
    if (tmp > 0) pipe.InitBuffer(tb, tmp);
    GlobalTensor<T> xg, yg, lg;
    xg.SetGlobalBuffer((__gm__ T*)x, m * n);
    yg.SetGlobalBuffer((__gm__ T*)y, m * n);
    lg.SetGlobalBuffer((__gm__ T*)last, n);
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>(), l = lb.Get<T>();
    LocalTensor<uint8_t> t;
    if (tmp > 0) t = tb.Get<uint8_t>();
    DataCopy(s, xg, m * n);
    PipeBarrier<PIPE_ALL>();
    CumSumInfo info{m, n};
    LocalTensor<uint8_t>* tp = tmp >= 0 ? &t : nullptr;
    if (cfg == 0) call<T, FIRST_LBL>(d, l, s, tp, info);
    if (cfg == 1) call<T, FIRST_SKL>(d, l, s, tp, info);
    if (cfg == 2) call<T, LAST_LBL>(d, l, s, tp, info);
    if (cfg == 3) call<T, LAST_SKL>(d, l, s, tp, info);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d, m * n);
    DataCopy(lg, l, n);
}
template <typename T>
void run_cumsum() {
    uint32_t m = kt::param("m"), n = kt::param("n");
    int cfg = kt::param("cfg");
    uint32_t mx = 0, mn = 0;
    GetCumSumMaxMinTmpSize(TensorShape({int64_t(m), int64_t(n)}), sizeof(T), cfg >= 2, false, mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx});
    int64_t tmp = kt::param("tmp", -2);
    if (tmp == -2) tmp = mn;  // default: exactly the minimum
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x), dy(m * n), dl(n);
    cumsum_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dl.gm(), m, n, cfg, int(tmp));
    kt::save("y", dy.host());
    kt::save("last", dl.host());
}
KT_CASE(cumsum_f32) { run_cumsum<float>(); }
KT_CASE(cumsum_f16) { run_cumsum<half>(); }

KT_MAIN()
