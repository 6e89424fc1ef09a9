// LayerNormGrad and LayerNormGradBeta with their host tiling (kgen_sim/adv/layernorm_grad.h,
// host_norm_grad_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, false>;  // kgen_test_ub.h

template <typename Tl>
std::vector<uint32_t> words(const Tl& t) {
    std::vector<uint32_t> v(sizeof(Tl) / 4);
    std::memcpy(v.data(), &t, sizeof(Tl));
    return v;
}

// ---- LayerNormGrad: params b, s, h, oh (0: h), tmp (-1: min, 0: framework, else bytes), stack (bytes
// for the tiling function; default: the buffer), reuse, eps (millionths), inplace (pdx over dy) ------
template <typename T, bool reuse>
__global__ __aicore__ void lng_kernel(GM_ADDR dy, GM_ADDR x, GM_ADDR var, GM_ADDR mean, GM_ADDR gamma, GM_ADDR pdx,
                                      GM_ADDR res, GM_ADDR tl, uint32_t rows, uint32_t h, uint32_t tmpBytes, float eps,
                                      int inplace) {
    TPipe pipe;
    const uint32_t n = rows * h, rowsPad = (rows * sizeof(T) + 31) / 32 * 32 / sizeof(T);  // DataCopy moves whole blocks
    Ub<T> DY(pipe, dy, n), X(pipe, x, n), V(pipe, var, rowsPad), M(pipe, mean, rowsPad), G(pipe, gamma, h), P(pipe, pdx, n),
        R(pipe, res, n);
    LayerNormGradTiling tiling = *reinterpret_cast<const LayerNormGradTiling*>(tl);
    const LocalTensor<T>& out = inplace ? DY.t : P.t;
    if (tmpBytes) {
        TBuf<TPosition::VECCALC> tb;
        pipe.InitBuffer(tb, tmpBytes);
        LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
        LayerNormGrad<T, reuse>(out, R.t, DY.t, X.t, V.t, M.t, G.t, tmp, T(eps), tiling);
    } else {
        LayerNormGrad<T, reuse>(out, R.t, DY.t, X.t, V.t, M.t, G.t, T(eps), tiling, {DataFormat::ND});
    }
    if (inplace) DataCopy(P.g, DY.t, n);
    else P.out();
    R.out();
}
template <typename T>
void run_lng() {
    uint32_t b = kt::param("b"), s = kt::param("s"), h = kt::param("h"), oh = kt::param("oh", h);
    bool reuse = kt::param("reuse");
    TensorShape shape({int64_t(b), int64_t(s), int64_t(h), int64_t(oh ? oh : h)});
    uint32_t mx = 0, mn = 0;
    GetLayerNormGradMaxMinTmpSize(shape, sizeof(T), reuse, mx, mn);
    int64_t tmp = kt::param("tmp", -1);
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    uint32_t stack = kt::param("stack", tmpBytes ? tmpBytes : mn);
    optiling::LayerNormGradTiling host;
    GetLayerNormGradNDTilingInfo(shape, stack, sizeof(T), reuse, host);
    std::vector<uint8_t> tb(sizeof(LayerNormGradTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    LayerNormGradTiling dev;
    GetLayerNormGradNDTilingInfo(shape, stack, sizeof(T), reuse, dev);
    auto f = words(*reinterpret_cast<const LayerNormGradTiling*>(tb.data()));
    auto f2 = words(dev);
    f.insert(f.end(), f2.begin(), f2.end());
    f.push_back(mx);
    f.push_back(mn);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    uint32_t rows = b * s, n = rows * h;
    auto dy = kt::load<T>("dy");
    kt::Dev<T> ddy(dy), dx(kt::load<T>("x")), dv(kt::load<T>("var")), dm(kt::load<T>("mean")), dg(kt::load<T>("gamma")),
        dp(n), dr(n);
    kt::Dev<uint8_t> dt(tb);
    float eps = float(kt::param("eps", 1)) / 1e6f;
    if (reuse)
        lng_kernel<T, (sizeof(T) == 4)><<<1, nullptr, nullptr>>>(ddy.gm(), dx.gm(), dv.gm(), dm.gm(), dg.gm(), dp.gm(),
                                                                 dr.gm(), dt.gm(), rows, h, tmpBytes, eps,
                                                                 kt::param("inplace"));
    else
        lng_kernel<T, false><<<1, nullptr, nullptr>>>(ddy.gm(), dx.gm(), dv.gm(), dm.gm(), dg.gm(), dp.gm(), dr.gm(), dt.gm(),
                                                      rows, h, tmpBytes, eps, kt::param("inplace"));
    kt::save("pdx", dp.host());
    kt::save("res", dr.host());
}
KT_CASE(lng_f32) { run_lng<float>(); }
KT_CASE(lng_f16) { run_lng<half>(); }

// ---- LayerNormGradBeta: params b, s, h, oh, tmp (-1: min, 0: framework), stack ------------------
template <typename T>
__global__ __aicore__ void lngb_kernel(GM_ADDR res, GM_ADDR dy, GM_ADDR pg, GM_ADDR pb, GM_ADDR tl, uint32_t rows,
                                       uint32_t h, uint32_t tmpBytes) {
    TPipe pipe;
    const uint32_t n = rows * h;
    Ub<T> RS(pipe, res, n), DY(pipe, dy, n), PG(pipe, pg, h), PB(pipe, pb, h);
    LayerNormGradBetaTiling tiling = *reinterpret_cast<const LayerNormGradBetaTiling*>(tl);
    if (tmpBytes) {
        TBuf<TPosition::VECCALC> tb;
        pipe.InitBuffer(tb, tmpBytes);
        LayerNormGradBeta<T>(PG.t, PB.t, RS.t, DY.t, tb.Get<uint8_t>(), tiling);
    } else {
        LayerNormGradBeta<T>(PG.t, PB.t, RS.t, DY.t, tiling);
    }
    PG.out();
    PB.out();
}
template <typename T>
void run_lngb() {
    uint32_t b = kt::param("b"), s = kt::param("s"), h = kt::param("h"), oh = kt::param("oh", h);
    TensorShape shape({int64_t(b), int64_t(s), int64_t(h), int64_t(oh ? oh : h)});
    uint32_t mx = 0, mn = 0;
    GetLayerNormGradBetaMaxMinTmpSize(shape, sizeof(T), false, mx, mn);
    int64_t tmp = kt::param("tmp", -1);
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    uint32_t stack = kt::param("stack", tmpBytes ? tmpBytes : mn);
    optiling::LayerNormGradBetaTiling host;
    GetLayerNormGradBetaNDTilingInfo(shape, stack, sizeof(T), false, host);
    std::vector<uint8_t> tb(sizeof(LayerNormGradBetaTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    LayerNormGradBetaTiling dev;
    GetLayerNormGradBetaNDTilingInfo(shape, stack, sizeof(T), false, dev);
    auto f = words(*reinterpret_cast<const LayerNormGradBetaTiling*>(tb.data()));
    auto f2 = words(dev);
    f.insert(f.end(), f2.begin(), f2.end());
    f.push_back(mx);
    f.push_back(mn);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    uint32_t rows = b * s;
    std::vector<T> fill(h, T(-7.0f));
    kt::Dev<T> dr(kt::load<T>("res")), ddy(kt::load<T>("dy")), dg(fill), dbt(fill);
    kt::Dev<uint8_t> dt(tb);
    lngb_kernel<T><<<1, nullptr, nullptr>>>(dr.gm(), ddy.gm(), dg.gm(), dbt.gm(), dt.gm(), rows, h, tmpBytes);
    kt::save("pg", dg.host());
    kt::save("pb", dbt.host());
}
KT_CASE(lngb_f32) { run_lngb<float>(); }
KT_CASE(lngb_f16) { run_lngb<half>(); }

KT_MAIN()
