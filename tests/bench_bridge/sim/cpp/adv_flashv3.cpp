// SoftmaxFlashV3 with its host tiling (kgen_sim/adv/softmax_flashv3.h, host_softmax_ext_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, false>;  // kgen_test_ub.h

// Params: m, k, update, loop, alpha (millionths), tmp (-1: the minimum, 0: framework, else bytes),
// inplace (1: mean/max/expSum and dst are the input tensors, as the official example does),
// shapeinfo (1: params carry srcM = srcK = 0 and the source tensor's ShapeInfo gives the shape),
// split (the documented splitMeanCnt, default 8), work (bytes for the tiling function, default tmp).
template <bool upd>
__aicore__ void fv3_call(const LocalTensor<half>& z, const LocalTensor<float>& mean, const LocalTensor<float>& sum,
                         const LocalTensor<float>& mx, const LocalTensor<half>& x, const LocalTensor<half>& em,
                         const LocalTensor<float>& imean, const LocalTensor<float>& isum, const LocalTensor<float>& imax,
                         const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& t, const SoftMaxParams& p) {
    if (tmp) SoftmaxFlashV3<half, float, upd>(z, mean, sum, mx, x, em, imean, isum, imax, *tmp, t, p);
    else SoftmaxFlashV3<half, float, upd>(z, mean, sum, mx, x, em, imean, isum, imax, t, p);
}

__global__ __aicore__ void fv3_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR mean, GM_ADDR sum, GM_ADDR mx, GM_ADDR em,
                                      GM_ADDR imean, GM_ADDR isum, GM_ADDR imax, GM_ADDR tl, uint32_t m, uint32_t k,
                                      int upd, uint32_t loop, float alpha, uint32_t tmpBytes, int inplace, int shapeinfo,
                                      uint32_t split) {
    TPipe pipe;
    Ub<half> X(pipe, x, m * k), Z(pipe, z, m * k), E(pipe, em, m * 16);
    Ub<float> A(pipe, mean, m * 8), S(pipe, sum, m * 8), M(pipe, mx, m * 8), IA(pipe, imean, m * 8), IS(pipe, isum, m * 8),
        IM(pipe, imax, m * 8);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    SoftMaxTiling tiling = *reinterpret_cast<const SoftMaxTiling*>(tl);
    SoftMaxParams params = {m, k, m, k, loop, split, alpha};
    if (shapeinfo) {
        uint32_t shape[2] = {m, k};
        X.t.SetShapeInfo(ShapeInfo(2, shape));
        params = SoftMaxParams(0, 0, 0, 0, loop, split, alpha);
    }
    const LocalTensor<uint8_t>* tp = tmpBytes ? &tmp : nullptr;
    if (inplace) {  // the running values live in the output tensors; dst overwrites src
        DataCopy(A.t, IA.g, m * 8);
        DataCopy(S.t, IS.g, m * 8);
        DataCopy(M.t, IM.g, m * 8);
        if (upd) fv3_call<true>(X.t, A.t, S.t, M.t, X.t, E.t, A.t, S.t, M.t, tp, tiling, params);
        else fv3_call<false>(X.t, A.t, S.t, M.t, X.t, E.t, A.t, S.t, M.t, tp, tiling, params);
        DataCopy(Z.g, X.t, m * k);
    } else {
        if (upd) fv3_call<true>(Z.t, A.t, S.t, M.t, X.t, E.t, IA.t, IS.t, IM.t, tp, tiling, params);
        else fv3_call<false>(Z.t, A.t, S.t, M.t, X.t, E.t, IA.t, IS.t, IM.t, tp, tiling, params);
        Z.out();
    }
    A.out();
    S.out();
    M.out();
    E.out();
}

KT_CASE(fv3) {
    uint32_t m = kt::param("m"), k = kt::param("k");
    bool upd = kt::param("update");
    TensorShape shape({int64_t(m), int64_t(k)});
    uint32_t mx = 0, mn = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(shape, sizeof(half), sizeof(float), mx, mn, upd);
    int64_t tmp = kt::param("tmp", -1);
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    uint32_t work = kt::param("work", tmpBytes ? tmpBytes : mx);
    optiling::SoftMaxTiling host;
    SoftMaxFlashV3TilingFunc(shape, sizeof(half), sizeof(float), work, host, upd);
    std::vector<uint8_t> tb(sizeof(SoftMaxTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    SoftMaxTiling dev;
    SoftMaxFlashV3TilingFunc(shape, sizeof(half), sizeof(float), work, dev, upd);
    std::vector<uint32_t> f(32);
    std::memcpy(f.data(), tb.data(), 64);
    std::memcpy(f.data() + 16, &dev, 64);
    f.push_back(mn);
    f.push_back(mx);
    kt::save("tiling", f);
    auto x = kt::load<half>("x");
    auto ia = kt::load<float>("inmean");
    auto is = kt::load<float>("insum");
    auto im = kt::load<float>("inmax");
    std::vector<half> emf(m * 16, half(-7.0f));
    kt::Dev<half> dx(x), dz(x.size()), de(emf);
    kt::Dev<float> da(m * 8), ds(m * 8), dm(m * 8), dia(ia), dis(is), dim(im);
    kt::Dev<uint8_t> dt(tb);
    float alpha = float(kt::param("alpha", 937500)) / 1e6f;
    fv3_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), da.gm(), ds.gm(), dm.gm(), de.gm(), dia.gm(), dis.gm(), dim.gm(),
                                        dt.gm(), m, k, upd, kt::param("loop", 1), alpha, tmpBytes, kt::param("inplace"),
                                        kt::param("shapeinfo"), kt::param("split", 8));
    kt::save("z", dz.host());
    kt::save("mean", da.host());
    kt::save("sm", ds.host());
    kt::save("mx", dm.host());
    kt::save("em", de.host());
}

// Host helpers only: params m, k, ts1, ts2, work.
KT_CASE(fv3_host) {
    uint32_t m = kt::param("m"), k = kt::param("k");
    TensorShape shape({int64_t(m), int64_t(k)});
    uint32_t mx = 7, mn = 7;
    GetSoftMaxFlashV3MaxMinTmpSize(shape, kt::param("ts1"), kt::param("ts2"), mx, mn, true);
    SoftMaxTiling t;
    SoftMaxFlashV3TilingFunc(shape, kt::param("ts1"), kt::param("ts2"), kt::param("work"), t, true);
    std::vector<uint32_t> f(16);
    std::memcpy(f.data(), &t, 64);
    f.push_back(mn);
    f.push_back(mx);
    kt::save("tiling", f);
}

KT_MAIN()
