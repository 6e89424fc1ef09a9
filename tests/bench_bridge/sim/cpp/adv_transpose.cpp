// The high-level Transpose / ConfusionTranspose and its host tiling (kgen_sim/adv/confusion_transpose.h,
// host_transpose_tiling.h).
#include <cstring>
#include <vector>

#include "kgen_test_io.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

static uint32_t up32(uint64_t bytes) { return uint32_t((bytes + 31) / 32 * 32); }

// tmpBytes > 0: a sharedTmpBuffer of that size; 0: the API takes free UB. old: the ConfusionTranspose name.
template <typename T>
__global__ __aicore__ void ct_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tl, uint32_t ns, uint32_t nd, int32_t type,
                                     int32_t tmpBytes, int32_t old) {
    ConfusionTransposeTiling t;
    auto* src = reinterpret_cast<__gm__ uint32_t*>(tl);
    auto* dst = reinterpret_cast<uint32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(t) / 4; ++i) dst[i] = src[i];
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt;
    pipe.InitBuffer(bx, up32(ns * sizeof(T)));
    pipe.InitBuffer(by, up32(nd * sizeof(T)));
    LocalTensor<T> X = bx.Get<T>(), Y = by.Get<T>();
    GlobalTensor<T> gx, gy;
    gx.SetGlobalBuffer((__gm__ T*)x);
    gy.SetGlobalBuffer((__gm__ T*)y);
    DataCopy(X, gx, up32(ns * sizeof(T)) / sizeof(T));
    const TransposeType tt = static_cast<TransposeType>(type);
    if (tmpBytes > 0) {
        pipe.InitBuffer(bt, uint32_t(tmpBytes));
        LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
        if (old) ConfusionTranspose(Y, X, tmp, tt, t);
        else Transpose(Y, X, tmp, tt, t);
    } else {
        if (old) ConfusionTranspose(Y, X, tt, t);
        else Transpose(Y, X, tt, t);
    }
    DataCopy(gy, Y, up32(nd * sizeof(T)) / sizeof(T));
}

// params type, rank, d0..d3, stack (-1: min, -2: max, else bytes), tmp (-1: the stack size, 0: none, else
// bytes), old, ns, nd (element counts of the operands), hostonly
template <typename T>
void run_ct() {
    const int32_t type = kt::param("type");
    std::vector<int64_t> dims;
    for (int i = 0; i < kt::param("rank"); ++i) dims.push_back(kt::param("d" + std::to_string(i)));
    TensorShape shape(dims);
    uint32_t mx = 7, mn = 7, mx2 = 9, mn2 = 9;
    GetTransposeMaxMinTmpSize(shape, sizeof(T), type, mx, mn);
    GetConfusionTransposeMaxMinTmpSize(shape, sizeof(T), type, mx2, mn2);
    kt::save("sizes", std::vector<uint32_t>{mn, mx, mn2, mx2});
    const int64_t st = kt::param("stack", -1);
    const uint32_t stack = st == -1 ? mn : (st == -2 ? mx : uint32_t(st));
    optiling::ConfusionTransposeTiling host;
    GetTransposeTilingInfo(shape, stack, sizeof(T), type, host);
    std::vector<uint32_t> words(18);
    host.SaveToBuffer(words.data(), 18 * 4);
    const std::vector<uint32_t> saved = words;
    AscendC::tiling::ConfusionTransposeTiling direct, older;
    GetConfusionTransposeTilingInfo(shape, stack, sizeof(T), type, direct);
    if (type == 7) GetConfusionTransposeOnlyTilingInfo(shape, stack, sizeof(T), older);
    else older = direct;
    std::vector<uint32_t> w2(18), w3(18);
    std::memcpy(w2.data(), &direct, 72);
    std::memcpy(w3.data(), &older, 72);
    kt::save("tiling", saved);
    if (kt::param("force_e")) words[0] = uint32_t(kt::param("force_e"));  // a tiling meant for another type
    kt::save("tiling_direct", w2);
    kt::save("tiling_only", w3);
    if (kt::param("hostonly")) return;
    const int64_t tm = kt::param("tmp", -1);
    const int32_t tmpBytes = tm == -1 ? int32_t(stack) : int32_t(tm);
    const uint32_t ns = kt::param("ns"), nd = kt::param("nd");
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x), dy(up32(nd * sizeof(T)) / sizeof(T));
    kt::Dev<uint32_t> dt(words);
    ct_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dt.gm(), ns, nd, type, tmpBytes, int32_t(kt::param("old")));
    kt::save("y", dy.host());
}

KT_CASE(ct_f16) { run_ct<half>(); }
KT_CASE(ct_f32) { run_ct<float>(); }
KT_CASE(ct_i16) { run_ct<int16_t>(); }
KT_CASE(ct_i32) { run_ct<int32_t>(); }

// ---- TransData ----------------------------------------------------------------------------------
namespace {
constexpr TransDataConfig kToNdc = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFromNdc = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
}  // namespace

