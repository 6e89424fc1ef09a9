// Pad / UnPad and their host tiling (kgen_sim/adv/pad.h, host_pad_tiling.h).
#include <vector>

#include "kgen_test_io.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <class S>
static void load_tiling(S& t, GM_ADDR p) {
    auto* src = reinterpret_cast<__gm__ uint32_t*>(p);
    auto* dst = reinterpret_cast<uint32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(S) / 4; ++i) dst[i] = src[i];
}

static uint32_t up32(uint64_t bytes) { return uint32_t((bytes + 31) / 32 * 32); }

// tmpBytes > 0: a sharedTmpBuffer of that size; 0: the API takes free UB (PopStackBuffer form)
template <typename T>
__global__ __aicore__ void pad_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tl, int32_t l, int32_t r, int32_t val, int32_t tmpBytes,
                                      int32_t inplace, int32_t reserve) {
    PadTiling t;
    load_tiling(t, tl);
    const uint32_t h = t.srcHeight, w = t.srcWidth, e = 32 / sizeof(T);
    const uint32_t wa = (w + e - 1) / e * e;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt, bfill;
    pipe.InitBuffer(bx, h * wa * sizeof(T));
    pipe.InitBuffer(by, h * wa * sizeof(T));
    LocalTensor<T> X = bx.Get<T>(), Y = inplace ? X : by.Get<T>();
    GlobalTensor<T> gx, gy;
    gx.SetGlobalBuffer((__gm__ T*)x);
    gy.SetGlobalBuffer((__gm__ T*)y);
    DataCopy(X, gx, up32(uint64_t(h) * w * sizeof(T)) / sizeof(T));
    PadParams p{uint16_t(l), uint16_t(r), val};
    if (reserve) pipe.InitBuffer(bfill, uint32_t(reserve));  // leave only this much UB free
    if (tmpBytes > 0) {
        pipe.InitBuffer(bt, uint32_t(tmpBytes));
        LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
        Pad(Y, X, p, tmp, t);
    } else {
        Pad(Y, X, p, t);
    }
    const uint32_t wo = (w * sizeof(T)) % 32 ? w + l + r : w;
    DataCopy(gy, Y, up32(uint64_t(h) * wo * sizeof(T)) / sizeof(T));
}

template <typename T>
__global__ __aicore__ void unpad_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tl, int32_t l, int32_t r, int32_t tmpBytes) {
    UnPadTiling t;
    load_tiling(t, tl);
    const uint32_t h = t.srcHeight, w = t.srcWidth;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt;
    pipe.InitBuffer(bx, up32(uint64_t(h) * w * sizeof(T)));
    pipe.InitBuffer(by, up32(uint64_t(h) * w * sizeof(T)));
    LocalTensor<T> X = bx.Get<T>(), Y = by.Get<T>();
    GlobalTensor<T> gx, gy;
    gx.SetGlobalBuffer((__gm__ T*)x);
    gy.SetGlobalBuffer((__gm__ T*)y);
    DataCopy(X, gx, up32(uint64_t(h) * w * sizeof(T)) / sizeof(T));
    UnPadParams p{uint16_t(l), uint16_t(r)};
    if (tmpBytes > 0) {
        pipe.InitBuffer(bt, uint32_t(tmpBytes));
        LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
        UnPad(Y, X, p, tmp, t);
    } else {
        UnPad(Y, X, p, t);
    }
    DataCopy(gy, Y, up32(uint64_t(h) * (w - r) * sizeof(T)) / sizeof(T));
}

template <class S>
static std::vector<uint32_t> words(const S& s) {
    std::vector<uint32_t> v(sizeof(S) / 4);
    std::memcpy(v.data(), &s, sizeof(S));
    return v;
}

