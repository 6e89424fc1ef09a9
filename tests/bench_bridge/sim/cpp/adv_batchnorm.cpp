// BatchNorm and its host tiling (kgen_sim/adv/batchnorm.h, host_batchnorm_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

// params b, s, h, tmp (-1 min / 0 framework), stack, basic, inplace; eps.bin
template <typename T>
__global__ __aicore__ void bn_kernel(GM_ADDR x, GM_ADDR g, GM_ADDR be, GM_ADDR y, GM_ADDR mean, GM_ADDR var, GM_ADDR tl,
                                     uint32_t b, uint32_t sh, uint32_t tmpBytes, float eps, int basic, int inplace) {
    TPipe pipe;
    BatchNormTiling tiling = *reinterpret_cast<const BatchNormTiling*>(tl);
    Ub<T> X(pipe, x, b * sh), G(pipe, g, b), B(pipe, be, b), Y(pipe, y, b * sh), M(pipe, mean, sh), V(pipe, var, sh);
    TBuf<TPosition::VECCALC> tb;
    const LocalTensor<T>& out = inplace ? X.t : Y.t;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        if (basic) BatchNorm<T, false, true>(out, M.t, V.t, X.t, G.t, B.t, tb.Get<uint8_t>(), T(eps), tiling);
        else BatchNorm<T>(out, M.t, V.t, X.t, G.t, B.t, tb.Get<uint8_t>(), T(eps), tiling);
    } else {
        BatchNorm<T>(out, M.t, V.t, X.t, G.t, B.t, T(eps), tiling);
    }
    if (inplace) DataCopy(Y.g, X.t, Y.n);
    else Y.out();
    M.out();
    V.out();
}
template <typename T>
void run_bn() {
    uint32_t b = kt::param("b"), s = kt::param("s"), h = kt::param("h");
    bool basic = kt::param("basic");
    TensorShape shape({int64_t(b), int64_t(s), int64_t(h)});
    uint32_t mx = 0, mn = 0;
    bool okSizes = GetBatchNormMaxMinTmpSize(shape, shape, sizeof(T), false, mx, mn, basic);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::BatchNormTiling host;
    bool okTiling = GetBatchNormNDTilingInfo(shape, shape, kt::param("stack", tmpBytes ? tmpBytes : mn), sizeof(T), false, host,
                                             basic);
    std::vector<uint8_t> tb(sizeof(BatchNormTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    BatchNormTiling ks;
    GetBatchNormNDTilingInfo(shape, shape, kt::param("stack", tmpBytes ? tmpBytes : mn), sizeof(T), false, ks, basic);
    std::vector<uint32_t> f(20), f2(20);
    std::memcpy(f.data(), tb.data(), 80);
    std::memcpy(f2.data(), &ks, 80);
    f.insert(f.end(), f2.begin(), f2.end());
    f.push_back(mn);
    f.push_back(mx);
    f.push_back(okSizes);
    f.push_back(okTiling);
    kt::save("tiling", f);
    if (kt::param("hostonly")) return;
    auto x = kt::load<T>("x");
    auto g = kt::load<T>("g");
    auto be = kt::load<T>("be");
    kt::Dev<T> dx(x), dg(g), db(be), dy(x.size()), dm(s * h), dv(s * h);
    kt::Dev<uint8_t> dt(tb);
    bn_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dg.gm(), db.gm(), dy.gm(), dm.gm(), dv.gm(), dt.gm(), b, s * h, tmpBytes,
                                          kt::load<float>("eps")[0], basic, kt::param("inplace"));
    kt::save("y", dy.host());
    kt::save("mean", dm.host());
    kt::save("var", dv.host());
}
KT_CASE(bn_f32) { run_bn<float>(); }
KT_CASE(bn_f16) { run_bn<half>(); }

KT_MAIN()
