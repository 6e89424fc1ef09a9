// TopK with its host tiling (kgen_sim/adv/topk.h, topk_types.h, host_topk_tiling.h).
#include "kgen_test_io.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

// A UB copy of a GM buffer of `count` elements (count * sizeof(T) a multiple of 32).
template <typename T>
struct Ub {
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> g;
    LocalTensor<T> t;
    uint32_t n;
    Ub(TPipe& pipe, GM_ADDR p, uint32_t count) : n(count) {
        pipe.InitBuffer(buf, count ? (count * sizeof(T) + 31) / 32 * 32 : 32);
        g.SetGlobalBuffer((__gm__ T*)p, count);
        t = buf.Get<T>();
        if (count) DataCopy(t, g, count);
    }
    void out() {
        if (n) DataCopy(g, t, n);
    }
};

struct Args {
    int32_t outter, inner, n, k;
    bool largest;
    int64_t tmp;  // > 0: tmpLocal bytes; 0: the API takes its own buffer
    uint32_t nx, nxi, nf, nv, ni;
    int overlap;  // 1: dstValue is the source tensor
    int tmpVecin; // 1: tmpLocal comes from a VECIN buffer
};

// ---- the kernel: every template combination the tests use ---------------------------------------
template <typename T, bool init, bool fin, TopKMode mode>
__global__ __aicore__ void topk_kernel(GM_ADDR x, GM_ADDR xi, GM_ADDR fz, GM_ADDR v, GM_ADDR ix, GM_ADDR tl, Args a) {
    TPipe pipe;
    Ub<T> X(pipe, x, a.nx), V(pipe, v, a.nv);
    Ub<int32_t> XI(pipe, xi, a.nxi), I(pipe, ix, a.ni);
    Ub<uint8_t> F(pipe, fz, a.nf);
    LocalTensor<bool> finish = F.t.template ReinterpretCast<bool>();
    LocalTensor<int32_t> srcIndex;  // "only defined" when isInitIndex is false
    if (init) srcIndex = XI.t;
    TopkTiling tiling = *reinterpret_cast<const TopkTiling*>(tl);
    TopKInfo info;
    info.outter = a.outter;
    info.inner = a.inner;
    info.n = a.n;
    const LocalTensor<T>& dv = a.overlap ? X.t : V.t;
    if (a.tmp > 0) {
        TBuf<TPosition::VECCALC> tb;
        TBuf<TPosition::VECIN> tin;  // tmp_vecin: a tmpLocal in another logical position
        LocalTensor<uint8_t> tmp;
        if (a.tmpVecin) {
            pipe.InitBuffer(tin, uint32_t(a.tmp));
            tmp = tin.Get<uint8_t>();
        } else {
            pipe.InitBuffer(tb, uint32_t(a.tmp));
            tmp = tb.Get<uint8_t>();
        }
        TopK<T, init, fin, false, mode>(dv, I.t, X.t, srcIndex, finish, tmp, a.k, tiling, info, a.largest);  // @call-tmp
    } else {
        TopK<T, init, fin, false, mode>(dv, I.t, X.t, srcIndex, finish, a.k, tiling, info, a.largest);  // @call-own
    }
    V.out();
    I.out();
    X.out();
}

template <typename T, bool init, bool fin, TopKMode mode>
void launch(GM_ADDR x, GM_ADDR xi, GM_ADDR fz, GM_ADDR v, GM_ADDR ix, GM_ADDR tl, const Args& a) {
    topk_kernel<T, init, fin, mode><<<1, nullptr, nullptr>>>(x, xi, fz, v, ix, tl, a);
}

