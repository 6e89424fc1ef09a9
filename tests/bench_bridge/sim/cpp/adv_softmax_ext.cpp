// LogSoftMax, SoftmaxFlashV2, SoftmaxGrad / SoftmaxGradFront with their host tiling
// (kgen_sim/adv/log_softmax.h, softmax_flashv2.h, softmax_grad.h, host_softmax_ext_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

// A UB copy of a GM buffer: DataCopy in on creation, `out()` copies it back.
template <typename T>
using Ub = kt::UbStage<T, false>;  // kgen_test_ub.h

template <typename T>
std::vector<uint32_t> fields_of(const T& t) {
    std::vector<uint32_t> v(16);
    std::memcpy(v.data(), &t, 64);
    return v;
}

// ---- LogSoftMax: params m, k, ok, tmp (-1: GetLogSoftMaxMinTmpSize) ------------------------------
template <typename T>
__global__ __aicore__ void logsm_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR s, GM_ADDR mx, GM_ADDR tl, uint32_t m, uint32_t k,
                                        uint32_t ok, uint32_t tmpBytes, int inplace) {
    TPipe pipe;
    uint32_t blk = 32 / sizeof(T);
    Ub<T> X(pipe, x, m * k), Z(pipe, z, m * k), S(pipe, s, m * blk), M(pipe, mx, m * blk);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, tmpBytes);
    LogSoftMaxTiling tiling = *reinterpret_cast<const LogSoftMaxTiling*>(tl);
    SoftMaxShapeInfo info{m, k, m, ok ? ok : k};
    LogSoftMax<T>(inplace ? X.t : Z.t, S.t, M.t, X.t, tb.Get<uint8_t>(), tiling, info);
    Z.out();
    S.out();
    M.out();
}
template <typename T>
void run_logsm() {
    uint32_t m = kt::param("m"), k = kt::param("k");
    TensorShape shape({int64_t(m), int64_t(k)});
    uint32_t mn = GetLogSoftMaxMinTmpSize(shape, sizeof(T), false), mxs = GetLogSoftMaxMaxTmpSize(shape, sizeof(T), false);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::LogSoftMaxTiling host;
    LogSoftMaxTilingFunc(shape, sizeof(T), tmpBytes, host);
    std::vector<uint8_t> tb(sizeof(LogSoftMaxTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    LogSoftMaxTiling kt_;
    LogSoftMaxTilingFunc(shape, sizeof(T), tmpBytes, kt_);
    auto f = fields_of(*reinterpret_cast<const LogSoftMaxTiling*>(tb.data()));
    auto f2 = fields_of(kt_);
    f.insert(f.end(), f2.begin(), f2.end());
    f.push_back(mn);
    f.push_back(mxs);
    kt::save("tiling", f);
    auto x = kt::load<T>("x");
    uint32_t blk = 32 / sizeof(T);
    kt::Dev<T> dx(x), dz(x.size()), ds(m * blk), dm(m * blk);
    kt::Dev<uint8_t> dt(tb);
    logsm_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), ds.gm(), dm.gm(), dt.gm(), m, k, kt::param("ok"), tmpBytes,
                                             kt::param("inplace"));
    kt::save("z", dz.host());
    kt::save("sm", ds.host());
    kt::save("mx", dm.host());
}
KT_CASE(logsm_f32) { run_logsm<float>(); }
KT_CASE(logsm_f16) { run_logsm<half>(); }