template <const TransDataConfig& cfg, class T, class A, class B>
void td_call(LocalTensor<T>& Y, LocalTensor<T>& X, LocalTensor<uint8_t>& tmp, int32_t tmpBytes, const A& src, const B& dst) {
    TransDataParams<A, B> params = {src, dst};
    if (tmpBytes > 0) TransData<cfg>(Y, X, tmp, params);
    else TransData<cfg>(Y, X, params);
}

// mode 1: NCDHW -> NDC1HWC0, 2: back, 3: NCDHW -> FRACTAL_Z_3D, 4: back; tmpBytes 0: the API takes free UB
template <typename T, int mode>
__global__ __aicore__ void td_kernel(GM_ADDR x, GM_ADDR y, int32_t n, int32_t c, int32_t d, int32_t h, int32_t w,
                                     uint32_t ns, uint32_t nd, int32_t tmpBytes, int32_t c1fix) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt;
    pipe.InitBuffer(bx, up32(ns * sizeof(T)));
    pipe.InitBuffer(by, up32(nd * sizeof(T)));
    LocalTensor<T> X = bx.Get<T>(), Y = by.Get<T>();
    GlobalTensor<T> gx, gy;
    gx.SetGlobalBuffer((__gm__ T*)x);
    gy.SetGlobalBuffer((__gm__ T*)y);
    DataCopy(X, gx, up32(ns * sizeof(T)) / sizeof(T));
    const int32_t c1 = (c + 15) / 16 + c1fix, n1 = (n + 15) / 16;
    Layout ncdhw = MakeLayout(MakeShape(n, c, d, h, w), MakeStride());
    Layout ndc = MakeLayout(MakeShape(n, d, c1, h, w, 16), MakeStride());
    Layout fz = MakeLayout(MakeShape(d, c1, h, w, n1, 16, 16), MakeStride());
    LocalTensor<uint8_t> tmp;
    if (tmpBytes > 0) {
        pipe.InitBuffer(bt, uint32_t(tmpBytes));
        tmp = bt.Get<uint8_t>();
    }
    if constexpr (mode == 1) td_call<kToNdc>(Y, X, tmp, tmpBytes, ncdhw, ndc);
    else if constexpr (mode == 2) td_call<kFromNdc>(Y, X, tmp, tmpBytes, ndc, ncdhw);
    else if constexpr (mode == 3) td_call<kToFz>(Y, X, tmp, tmpBytes, ncdhw, fz);
    else td_call<kFromFz>(Y, X, tmp, tmpBytes, fz, ncdhw);
    DataCopy(gy, Y, up32(nd * sizeof(T)) / sizeof(T));
}

// params mode, n, c, d, h, w, ns, nd, tmp (-1: the documented size, 0: none, else bytes), c1fix (a wrong C1)
template <typename T>
void run_td() {
    const int32_t mode = kt::param("mode"), n = kt::param("n"), c = kt::param("c"), d = kt::param("d"),
                  h = kt::param("h"), w = kt::param("w");
    const int64_t c1 = (c + 15) / 16, n1 = (n + 15) / 16;
    TensorShape ncdhw({n, c, d, h, w}), ndc({n, d, c1, h, w, 16}), fz({d, c1, h, w, n1, 16, 16});
    const TransDataConfig cfgs[4] = {kToNdc, kFromNdc, kToFz, kFromFz};
    const TensorShape& s = mode == 1 || mode == 3 ? ncdhw : (mode == 2 ? ndc : fz);
    const TensorShape& t = mode == 2 || mode == 4 ? ncdhw : (mode == 1 ? ndc : fz);
    uint32_t mx = 7, mn = 7;
    platform_ascendc::PlatformAscendC plat;
    const bool ok = GetTransDataMaxMinTmpSize(plat, s, t, sizeof(T) == 2 && std::is_same_v<T, half> ? ge::DT_FLOAT16 : ge::DT_INT16,
                                              cfgs[mode - 1], mx, mn);
    const bool bad = GetTransDataMaxMinTmpSize(plat, s, t, ge::DT_FLOAT, cfgs[mode - 1], mx, mn);  // not a b16 type
    kt::save("sizes", std::vector<uint32_t>{ok ? 1u : 0u, bad ? 1u : 0u, mn, mx});
    if (kt::param("hostonly")) return;
    const int64_t tm = kt::param("tmp", -1);
    const int32_t tmpBytes = tm == -1 ? int32_t(mn) : int32_t(tm);
    const uint32_t ns = kt::param("ns"), nd = kt::param("nd");
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x), dy(up32(nd * sizeof(T)) / sizeof(T));
    const int32_t fix = kt::param("c1fix");
    if (mode == 1) td_kernel<T, 1><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), n, c, d, h, w, ns, nd, tmpBytes, fix);
    if (mode == 2) td_kernel<T, 2><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), n, c, d, h, w, ns, nd, tmpBytes, fix);
    if (mode == 3) td_kernel<T, 3><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), n, c, d, h, w, ns, nd, tmpBytes, fix);
    if (mode == 4) td_kernel<T, 4><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), n, c, d, h, w, ns, nd, tmpBytes, fix);
    kt::save("y", dy.host());
}

KT_CASE(td_f16) { run_td<half>(); }
KT_CASE(td_i16) { run_td<int16_t>(); }

KT_MAIN()
