// High-level activations (kgen_sim/adv/activation.h) and SoftMax / SimpleSoftMax with the host
// tiling (kgen_sim/adv/softmax.h, host_softmax_tiling.h).
#include "kgen_test_io.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

enum Act { SIGMOID, SILU, SWISH, GELU, FASTERGELU, SWIGLU, GEGLU };

template <typename T>
__global__ __aicore__ void act_kernel(GM_ADDR xg, GM_ADDR yg, GM_ADDR zg, uint32_t len, uint32_t n, uint32_t tmpBytes, int op,
                                      float s) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, zb, tb;
    pipe.InitBuffer(xb, len * sizeof(T));
    pipe.InitBuffer(yb, len * sizeof(T));
    pipe.InitBuffer(zb, len * sizeof(T));
    if (tmpBytes) pipe.InitBuffer(tb, tmpBytes);
    GlobalTensor<T> X, Y, Z;
    X.SetGlobalBuffer((__gm__ T*)xg, len);
    Y.SetGlobalBuffer((__gm__ T*)yg, len);
    Z.SetGlobalBuffer((__gm__ T*)zg, len);
    LocalTensor<T> x = xb.Get<T>(), y = yb.Get<T>(), z = zb.Get<T>();
    DataCopy(x, X, len);
    DataCopy(y, Y, len);
    DataCopy(z, Z, len);
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) tmp = tb.Get<uint8_t>();
    switch (op) {
        case SIGMOID: if (tmpBytes) Sigmoid(z, x, tmp, n); else Sigmoid(z, x, n); break;
        case SILU: Silu(z, x, n); break;
        case SWISH: Swish(z, x, n, T(s)); break;
        case GELU: if (tmpBytes) Gelu(z, x, tmp, n); else Gelu(z, x, n); break;
        case FASTERGELU: if (tmpBytes) FasterGelu(z, x, tmp, n); else FasterGelu(z, x, n); break;
        case SWIGLU: if (tmpBytes) SwiGLU(z, x, y, s, tmp, n); else SwiGLU(z, x, y, s, n); break;
        case GEGLU: if (tmpBytes) GeGLU(z, x, y, tmp, n); else GeGLU(z, x, y, n); break;
    }
    DataCopy(Z, z, len);
}

template <typename T>
void run_act() {
    auto x = kt::load<T>("x");
    auto y = kt::load<T>("y");
    auto z = kt::load<T>("z");
    kt::Dev<T> dx(x), dy(y), dz(z);
    act_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dz.gm(), (uint32_t)x.size(), (uint32_t)kt::param("n"),
                                           (uint32_t)kt::param("tmp"), (int)kt::param("op"), kt::load<float>("s")[0]);
    kt::save("z", dz.host());
}
KT_CASE(act_f32) { run_act<float>(); }
KT_CASE(act_f16) { run_act<half>(); }

// ---- SoftMax: tiling from the host helpers, the kernel in one call over [m, k] ------------------
// params: m, k (UB shape), ok (original columns; 0 = k), tmp (bytes; 0 = framework; -1 = the
// GetSoftMaxMinTmpSize value), simple (1: SimpleSoftMax with max/sum from mx.bin/sm.bin), nosumax
// (1: the form without sum/max).
template <typename T, typename U>
__global__ __aicore__ void softmax_kernel(GM_ADDR xg, GM_ADDR zg, GM_ADDR sumg, GM_ADDR maxg, GM_ADDR tilingg, uint32_t m,
                                          uint32_t k, uint32_t ok, uint32_t tmpBytes, int simple, int nosumax) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, sb, mb, tb;
    uint32_t n = m * k, blk = 32 / sizeof(U);
    pipe.InitBuffer(xb, n * sizeof(T));
    pipe.InitBuffer(zb, n * sizeof(T));
    pipe.InitBuffer(sb, m * 32);
    pipe.InitBuffer(mb, m * 32);
    if (tmpBytes) pipe.InitBuffer(tb, tmpBytes);
    GlobalTensor<T> X, Z;
    GlobalTensor<U> S, M;
    X.SetGlobalBuffer((__gm__ T*)xg, n);
    Z.SetGlobalBuffer((__gm__ T*)zg, n);
    S.SetGlobalBuffer((__gm__ U*)sumg, m * blk);
    M.SetGlobalBuffer((__gm__ U*)maxg, m * blk);
    LocalTensor<T> x = xb.Get<T>(), z = zb.Get<T>();
    LocalTensor<U> sm = sb.Get<U>(), mx = mb.Get<U>();
    DataCopy(x, X, n);
    DataCopy(sm, S, m * blk);
    DataCopy(mx, M, m * blk);
    SoftMaxTiling tiling = *reinterpret_cast<const SoftMaxTiling*>(tilingg);
    SoftMaxShapeInfo info{m, k, m, ok ? ok : k};
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) tmp = tb.Get<uint8_t>();
    if (simple) {
        if (tmpBytes) SimpleSoftMax<T>(z, sm, mx, x, tmp, tiling, info);
        else SimpleSoftMax<T>(z, sm, mx, x, tiling, info);
    } else if (nosumax) {
        if constexpr (std::is_same_v<T, U>) {
            if (tmpBytes) SoftMax<T>(z, x, tmp, tiling, info);
            else SoftMax<T>(z, x, tiling, info);
        }
    } else {
        if (tmpBytes) SoftMax<T>(z, sm, mx, x, tmp, tiling, info);
        else SoftMax<T>(z, sm, mx, x, tiling, info);
    }
    DataCopy(Z, z, n);
    DataCopy(S, sm, m * blk);
    DataCopy(M, mx, m * blk);
}