// ---- SoftmaxFlashV2: params m, k, ok, update, basic, tmp (-1: min, 0: framework), inplace --------
template <typename T, typename U, bool upd, bool basic>
__aicore__ void flash_call(const LocalTensor<T>& z, const LocalTensor<U>& s, const LocalTensor<U>& mx,
                           const LocalTensor<T>& x, const LocalTensor<T>& em, const LocalTensor<U>& is,
                           const LocalTensor<U>& im, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& t,
                           const SoftMaxShapeInfo& info) {
    if (tmp) SoftmaxFlashV2<T, upd, false, basic>(z, s, mx, x, em, is, im, *tmp, t, info);
    else SoftmaxFlashV2<T, upd, false, basic>(z, s, mx, x, em, is, im, t, info);
}
template <typename T, typename U>
__global__ __aicore__ void flash_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR s, GM_ADDR mx, GM_ADDR em, GM_ADDR is, GM_ADDR im,
                                        GM_ADDR tl, uint32_t m, uint32_t k, uint32_t ok, uint32_t tmpBytes, int upd,
                                        int basic, int inplace) {
    TPipe pipe;
    uint32_t bu = 32 / sizeof(U), bt = 32 / sizeof(T);
    Ub<T> X(pipe, x, m * k), Z(pipe, z, m * k), E(pipe, em, m * bt);
    Ub<U> S(pipe, s, m * bu), M(pipe, mx, m * bu), IS(pipe, is, m * bu), IM(pipe, im, m * bu);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    SoftMaxTiling tiling = *reinterpret_cast<const SoftMaxTiling*>(tl);
    SoftMaxShapeInfo info{m, k, m, ok ? ok : k};
    const LocalTensor<uint8_t>* tp = tmpBytes ? &tmp : nullptr;
    const LocalTensor<T>& dst = inplace ? X.t : Z.t;
    const LocalTensor<U>& ins = inplace ? S.t : IS.t;
    const LocalTensor<U>& inm = inplace ? M.t : IM.t;
    if (inplace) {  // the running values start in the output tensors, as in the official example
        DataCopy(S.t, IS.g, m * bu);
        DataCopy(M.t, IM.g, m * bu);
    }
    if (upd && basic) flash_call<T, U, true, true>(dst, S.t, M.t, X.t, E.t, ins, inm, tp, tiling, info);
    else if (upd) flash_call<T, U, true, false>(dst, S.t, M.t, X.t, E.t, ins, inm, tp, tiling, info);
    else if (basic) flash_call<T, U, false, true>(dst, S.t, M.t, X.t, E.t, ins, inm, tp, tiling, info);
    else flash_call<T, U, false, false>(dst, S.t, M.t, X.t, E.t, ins, inm, tp, tiling, info);
    if (inplace) DataCopy(Z.g, X.t, m * k);
    else Z.out();
    S.out();
    M.out();
    E.out();
}
template <typename T, typename U>
void run_flash() {
    uint32_t m = kt::param("m"), k = kt::param("k");
    bool upd = kt::param("update"), basic = kt::param("basic");
    TensorShape shape({int64_t(m), int64_t(k)});
    uint32_t mn = GetSoftMaxFlashV2MinTmpSize(shape, sizeof(T), sizeof(U), upd, basic);
    uint32_t mxs = GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(U), upd, basic);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::SoftMaxTiling host;
    SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(U), tmpBytes ? tmpBytes : mxs, host, upd, basic);
    std::vector<uint8_t> tb(sizeof(SoftMaxTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    SoftMaxTiling dev = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{m, k, m, k}, sizeof(T), sizeof(U),
                                                 tmpBytes ? tmpBytes : mxs, upd, basic);
    auto f = fields_of(*reinterpret_cast<const SoftMaxTiling*>(tb.data()));
    auto f2 = fields_of(dev);
    f.insert(f.end(), f2.begin(), f2.end());
    f.push_back(mn);
    f.push_back(mxs);
    kt::save("tiling", f);
    auto x = kt::load<T>("x");
    auto is = kt::load<U>("insum");
    auto im = kt::load<U>("inmax");
    kt::Dev<T> dx(x), dz(x.size()), de(m * 32 / sizeof(T));
    kt::Dev<U> ds(m * 32 / sizeof(U)), dm(m * 32 / sizeof(U)), dis(is), dim(im);
    kt::Dev<uint8_t> dt(tb);
    flash_kernel<T, U><<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), ds.gm(), dm.gm(), de.gm(), dis.gm(), dim.gm(), dt.gm(), m,
                                                k, kt::param("ok"), tmpBytes, upd, basic, kt::param("inplace"));
    kt::save("z", dz.host());
    kt::save("sm", ds.host());
    kt::save("mx", dm.host());
    kt::save("em", de.host());
}
KT_CASE(flash_f32) { run_flash<float, float>(); }
KT_CASE(flash_f16) { run_flash<half, half>(); }
KT_CASE(flash_f16_f32) { run_flash<half, float>(); }

