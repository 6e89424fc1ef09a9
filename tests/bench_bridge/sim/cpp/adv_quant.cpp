// AscendQuant / AscendDequant / AscendAntiQuant and their host size helpers
// (kgen_sim/adv/quant.h, quant_rules.h, host_quant_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

// ---- AscendQuant: params n, mode (0 scalar, 1 scale tensor + scalar offset, 2 both tensors), ch, tmp, inplace
template <typename T>
__global__ __aicore__ void quant_kernel(GM_ADDR x, GM_ADDR sc, GM_ADDR of, GM_ADDR y, uint32_t n, int mode, uint32_t ch,
                                        float s, float o, uint32_t tmpBytes, int inplace) {
    TPipe pipe;
    Ub<T> X(pipe, x, n), S(pipe, sc, ch ? ch : 16), O(pipe, of, ch ? ch : 16);
    Ub<int8_t> Y(pipe, y, n);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    LocalTensor<int8_t> dst = inplace ? X.t.template ReinterpretCast<int8_t>() : Y.t;
    if (mode == 0) {
        if (tmpBytes) AscendQuant<T>(dst, X.t, tmp, s, o, n);
        else AscendQuant<T>(dst, X.t, s, o, n);
    } else if (mode == 1) {
        if (tmpBytes) AscendQuant<T>(dst, X.t, tmp, S.t, T(o), ch, n);
        else AscendQuant<T>(dst, X.t, S.t, T(o), ch, n);
    } else {
        if (tmpBytes) AscendQuant<T>(dst, X.t, tmp, S.t, O.t, ch, ch, n);
        else AscendQuant<T>(dst, X.t, S.t, O.t, ch, ch, n);
    }
    if (inplace) DataCopy(Y.g, dst, n);
    else Y.out();
}
template <typename T>
void run_quant() {
    uint32_t n = kt::param("n"), ch = kt::param("ch");
    uint32_t mx = 0, mn = 0, nodes = 9, extra = 9;
    GetAscendQuantMaxMinTmpSize(TensorShape({int64_t(n)}), sizeof(T), mx, mn);
    GetAscendQuantTmpBufferFactorSize(nodes, extra);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, nodes, extra});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    auto x = kt::load<T>("x");
    auto sc = kt::load<T>("sc");
    auto of = kt::load<T>("of");
    auto so = kt::load<float>("so");
    kt::Dev<T> dx(x), ds(sc), dof(of);
    kt::Dev<int8_t> dy(std::vector<int8_t>(n, 99));
    quant_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), ds.gm(), dof.gm(), dy.gm(), n, kt::param("mode"), ch, so[0], so[1],
                                             tmpBytes, kt::param("inplace"));
    kt::save("y", dy.host());
}
KT_CASE(quant_f32) { run_quant<float>(); }
KT_CASE(quant_f16) { run_quant<half>(); }

// ---- AscendDequant: params m, n, c (calCount), vec (1: scale tensor), single (mode), tmp ------------
template <typename D, typename S, DeQuantMode mode>
__aicore__ void dq_call(const LocalTensor<D>& y, const LocalTensor<int32_t>& x, const LocalTensor<S>& sc, S s, int vec,
                        const LocalTensor<uint8_t>* tmp, DequantParams p) {
    if (vec) {
        if (tmp) AscendDequant<D, S, mode>(y, x, sc, *tmp, p);
        else AscendDequant<D, S, mode>(y, x, sc, p);
    } else {
        if (tmp) AscendDequant<D, S, mode>(y, x, s, *tmp, p);
        else AscendDequant<D, S, mode>(y, x, s, p);
    }
}
template <typename D, typename S>
__global__ __aicore__ void dequant_kernel(GM_ADDR x, GM_ADDR sc, GM_ADDR y, uint32_t m, uint32_t n, uint32_t c, int vec,
                                          int single, float s, uint32_t tmpBytes) {
    TPipe pipe;
    uint32_t nd = (n * sizeof(D) + 31) / 32 * 32 / sizeof(D);
    Ub<int32_t> X(pipe, x, m * n);
    Ub<S> SC(pipe, sc, n);
    Ub<D> Y(pipe, y, m * nd);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    DequantParams p{m, n, c};
    if (single) dq_call<D, S, DeQuantMode::DEQUANT_WITH_SINGLE_ROW>(Y.t, X.t, SC.t, S(s), vec, tmpBytes ? &tmp : nullptr, p);
    else dq_call<D, S, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(Y.t, X.t, SC.t, S(s), vec, tmpBytes ? &tmp : nullptr, p);
    Y.out();
}
template <typename D, typename S>
void run_dequant() {
    uint32_t m = kt::param("m"), n = kt::param("n");
    uint32_t mx = 0, mn = 0, nodes = 9, extra = 9;
    GetAscendDequantMaxMinTmpSize(TensorShape({int64_t(m), int64_t(n)}), 4, mx, mn);
    GetAscendDequantTmpBufferFactorSize(TensorShape({int64_t(m), int64_t(n)}), nodes, extra);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, nodes, extra});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    uint32_t nd = (n * sizeof(D) + 31) / 32 * 32 / sizeof(D);
    auto x = kt::load<int32_t>("x");
    auto sc = kt::load<S>("sc");
    kt::Dev<int32_t> dx(x);
    kt::Dev<S> ds(sc);
    kt::Dev<D> dy(std::vector<D>(m * nd, D(-7.0f)));
    dequant_kernel<D, S><<<1, nullptr, nullptr>>>(dx.gm(), ds.gm(), dy.gm(), m, n, kt::param("c"), kt::param("vec"),
                                                  kt::param("single"), kt::load<float>("s")[0], tmpBytes);
    kt::save("y", dy.host());
}
KT_CASE(dequant_f32_f32) { run_dequant<float, float>(); }
KT_CASE(dequant_f16_f32) { run_dequant<half, float>(); }
KT_CASE(dequant_bf16_bf16) { run_dequant<bfloat16_t, bfloat16_t>(); }

