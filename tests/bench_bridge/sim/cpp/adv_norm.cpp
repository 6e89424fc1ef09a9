// LayerNorm ([B, S, H] and [A, R] forms) and RmsNorm with their host tiling
// (kgen_sim/adv/layernorm.h, rmsnorm.h, norm_types.h, host_norm_tiling.h).
#include "kgen_test_io.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
struct Ub {
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> g;
    LocalTensor<T> t;
    uint32_t n;
    Ub(TPipe& pipe, GM_ADDR p, uint32_t count) : n(count) {
        uint32_t bytes = (count * sizeof(T) + 31) / 32 * 32;
        pipe.InitBuffer(buf, bytes);
        g.SetGlobalBuffer((__gm__ T*)p, bytes / sizeof(T));
        t = buf.Get<T>();
        DataCopy(t, g, bytes / sizeof(T));
    }
    void out() { DataCopy(g, t, (n * sizeof(T) + 31) / 32 * 32 / sizeof(T)); }
};

template <typename S>
std::vector<uint32_t> words(const S& s) {
    std::vector<uint32_t> v(sizeof(S) / 4);
    std::memcpy(v.data(), &s, sizeof(S));
    return v;
}
template <typename T>
size_t padded(size_t n) { return (n * sizeof(T) + 31) / 32 * 32 / sizeof(T); }

