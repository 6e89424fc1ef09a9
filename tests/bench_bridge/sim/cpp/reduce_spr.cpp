// GetReduceMaxMinCount / GetReduceRepeatMaxMinSpr after WholeReduceMax/Min and ReduceMax/Min
// (kgen_sim/reduce_spr.h), driven by parameters from tests/bench_bridge/sim/test_reduce_spr.py.
#include "kgen_test_io.h"

using namespace AscendC;

// Params: op (0 WholeReduceMax, 1 WholeReduceMin, 2 ReduceMax, 3 ReduceMin, 4 none), n (elements),
// srcrep (WholeReduce srcRepStride, default 8), newname (1: GetReduceRepeatMaxMinSpr), valueonly.
// Output `spr`: uint32 [value bits, index bits, dst[0] bits, dst[1] bits].
template <typename T>
__global__ __aicore__ void spr_kernel(GM_ADDR src, GM_ADDR out, uint32_t n, int op, int srcRep, int newname, int valueonly) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db, wb;
    const uint32_t per = 256 / sizeof(T), rep = (n + per - 1) / per;
    pipe.InitBuffer(sb, rep * per * sizeof(T) * (srcRep / 8 > 0 ? srcRep / 8 : 1));
    pipe.InitBuffer(db, 2 * 256);
    pipe.InitBuffer(wb, 4096);
    GlobalTensor<T> sg;
    sg.SetGlobalBuffer((__gm__ T*)src, n);
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>(), w = wb.Get<T>();
    for (uint32_t i = 0; i < n; ++i) s.SetValue(i, sg.GetValue(i));
    if (op == 0) WholeReduceMax<T>(d, s, int32_t(per), int32_t(rep), 1, 1, srcRep);
    if (op == 1) WholeReduceMin<T>(d, s, int32_t(per), int32_t(rep), 1, 1, srcRep);
    if (op == 2) ReduceMax<T>(d, s, w, int32_t(n), true);
    if (op == 3) ReduceMin<T>(d, s, w, int32_t(n), true);
    T val{}, idx{};
    if (valueonly) GetReduceMaxMinCount<T>(val);
    else if (newname) GetReduceRepeatMaxMinSpr<T>(val, idx);
    else GetReduceMaxMinCount<T>(val, idx);
    GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer((__gm__ uint32_t*)out, 4);
    uint32_t bits[4] = {0, 0, 0, 0};
    std::memcpy(&bits[0], &val, sizeof(T));
    std::memcpy(&bits[1], &idx, sizeof(T));
    T d0 = d.GetValue(0), d1 = d.GetValue(1);
    std::memcpy(&bits[2], &d0, sizeof(T));
    std::memcpy(&bits[3], &d1, sizeof(T));
    for (int i = 0; i < 4; ++i) o.SetValue(i, bits[i]);
}
template <typename T>
void run_spr() {
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x);
    kt::Dev<uint32_t> dout(4);
    spr_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dout.gm(), uint32_t(x.size()), kt::param("op"), kt::param("srcrep", 8),
                                           kt::param("newname"), kt::param("valueonly"));
    kt::save("spr", dout.host());
}
KT_CASE(spr_f32) { run_spr<float>(); }
KT_CASE(spr_f16) { run_spr<half>(); }

KT_MAIN()
