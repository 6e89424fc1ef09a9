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

KT_MAIN()