// ---- LayerNorm [B, S, H]: params b, s, h, oh, tmp (-1: min; 0: framework; else bytes), reuse, inplace
template <typename T>
__global__ __aicore__ void ln_kernel(GM_ADDR x, GM_ADDR g, GM_ADDR be, GM_ADDR y, GM_ADDR mean, GM_ADDR var, GM_ADDR tl,
                                     uint32_t rows, uint32_t h, uint32_t tmpBytes, float eps, int inplace) {
    TPipe pipe;
    LayerNormTiling tiling = *reinterpret_cast<const LayerNormTiling*>(tl);
    uint32_t n = rows * h;
    Ub<T> X(pipe, x, n), G(pipe, g, h), B(pipe, be, h), Y(pipe, y, n), M(pipe, mean, rows),
        V(pipe, var, rows);
    TBuf<TPosition::VECCALC> tb;
    const LocalTensor<T>& out = inplace ? X.t : Y.t;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        LayerNorm<T, false>(out, M.t, V.t, X.t, G.t, B.t, tb.Get<uint8_t>(), T(eps), tiling);
    } else {
        LayerNorm<T, false>(out, M.t, V.t, X.t, G.t, B.t, T(eps), tiling);
    }
    if (inplace) DataCopy(Y.g, X.t, n);
    else Y.out();
    M.out();
    V.out();
}
template <typename T>
void run_ln() {
    uint32_t b = kt::param("b"), s = kt::param("s"), h = kt::param("h"), oh = kt::param("oh", h);
    bool reuse = kt::param("reuse");
    TensorShape shape({int64_t(b), int64_t(s), int64_t(h), int64_t(oh)});
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(shape, sizeof(T), reuse, mx, mn);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    uint32_t stack = kt::param("stack", tmpBytes ? tmpBytes : mn);
    optiling::LayerNormTiling host;
    GetLayerNormNDTilingInfo(shape, stack, sizeof(T), reuse, host);
    std::vector<uint8_t> tb(sizeof(LayerNormTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    LayerNormTiling ks;
    GetLayerNormNDTilingInfo(shape, stack, sizeof(T), reuse, ks);
    auto f = words(*reinterpret_cast<const LayerNormTiling*>(tb.data()));
    auto f2 = words(ks);
    f.insert(f.end(), f2.begin(), f2.end());
    f.push_back(mn);
    f.push_back(mx);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    auto x = kt::load<T>("x");
    auto g = kt::load<T>("g");
    auto be = kt::load<T>("be");
    kt::Dev<T> dx(x), dg(g), db(be), dy(x.size()), dm(padded<T>(b * s)), dv(padded<T>(b * s));
    kt::Dev<uint8_t> dt(tb);
    ln_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dg.gm(), db.gm(), dy.gm(), dm.gm(), dv.gm(), dt.gm(), b * s, h, tmpBytes,
                                          kt::load<float>("eps")[0], kt::param("inplace"));
    kt::save("y", dy.host());
    kt::save("mean", dm.host());
    kt::save("var", dv.host());
}
KT_CASE(ln_f32) { run_ln<float>(); }
KT_CASE(ln_f16) { run_ln<half>(); }

// ---- LayerNorm [A, R] rstd form: params a, r, tmp (-1 min / 0 framework), cfg (0 norm, 1 no gamma/beta, 2 only output)
constexpr LayerNormConfig kNoGB = {true, true, false, true};
constexpr LayerNormConfig kOnlyOut = {false, false, true, true};
template <typename U, typename T>
__global__ __aicore__ void lnr_kernel(GM_ADDR x, GM_ADDR g, GM_ADDR be, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd, GM_ADDR tl,
                                      uint32_t a, uint32_t r, uint32_t tmpBytes, float eps, int cfg) {
    TPipe pipe;
    uint32_t rp = (r * sizeof(T) + 31) / 32 * 32 / sizeof(T), n = a * rp;
    Ub<T> X(pipe, x, n), Y(pipe, y, n);
    Ub<U> G(pipe, g, rp), B(pipe, be, rp);
    Ub<float> M(pipe, mean, a), R(pipe, rstd, a);
    LayerNormSeparateTiling tiling = *reinterpret_cast<const LayerNormSeparateTiling*>(tl);
    LayerNormPara para{a, r, rp};
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    if (cfg == 1) LayerNorm<U, T, false, kNoGB>(Y.t, M.t, R.t, X.t, G.t, B.t, eps, tmp, para, tiling);
    else if (cfg == 2) LayerNorm<U, T, false, kOnlyOut>(Y.t, M.t, R.t, X.t, G.t, B.t, eps, tmp, para, tiling);
    else if (tmpBytes) LayerNorm<U, T>(Y.t, M.t, R.t, X.t, G.t, B.t, eps, tmp, para, tiling);
    else LayerNorm<U, T>(Y.t, M.t, R.t, X.t, G.t, B.t, eps, para, tiling);
    Y.out();
    M.out();
    R.out();
}
template <typename U, typename T>
void run_lnr() {
    uint32_t a = kt::param("a"), r = kt::param("r");
    TensorShape shape({int64_t(a), int64_t(r)});
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(shape, sizeof(T), false, true, false, mx, mn);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::LayerNormSeparateTiling host;
    GetLayerNormNDTilingInfo(shape, kt::param("stack", mn), sizeof(T), false, true, host);
    std::vector<uint8_t> tb(sizeof(LayerNormSeparateTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    auto f = words(*reinterpret_cast<const LayerNormSeparateTiling*>(tb.data()));
    f.push_back(mn);
    f.push_back(mx);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    auto x = kt::load<T>("x");
    auto g = kt::load<U>("g");
    auto be = kt::load<U>("be");
    std::vector<float> fill(padded<float>(a), -7.0f);
    kt::Dev<T> dx(x), dy(x.size());
    kt::Dev<U> dg(g), db(be);
    kt::Dev<float> dm(fill), dr(fill);
    kt::Dev<uint8_t> dt(tb);
    lnr_kernel<U, T><<<1, nullptr, nullptr>>>(dx.gm(), dg.gm(), db.gm(), dy.gm(), dm.gm(), dr.gm(), dt.gm(), a, r, tmpBytes,
                                              kt::load<float>("eps")[0], kt::param("cfg"));
    kt::save("y", dy.host());
    kt::save("mean", dm.host());
    kt::save("rstd", dr.host());
}
KT_CASE(lnr_f32) { run_lnr<float, float>(); }
KT_CASE(lnr_f16) { run_lnr<half, half>(); }
KT_CASE(lnr_f16_f32) { run_lnr<float, half>(); }

// ---- RmsNorm: params b, s, h, oh, tmp (-1 min / 0 framework), stack, basic -------------------------
template <typename T>
__global__ __aicore__ void rms_kernel(GM_ADDR x, GM_ADDR g, GM_ADDR y, GM_ADDR tl, uint32_t n, uint32_t h, uint32_t tmpBytes,
                                      float eps, int basic) {
    TPipe pipe;
    RmsNormTiling tiling = *reinterpret_cast<const RmsNormTiling*>(tl);
    Ub<T> X(pipe, x, n), G(pipe, g, h), Y(pipe, y, n);
    TBuf<TPosition::VECCALC> tb;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        if (basic) RmsNorm<T, true>(Y.t, X.t, G.t, tb.Get<uint8_t>(), T(eps), tiling);
        else RmsNorm<T>(Y.t, X.t, G.t, tb.Get<uint8_t>(), T(eps), tiling);
    } else {
        RmsNorm<T>(Y.t, X.t, G.t, T(eps), tiling);
    }
    Y.out();
}
template <typename T>
void run_rms() {
    uint32_t b = kt::param("b"), s = kt::param("s"), h = kt::param("h"), oh = kt::param("oh", h);
    bool basic = kt::param("basic");
    TensorShape shape({int64_t(b), int64_t(s), int64_t(h)}), origin({int64_t(b), int64_t(s), int64_t(oh)});
    uint32_t mx = 0, mn = 0;
    bool okSizes = GetRmsNormMaxMinTmpSize(shape, sizeof(T), mx, mn, basic);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::RmsNormTiling host;
    bool okTiling = GetRmsNormTilingInfo(shape, origin, kt::param("stack", tmpBytes ? tmpBytes : mn), sizeof(T), host, basic);
    std::vector<uint8_t> tb(sizeof(RmsNormTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    auto f = words(*reinterpret_cast<const RmsNormTiling*>(tb.data()));
    f.push_back(mn);
    f.push_back(mx);
    f.push_back(okSizes);
    f.push_back(okTiling);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    auto x = kt::load<T>("x");
    auto g = kt::load<T>("g");
    kt::Dev<T> dx(x), dg(g), dy(x.size());
    kt::Dev<uint8_t> dt(tb);
    rms_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dg.gm(), dy.gm(), dt.gm(), b * s * h, h, tmpBytes,
                                           kt::load<float>("eps")[0], basic);
    kt::save("y", dy.host());
}
KT_CASE(rms_f32) { run_rms<float>(); }
KT_CASE(rms_f16) { run_rms<half>(); }

// ---- Normalize: params a, r, tmp (-1 min / 0 framework), cfg (0 norm, 1 no gamma/beta, 2 only output) --
constexpr NormalizeConfig kNlNoGB = {ReducePattern::AR, -1, true, true, false};
constexpr NormalizeConfig kNlOnly = {ReducePattern::AR, -1, false, false, true};
template <typename U, typename T>
__global__ __aicore__ void nl_kernel(GM_ADDR x, GM_ADDR g, GM_ADDR be, GM_ADDR mean, GM_ADDR var, GM_ADDR y, GM_ADDR rstd,
                                     uint32_t a, uint32_t r, uint32_t tmpBytes, float eps, int cfg) {
    TPipe pipe;
    uint32_t rp = (r * sizeof(T) + 31) / 32 * 32 / sizeof(T), n = a * rp;
    Ub<T> X(pipe, x, n), Y(pipe, y, n);
    Ub<U> G(pipe, g, rp), B(pipe, be, rp);
    Ub<float> M(pipe, mean, a), V(pipe, var, a), R(pipe, rstd, a);
    NormalizePara para{a, r, rp};
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    if (cfg == 1) Normalize<U, T, false, kNlNoGB>(Y.t, R.t, M.t, V.t, X.t, G.t, B.t, tmp, eps, para);
    else if (cfg == 2) Normalize<U, T, false, kNlOnly>(Y.t, R.t, M.t, V.t, X.t, G.t, B.t, tmp, eps, para);
    else if (tmpBytes) Normalize<U, T>(Y.t, R.t, M.t, V.t, X.t, G.t, B.t, tmp, eps, para);
    else Normalize<U, T>(Y.t, R.t, M.t, V.t, X.t, G.t, B.t, eps, para);
    Y.out();
    R.out();
}
template <typename U, typename T>
void run_nl() {
    uint32_t a = kt::param("a"), r = kt::param("r");
    TensorShape shape({int64_t(a), int64_t(r)});
    uint32_t mx = 0, mn = 0;
    GetNormalizeMaxMinTmpSize(shape, sizeof(U), sizeof(T), false, true, false, mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    auto x = kt::load<T>("x");
    auto g = kt::load<U>("g");
    auto be = kt::load<U>("be");
    auto m = kt::load<float>("mean");
    auto v = kt::load<float>("var");
    std::vector<float> fill(padded<float>(a), -7.0f);
    kt::Dev<T> dx(x), dy(x.size());
    kt::Dev<U> dg(g), db(be);
    kt::Dev<float> dm(m), dv(v), dr(fill);
    nl_kernel<U, T><<<1, nullptr, nullptr>>>(dx.gm(), dg.gm(), db.gm(), dm.gm(), dv.gm(), dy.gm(), dr.gm(), a, r, tmpBytes,
                                             kt::load<float>("eps")[0], kt::param("cfg"));
    kt::save("y", dy.host());
    kt::save("rstd", dr.host());
}
KT_CASE(nl_f32) { run_nl<float, float>(); }
KT_CASE(nl_f16) { run_nl<half, half>(); }
KT_CASE(nl_f16_f32) { run_nl<float, half>(); }

// ---- DeepNorm: params b, s, h, oh, tmp (-1 min / 0 framework), stack, reuse, basic, inplace; ab.bin {alpha, eps}
template <typename T, bool reuse, bool basic>
__aicore__ void dn_call(const LocalTensor<T>& y, const LocalTensor<T>& m, const LocalTensor<T>& v, const LocalTensor<T>& x,
                        const LocalTensor<T>& gx, const LocalTensor<T>& be, const LocalTensor<T>& g,
                        const LocalTensor<uint8_t>* tmp, T alpha, T eps, DeepNormTiling& t) {
    if (tmp) DeepNorm<T, reuse, basic>(y, m, v, x, gx, be, g, *tmp, alpha, eps, t);
    else DeepNorm<T, reuse, basic>(y, m, v, x, gx, be, g, alpha, eps, t);
}
template <typename T>
__global__ __aicore__ void dn_kernel(GM_ADDR x, GM_ADDR gx, GM_ADDR g, GM_ADDR be, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                                     GM_ADDR tl, uint32_t rows, uint32_t h, uint32_t tmpBytes, float alpha, float eps,
                                     int reuse, int basic, int inplace) {
    TPipe pipe;
    DeepNormTiling tiling = *reinterpret_cast<const DeepNormTiling*>(tl);
    uint32_t n = rows * h;
    Ub<T> X(pipe, x, n), GX(pipe, gx, n), G(pipe, g, h), B(pipe, be, h), Y(pipe, y, n), M(pipe, mean, rows), V(pipe, var, rows);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    const LocalTensor<uint8_t>* tp = tmpBytes ? &tmp : nullptr;
    const LocalTensor<T>& out = inplace ? X.t : Y.t;
    if (reuse) dn_call<T, true, false>(out, M.t, V.t, X.t, GX.t, B.t, G.t, tp, T(alpha), T(eps), tiling);
    else if (basic) dn_call<T, false, true>(out, M.t, V.t, X.t, GX.t, B.t, G.t, tp, T(alpha), T(eps), tiling);
    else dn_call<T, false, false>(out, M.t, V.t, X.t, GX.t, B.t, G.t, tp, T(alpha), T(eps), tiling);
    if (inplace) DataCopy(Y.g, X.t, n);
    else Y.out();
    M.out();
    V.out();
}
template <typename T>
void run_dn() {
    uint32_t b = kt::param("b"), s = kt::param("s"), h = kt::param("h"), oh = kt::param("oh", h);
    bool reuse = kt::param("reuse"), basic = kt::param("basic");
    TensorShape shape({int64_t(b), int64_t(s), int64_t(h)}), origin({int64_t(b), int64_t(s), int64_t(oh)});
    uint32_t mx = 0, mn = 0;
    bool okSizes = GetDeepNormMaxMinTmpSize(shape, sizeof(T), reuse, basic, mx, mn);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::DeepNormTiling host;
    bool okTiling = GetDeepNormTilingInfo(shape, origin, kt::param("stack", tmpBytes ? tmpBytes : mn), sizeof(T), reuse, basic,
                                          host);
    std::vector<uint8_t> tb(sizeof(DeepNormTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    auto f = words(*reinterpret_cast<const DeepNormTiling*>(tb.data()));
    f.push_back(mn);
    f.push_back(mx);
    f.push_back(okSizes);
    f.push_back(okTiling);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    auto x = kt::load<T>("x");
    auto gx = kt::load<T>("gx");
    auto g = kt::load<T>("g");
    auto be = kt::load<T>("be");
    auto ab = kt::load<float>("ab");
    kt::Dev<T> dx(x), dgx(gx), dg(g), db(be), dy(x.size()), dm(padded<T>(b * s)), dv(padded<T>(b * s));
    kt::Dev<uint8_t> dt(tb);
    dn_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dgx.gm(), dg.gm(), db.gm(), dy.gm(), dm.gm(), dv.gm(), dt.gm(), b * s, h,
                                          tmpBytes, ab[0], ab[1], reuse, basic, kt::param("inplace"));
    kt::save("y", dy.host());
    kt::save("mean", dm.host());
    kt::save("var", dv.host());
}
KT_CASE(dn_f32) { run_dn<float>(); }
KT_CASE(dn_f16) { run_dn<half>(); }

KT_MAIN()
