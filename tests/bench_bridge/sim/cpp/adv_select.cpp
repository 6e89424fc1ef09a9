// The byte-mask Select and its host size helpers (kgen_sim/adv/select_bytes.h, host_select_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

// params rows, sl, ml, scalarFirst, reuse (isReuseMask), tmp (-1: min); s.bin scalar
template <typename T, typename U>
__global__ __aicore__ void sel_kernel(GM_ADDR x, GM_ADDR m, GM_ADDR y, uint32_t rows, uint32_t sl, uint32_t ml, int scalarFirst,
                                      int reuse, float s, uint32_t tmpBytes) {
    TPipe pipe;
    Ub<T> X(pipe, x, rows * sl), Y(pipe, y, rows * sl);
    Ub<U> M(pipe, m, rows * ml);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, tmpBytes);
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = sl;
    info.maskLastAxis = ml;
    if (scalarFirst) {
        if (reuse) Select<T, U, true>(Y.t, T(s), X.t, M.t, tmp, info);
        else Select<T, U, false>(Y.t, T(s), X.t, M.t, tmp, info);
    } else {
        if (reuse) Select<T, U, true>(Y.t, X.t, T(s), M.t, tmp, info);
        else Select<T, U, false>(Y.t, X.t, T(s), M.t, tmp, info);
    }
    Y.out();
    M.out();
}
template <typename T, typename U>
void run_sel() {
    uint32_t rows = kt::param("rows"), sl = kt::param("sl"), ml = kt::param("ml");
    bool reuse = kt::param("reuse");
    TensorShape src({int64_t(rows), int64_t(sl)}), mask({int64_t(rows), int64_t(ml)}), scalar({1});
    uint32_t mx = 0, mn = 0;
    GetSelectMaxMinTmpSize(src, scalar, sizeof(T), mask, sizeof(U), reuse, mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, GetSelectWithBytesMaskMinTmpSize(scalar, src, sizeof(T), mask, sizeof(U), reuse)});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    auto x = kt::load<T>("x");
    using H = std::conditional_t<std::is_same_v<U, bool>, uint8_t, U>;  // bool masks travel as bytes
    auto m = kt::load<H>("mask");
    kt::Dev<T> dx(x), dy(x.size());
    kt::Dev<H> dm(m);
    sel_kernel<T, U><<<1, nullptr, nullptr>>>(dx.gm(), dm.gm(), dy.gm(), rows, sl, ml, kt::param("scalarfirst"), reuse,
                                              kt::load<float>("s")[0], tmp < 0 ? mn : uint32_t(tmp));
    kt::save("y", dy.host());
    kt::save("mask", dm.host());
}
KT_CASE(sel_f32_u8) { run_sel<float, uint8_t>(); }
KT_CASE(sel_f16_u8) { run_sel<half, uint8_t>(); }
KT_CASE(sel_f16_i16) { run_sel<half, int16_t>(); }
KT_CASE(sel_f32_bool) { run_sel<float, bool>(); }

KT_MAIN()