// The outReduceMax form (one value per row: config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC, or not: `nobrc`).
constexpr SoftmaxConfig kNoBrc = {false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
__global__ __aicore__ void flash_rmax_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR r, GM_ADDR s, GM_ADDR mx, GM_ADDR em,
                                             GM_ADDR is, GM_ADDR im, uint32_t m, uint32_t k, int nobrc) {
    TPipe pipe;
    uint32_t rows = (m + 7) / 8 * 8;  // one float per row, padded to whole blocks
    Ub<float> X(pipe, x, m * k), Z(pipe, z, m * k), R(pipe, r, rows), S(pipe, s, rows), M(pipe, mx, rows),
        E(pipe, em, rows), IS(pipe, is, rows), IM(pipe, im, rows);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 64 * 1024);
    SoftMaxTiling tiling = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{m, k, m, k}, 4, 4, 64 * 1024, true);
    SoftMaxShapeInfo info{m, k, m, k};
    if (nobrc)
        SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(Z.t, R.t, S.t, M.t, X.t, E.t, IS.t, IM.t, tb.Get<uint8_t>(),
                                                                 tiling, info);
    else
        SoftmaxFlashV2<float, true>(Z.t, R.t, S.t, M.t, X.t, E.t, IS.t, IM.t, tb.Get<uint8_t>(), tiling, info);
    Z.out();
    R.out();
    S.out();
    M.out();
    E.out();
}
KT_CASE(flash_rmax) {
    uint32_t m = kt::param("m"), k = kt::param("k"), rows = (m + 7) / 8 * 8;
    auto x = kt::load<float>("x");
    auto is = kt::load<float>("insum");
    auto im = kt::load<float>("inmax");
    std::vector<float> fill(rows, -7.0f), zf(x.size(), -7.0f);
    kt::Dev<float> dx(x), dz(zf), dr(fill), ds(fill), dm(fill), de(fill), dis(is), dim(im);
    flash_rmax_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), dr.gm(), ds.gm(), dm.gm(), de.gm(), dis.gm(), dim.gm(), m, k,
                                               kt::param("nobrc"));
    kt::save("z", dz.host());
    kt::save("rmax", dr.host());
    kt::save("sm", ds.host());
    kt::save("mx", dm.host());
    kt::save("em", de.host());
}

// ---- SoftmaxGrad / SoftmaxGradFront: params m, k, ok, mode (0 grad, 1 grad isFront, 2 front), tmp --
template <typename T>
__global__ __aicore__ void grad_kernel(GM_ADDR g, GM_ADDR y, GM_ADDR z, GM_ADDR tl, uint32_t m, uint32_t k, uint32_t ok,
                                       int mode, uint32_t tmpBytes, int inplace) {
    TPipe pipe;
    Ub<T> G(pipe, g, m * k), Y(pipe, y, m * k), Z(pipe, z, mode ? m * 32 / sizeof(T) : m * k);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    SoftMaxTiling tiling = *reinterpret_cast<const SoftMaxTiling*>(tl);
    SoftMaxShapeInfo info{m, k, m, ok ? ok : k};
    const LocalTensor<T>& dst = inplace ? Y.t : Z.t;
    if (mode == 2) {
        if (tmpBytes) SoftmaxGradFront<T>(dst, G.t, Y.t, tmp, tiling, info);
        else SoftmaxGradFront<T>(dst, G.t, Y.t, tiling, info);
    } else {
        if (tmpBytes) SoftmaxGrad<T>(dst, G.t, Y.t, tmp, tiling, mode == 1, info);
        else SoftmaxGrad<T>(dst, G.t, Y.t, tiling, mode == 1, info);
    }
    if (inplace) DataCopy(Z.g, Y.t, m * k);
    else Z.out();
}
template <typename T>
void run_grad() {
    uint32_t m = kt::param("m"), k = kt::param("k");
    int mode = kt::param("mode");
    TensorShape shape({int64_t(m), int64_t(k)});
    uint32_t mn = GetSoftMaxGradMinTmpSize(shape, sizeof(T), mode != 0, false);
    uint32_t mxs = GetSoftMaxGradMaxTmpSize(shape, sizeof(T), mode != 0, false);
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? mn : uint32_t(tmp);
    optiling::SoftMaxTiling host;
    SoftMaxGradTilingFunc(shape, sizeof(T), tmpBytes ? tmpBytes : mxs, host, mode != 0);
    std::vector<uint8_t> tb(sizeof(SoftMaxTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    auto f = fields_of(*reinterpret_cast<const SoftMaxTiling*>(tb.data()));
    f.push_back(mn);
    f.push_back(mxs);
    kt::save("tiling", f);
    auto g = kt::load<T>("g");
    auto y = kt::load<T>("y");
    kt::Dev<T> dg(g), dy(y), dz(mode ? m * 32 / sizeof(T) : m * k);
    kt::Dev<uint8_t> dt(tb);
    grad_kernel<T><<<1, nullptr, nullptr>>>(dg.gm(), dy.gm(), dz.gm(), dt.gm(), m, k, kt::param("ok"), mode, tmpBytes,
                                            kt::param("inplace"));
    kt::save("z", dz.host());
}
KT_CASE(grad_f32) { run_grad<float>(); }
KT_CASE(grad_f16) { run_grad<half>(); }

KT_MAIN()