template <typename T>
void run_topk() {
    Args a{};
    a.outter = int32_t(kt::param("outter", 1));
    a.inner = int32_t(kt::param("inner"));
    a.n = int32_t(kt::param("n", a.inner));
    a.k = int32_t(kt::param("k"));
    a.largest = kt::param("largest", 1) != 0;
    const bool init = kt::param("init") != 0, fin = kt::param("finish") != 0, small = kt::param("small") != 0;
    const TopKMode mode = small ? TopKMode::TOPK_NSMALL : TopKMode::TOPK_NORMAL;
    a.overlap = int(kt::param("overlap"));
    a.tmpVecin = int(kt::param("tmp_vecin"));
    // host side: the tiling (host class and kernel-struct overloads) and the temporary sizes
    auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const int32_t tk = int32_t(kt::param("tiling_k", a.k));
    const int32_t tOutter = int32_t(kt::param("tiling_outter", a.outter));
    const bool tLargest = kt::param("tiling_largest", a.largest) != 0;
    optiling::TopkTiling host;
    const bool ok1 = TopKTilingFunc(*plat, a.inner, tOutter, tk, sizeof(T), init, mode, tLargest, host);
    TopkTiling dev;
    const bool ok2 = TopKTilingFunc(*plat, a.inner, tOutter, tk, sizeof(T), init, mode, tLargest, dev);
    uint32_t mx = 0, mn = 0;
    const bool ok3 = GetTopKMaxMinTmpSize(*plat, a.inner, a.outter, false, init, mode, a.largest, sizeof(T), mx, mn);
    std::vector<uint8_t> tb(sizeof(TopkTiling));
    host.SaveToBuffer(tb.data(), tb.size());
    std::vector<uint8_t> dv(sizeof(TopkTiling));
    std::memcpy(dv.data(), &dev, sizeof dev);
    tb.insert(tb.end(), dv.begin(), dv.end());
    const uint32_t extra[] = {mn, mx, uint32_t(ok1), uint32_t(ok2), uint32_t(ok3)};
    const uint8_t* e = reinterpret_cast<const uint8_t*>(extra);
    tb.insert(tb.end(), e, e + sizeof extra);
    kt::save("tiling", tb);
    if (kt::param("host_only")) return;
    const int64_t tmp = kt::param("tmp", -1);
    a.tmp = tmp < 0 ? int64_t(mn) : tmp;
    auto x = kt::load<T>("x");
    auto xi = kt::load<int32_t>("xi");
    auto f = kt::load<uint8_t>("fin");
    auto v = kt::load<T>("v");
    auto ix = kt::load<int32_t>("i");
    a.nx = x.size();
    a.nxi = xi.size();
    a.nf = f.size();
    a.nv = v.size();
    a.ni = ix.size();
    kt::Dev<T> dx(x), dvv(v);
    kt::Dev<int32_t> dxi(xi), dix(ix);
    kt::Dev<uint8_t> df(f), dt(std::vector<uint8_t>(tb.begin(), tb.begin() + sizeof(TopkTiling)));
    using L = void (*)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, const Args&);
    static const L table[2][2][2] = {
        {{launch<T, false, false, TopKMode::TOPK_NORMAL>, launch<T, false, false, TopKMode::TOPK_NSMALL>},
         {launch<T, false, true, TopKMode::TOPK_NORMAL>, launch<T, false, true, TopKMode::TOPK_NSMALL>}},
        {{launch<T, true, false, TopKMode::TOPK_NORMAL>, launch<T, true, false, TopKMode::TOPK_NSMALL>},
         {launch<T, true, true, TopKMode::TOPK_NORMAL>, launch<T, true, true, TopKMode::TOPK_NSMALL>}}};
    table[init][fin][small](dx.gm(), dxi.gm(), df.gm(), dvv.gm(), dix.gm(), dt.gm(), a);
    kt::save("v", dvv.host());
    kt::save("i", dix.host());
    kt::save("x", dx.host());
}
KT_CASE(topk_f32) { run_topk<float>(); }
KT_CASE(topk_f16) { run_topk<half>(); }

// ---- a TopKConfig other than the default is an Ascend 950 feature ---------------------------------
constexpr TopKConfig kRadix = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true};
__global__ __aicore__ void topk_radix_kernel(GM_ADDR x) {
    TPipe pipe;
    Ub<float> X(pipe, x, 32), V(pipe, x, 8);
    Ub<int32_t> I(pipe, x, 8);
    LocalTensor<int32_t> si;
    LocalTensor<bool> fin;
    TopkTiling t{};
    TopKInfo info{1, 32, 32};
    TopK<float, false, false, false, TopKMode::TOPK_NORMAL, kRadix>(V.t, I.t, X.t, si, fin, 4, t, info);  // @E-radix
}
KT_CASE(topk_radix) {
    std::vector<float> x(32, 1.0f);
    kt::Dev<float> dx(x);
    topk_radix_kernel<<<1, nullptr, nullptr>>>(dx.gm());
}

KT_MAIN()