template <typename T, typename U>
void run_softmax() {
    uint32_t m = (uint32_t)kt::param("m"), k = (uint32_t)kt::param("k");
    int64_t tmp = kt::param("tmp");
    TensorShape shape({int64_t(m), int64_t(k)});
    uint32_t mn = GetSoftMaxMinTmpSize(shape, sizeof(T), false);
    uint32_t mxs = GetSoftMaxMaxTmpSize(shape, sizeof(T), false);
    uint32_t tmpBytes = tmp < 0 ? mn : (uint32_t)tmp;
    optiling::SoftMaxTiling host;
    SoftMaxTilingFunc(shape, sizeof(T), tmpBytes ? tmpBytes : mxs, host);
    std::vector<uint8_t> tbytes(sizeof(SoftMaxTiling));
    host.SaveToBuffer(tbytes.data(), tbytes.size());
    std::vector<uint32_t> fields(16);
    std::memcpy(fields.data(), tbytes.data(), 64);
    fields.push_back(mn);
    fields.push_back(mxs);
    fields.push_back(IsBasicBlockInSoftMax(host, sizeof(T)) ? 1 : 0);
    kt::save("tiling", fields);
    auto x = kt::load<T>("x");
    auto sm = kt::load<U>("sm");
    auto mx = kt::load<U>("mx");
    kt::Dev<T> dx(x), dz(x.size());
    kt::Dev<U> ds(sm), dm(mx);
    kt::Dev<uint8_t> dt(tbytes);
    softmax_kernel<T, U><<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), ds.gm(), dm.gm(), dt.gm(), m, k, (uint32_t)kt::param("ok"),
                                                  tmpBytes, (int)kt::param("simple"), (int)kt::param("nosumax"));
    kt::save("z", dz.host());
    kt::save("sm", ds.host());
    kt::save("mx", dm.host());
}
KT_CASE(softmax_f32) { run_softmax<float, float>(); }
KT_CASE(softmax_f16) { run_softmax<half, half>(); }
KT_CASE(softmax_f16_f32) { run_softmax<half, float>(); }

// ---- AdjustSoftMaxRes and the activation host helpers --------------------------------------------
__global__ __aicore__ void adjust_kernel(GM_ADDR resg, GM_ADDR maxg, GM_ADDR flagg, uint32_t m, uint32_t k, uint32_t from) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> rb, mb;
    pipe.InitBuffer(rb, m * k * 4);
    pipe.InitBuffer(mb, m * 32);
    GlobalTensor<float> R, M;
    R.SetGlobalBuffer((__gm__ float*)resg, m * k);
    M.SetGlobalBuffer((__gm__ float*)maxg, m * 8);
    LocalTensor<float> r = rb.Get<float>(), mx = mb.Get<float>();
    DataCopy(r, R, m * k);
    DataCopy(mx, M, m * 8);
    bool any = AdjustSoftMaxRes<float, float>(r, mx, from, 9.0f, SoftMaxShapeInfo{m, k, m, k});
    DataCopy(R, r, m * k);
    *reinterpret_cast<int32_t*>(flagg) = any ? 1 : 0;
}
KT_CASE(adjust) {
    auto res = kt::load<float>("res");
    auto mx = kt::load<float>("mx");
    kt::Dev<float> dr(res), dm(mx);
    kt::Dev<int32_t> flag(8);
    adjust_kernel<<<1, nullptr, nullptr>>>(dr.gm(), dm.gm(), flag.gm(), (uint32_t)kt::param("m"), (uint32_t)kt::param("k"),
                                           (uint32_t)kt::param("from"));
    kt::save("res", dr.host());
    kt::save("flag", flag.host());
}

KT_CASE(host_act_sizes) {
    std::vector<uint32_t> out;
    uint32_t mx = 0, mn = 0;
    for (int64_t n : {16, 1000})
        for (uint32_t ts : {2u, 4u}) {
            TensorShape sh({n});
            GetSigmoidMaxMinTmpSize(sh, ts, false, mx, mn); out.push_back(mx); out.push_back(mn);
            GetGeluMaxMinTmpSize(sh, ts, mx, mn); out.push_back(mx); out.push_back(mn);
            GetSwiGLUMaxMinTmpSize(sh, ts, mx, mn, false); out.push_back(mx); out.push_back(mn);
            GetGeGLUMaxMinTmpSize(sh, ts, false, mx, mn); out.push_back(mx); out.push_back(mn);
            GetSwishTmpSize(sh, ts, false, mx, mn); out.push_back(mx); out.push_back(mn);
        }
    kt::save("sizes", out);
}

KT_MAIN()
