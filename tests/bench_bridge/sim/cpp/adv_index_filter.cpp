// Arange and DropOut with their host size helpers (kgen_sim/adv/index_filter.h,
// host_index_filter_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

// ---- Arange: params count; f.bin = {first, diff} as float ----------------------------------------
template <typename T>
__global__ __aicore__ void arange_kernel(GM_ADDR y, int32_t count, float first, float diff) {
    TPipe pipe;
    Ub<T> Y(pipe, y, uint32_t(count > 0 ? count : 1));
    Arange<T>(Y.t, T(first), T(diff), count);
    Y.out();
}
template <typename T>
void run_arange() {
    int32_t count = int32_t(kt::param("count"));
    auto f = kt::load<float>("f");
    uint32_t mx = 9, mn = 9, mx2 = 9, mn2 = 9;
    GetArangeMaxMinTmpSize(mx, mn);
    GetArithProgressionMaxMinTmpSize(mx2, mn2);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, mn2, mx2});
    uint32_t n = (uint32_t(count > 0 ? count : 1) * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    kt::Dev<T> dy(std::vector<T>(n, T(-7)));
    arange_kernel<T><<<1, nullptr, nullptr>>>(dy.gm(), count, f[0], f[1]);
    kt::save("y", dy.host());
}
KT_CASE(arange_f32) { run_arange<float>(); }
KT_CASE(arange_f16) { run_arange<half>(); }
KT_CASE(arange_i32) { run_arange<int32_t>(); }
KT_CASE(arange_i16) { run_arange<int16_t>(); }

// ---- DropOut: params rows, cols, mcols, mode (0..4), tmp (-1 min, 0 framework), inplace; p.bin keepProb
template <typename T, uint32_t M>
__aicore__ void dropout_call(const LocalTensor<T>& y, const LocalTensor<T>& x, const LocalTensor<uint8_t>& m,
                             const LocalTensor<uint8_t>* tmp, float p, const DropOutShapeInfo& info) {
    if (tmp) DropOut<T, false, M>(y, x, m, *tmp, p, info);
    else DropOut<T, false, M>(y, x, m, p, info);
}
template <typename T>
__global__ __aicore__ void dropout_kernel(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t mcols,
                                          int mode, float p, uint32_t tmpBytes, int inplace) {
    TPipe pipe;
    Ub<T> X(pipe, x, rows * cols), Y(pipe, y, rows * cols);
    Ub<uint8_t> M(pipe, mask, rows * mcols);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    DropOutShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = cols;
    info.maskLastAxis = mcols;
    const LocalTensor<T>& dst = inplace ? X.t : Y.t;
    const LocalTensor<uint8_t>* tp = tmpBytes ? &tmp : nullptr;
    switch (mode) {
        case 0: dropout_call<T, 0>(dst, X.t, M.t, tp, p, info); break;
        case 1: dropout_call<T, 1>(dst, X.t, M.t, tp, p, info); break;
        case 2: dropout_call<T, 2>(dst, X.t, M.t, tp, p, info); break;
        case 3: dropout_call<T, 3>(dst, X.t, M.t, tp, p, info); break;
        default: dropout_call<T, 4>(dst, X.t, M.t, tp, p, info); break;
    }
    if (inplace) DataCopy(Y.g, X.t, Y.n);
    else Y.out();
}
template <typename T>
void run_dropout() {
    uint32_t rows = kt::param("rows"), cols = kt::param("cols"), mcols = kt::param("mcols");
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(TensorShape({int64_t(rows), int64_t(cols)}), sizeof(T), false, mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    auto x = kt::load<T>("x");
    auto m = kt::load<uint8_t>("mask");
    kt::Dev<T> dx(x), dy(x.size());
    kt::Dev<uint8_t> dm(m);
    dropout_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dm.gm(), dy.gm(), rows, cols, mcols, kt::param("mode"),
                                               kt::load<float>("p")[0], tmpBytes, kt::param("inplace"));
    kt::save("y", dy.host());
}
KT_CASE(dropout_f32) { run_dropout<float>(); }
KT_CASE(dropout_f16) { run_dropout<half>(); }

KT_MAIN()