// ---- AscendAntiQuant: params k, nn (other axis), tr, mode (0 tensors with offset, 1 scale tensor only,
//      2 scalars with offset, 3 scalar scale only), ph, pw (parameter shape), tmp
template <typename O, bool tr>
__aicore__ void aq_call(int mode, const LocalTensor<O>& y, const LocalTensor<int8_t>& x, const LocalTensor<O>& of,
                        const LocalTensor<O>& sc, O o, O s, const LocalTensor<uint8_t>& tmp, uint32_t k,
                        const AntiQuantShapeInfo& si) {
    if (mode == 0) AscendAntiQuant<int8_t, O, tr>(y, x, of, sc, tmp, k, si);
    else if (mode == 1) AscendAntiQuant<int8_t, O, tr>(y, x, sc, tmp, k, si);
    else if (mode == 2) AscendAntiQuant<int8_t, O, tr>(y, x, o, s, tmp, k, si);
    else AscendAntiQuant<int8_t, O, tr>(y, x, s, tmp, k, si);
}
template <typename O>
__global__ __aicore__ void antiquant_kernel(GM_ADDR x, GM_ADDR of, GM_ADDR sc, GM_ADDR y, uint32_t k, uint32_t nn, int tr,
                                            int mode, uint32_t ph, uint32_t pw, float o, float s, uint32_t tmpBytes,
                                            int kt_param_shape_from_tensor) {
    TPipe pipe;
    Ub<int8_t> X(pipe, x, k * nn);
    Ub<O> OF(pipe, of, ph * pw), SC(pipe, sc, ph * pw), Y(pipe, y, k * nn);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, tmpBytes ? tmpBytes : 32);
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    LocalTensor<int8_t> src = X.t[0];
    src.SetSize(k * nn);
    AntiQuantShapeInfo si{ph, pw, ph, pw};
    if (kt_param_shape_from_tensor) {  // the parameter shape set on the tensors instead of passed
        uint32_t shp[2] = {ph, pw};
        OF.t.SetShapeInfo(ShapeInfo(2, shp));
        SC.t.SetShapeInfo(ShapeInfo(2, shp));
        si = {};
    }
    if (tr) aq_call<O, true>(mode, Y.t, src, OF.t, SC.t, O(o), O(s), tmp, k, si);
    else aq_call<O, false>(mode, Y.t, src, OF.t, SC.t, O(o), O(s), tmp, k, si);
    Y.out();
}
template <typename O>
void run_antiquant() {
    uint32_t k = kt::param("k"), nn = kt::param("nn"), ph = kt::param("ph"), pw = kt::param("pw");
    int tr = kt::param("tr"), mode = kt::param("mode");
    TensorShape src = tr ? TensorShape({int64_t(nn), int64_t(k)}) : TensorShape({int64_t(k), int64_t(nn)});
    TensorShape par = mode >= 2 ? TensorShape({1}) : TensorShape({int64_t(ph), int64_t(pw)});
    ge::DataType out = sizeof(O) == 2 && std::is_same_v<O, half> ? ge::DT_FLOAT16 : ge::DT_BF16;
    uint32_t mx = 0, mn = 0, nodes = 9, extra = 9;
    GetAscendAntiQuantMaxMinTmpSize(src, par, tr, ge::DT_INT8, out, mx, mn);
    GetAscendAntiQuantTmpBufferFactorSize(src, par, tr, ge::DT_INT8, out, nodes, extra);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, nodes, extra});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    auto x = kt::load<int8_t>("x");
    auto of = kt::load<O>("of");
    auto sc = kt::load<O>("sc");
    auto os = kt::load<float>("os");
    kt::Dev<int8_t> dx(x);
    kt::Dev<O> dof(of), dsc(sc), dy(std::vector<O>((k * nn * sizeof(O) + 31) / 32 * 32 / sizeof(O), O(-7.0f)));
    antiquant_kernel<O><<<1, nullptr, nullptr>>>(dx.gm(), dof.gm(), dsc.gm(), dy.gm(), k, nn, tr, mode, ph, pw, os[0], os[1],
                                                 tmpBytes, kt::param("fromtensor"));
    kt::save("y", dy.host());
}
KT_CASE(antiquant_f16) { run_antiquant<half>(); }
KT_CASE(antiquant_bf16) { run_antiquant<bfloat16_t>(); }

KT_MAIN()