// params h, w, ow (0: = w), l, r, val, stack (-1: GetPadMaxMinTmpSize min, -2: max, else bytes),
// tmp (-1: the stack size as sharedTmpBuffer, 0: none, else bytes), inplace, reserve, hostonly
template <typename T>
void run_pad() {
    const uint32_t h = kt::param("h"), w = kt::param("w"), ow = kt::param("ow", 0) ? kt::param("ow") : w;
    const int32_t l = kt::param("l"), r = kt::param("r"), val = kt::param("val");
    TensorShape src({int64_t(h), int64_t(w)}), ori({int64_t(h), int64_t(ow)});
    uint32_t mx = 7, mn = 7;
    GetPadMaxMinTmpSize(src, sizeof(T), mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx});
    const int64_t st = kt::param("stack", -1);
    const uint32_t stack = st == -1 ? mn : (st == -2 ? mx : uint32_t(st));
    optiling::PadTiling host;
    PadTilingFunc(src, ori, stack, sizeof(T), host);
    std::vector<uint8_t> bytes(sizeof(::PadTiling));
    host.SaveToBuffer(bytes.data(), bytes.size());
    ::PadTiling direct;
    PadTilingFunc(src, ori, stack, sizeof(T), direct);
    kt::save("tiling", words(*reinterpret_cast<::PadTiling*>(bytes.data())));
    kt::save("tiling_direct", words(direct));
    if (kt::param("hostonly")) return;
    const int64_t tm = kt::param("tmp", -1);
    const int32_t tmpBytes = tm == -1 ? int32_t(stack) : int32_t(tm);
    auto x = kt::load<T>("x");
    std::vector<uint32_t> tw = words(direct);
    kt::Dev<T> dx(x), dy(up32(uint64_t(h) * (w + 32) * sizeof(T)) / sizeof(T));
    kt::Dev<uint32_t> dt(tw);
    pad_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dt.gm(), l, r, val, tmpBytes, int32_t(kt::param("inplace")),
                                           int32_t(kt::param("reserve")));
    kt::save("y", dy.host());
}

template <typename T>
void run_unpad() {
    const uint32_t h = kt::param("h"), w = kt::param("w");
    const int32_t l = kt::param("l"), r = kt::param("r");
    TensorShape src({int64_t(h), int64_t(w)});
    uint32_t mx = 7, mn = 7;
    platform_ascendc::PlatformAscendC plat;
    GetUnPadMaxMinTmpSize(plat, src, sizeof(T), mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx});
    const uint32_t stack = uint32_t(kt::param("stack", 0));
    optiling::UnPadTiling host;
    UnPadTilingFunc(src, stack, sizeof(T), host);
    std::vector<uint8_t> bytes(sizeof(::UnPadTiling));
    host.SaveToBuffer(bytes.data(), bytes.size());
    AscendC::tiling::UnPadTiling direct;
    UnPadTilingFunc(src, stack, sizeof(T), direct);
    kt::save("tiling", words(*reinterpret_cast<::UnPadTiling*>(bytes.data())));
    kt::save("tiling_direct", words(direct));
    if (kt::param("hostonly")) return;
    auto x = kt::load<T>("x");
    std::vector<uint32_t> tw = words(direct);
    kt::Dev<T> dx(x), dy(up32(uint64_t(h) * w * sizeof(T)) / sizeof(T));
    kt::Dev<uint32_t> dt(tw);
    unpad_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dt.gm(), l, r, int32_t(kt::param("tmp")));
    kt::save("y", dy.host());
}

KT_CASE(pad_f16) { run_pad<half>(); }
KT_CASE(pad_f32) { run_pad<float>(); }
KT_CASE(pad_i16) { run_pad<int16_t>(); }
KT_CASE(pad_u32) { run_pad<uint32_t>(); }
KT_CASE(unpad_f16) { run_unpad<half>(); }
KT_CASE(unpad_f32) { run_unpad<float>(); }
KT_CASE(unpad_i32) { run_unpad<int32_t>(); }

KT_MAIN()
