// Broadcast and GetBroadCastMaxMinTmpSize (kgen_sim/adv/broadcast.h, host_broadcast_tiling.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

// params m, n, mode (0: dim 1 scalar, 1: dim 2 axis 0, 2: dim 2 axis 1, 3: as 2 through BroadCast), tmp (-1 min, 0 framework)
template <typename T>
__global__ __aicore__ void brc_kernel(GM_ADDR x, GM_ADDR y, uint32_t m, uint32_t n, int mode, uint32_t tmpBytes) {
    TPipe pipe;
    uint32_t ns = mode == 0 ? 1 : (mode == 1 ? n : m);
    Ub<T> X(pipe, x, ns), Y(pipe, y, m * n);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    if (mode == 0) {
        uint32_t d[1] = {m * n}, s[1] = {1};
        if (tmpBytes) Broadcast<T, 1, 0>(Y.t, X.t, d, s, tmp);
        else Broadcast<T, 1, 0>(Y.t, X.t, d, s);
    } else if (mode == 1) {
        uint32_t d[2] = {m, n}, s[2] = {1, n};
        if (tmpBytes) Broadcast<T, 2, 0>(Y.t, X.t, d, s, tmp);
        else Broadcast<T, 2, 0>(Y.t, X.t, d, s);
    } else if (mode == 2) {
        uint32_t d[2] = {m, n}, s[2] = {m, 1};
        if (tmpBytes) Broadcast<T, 2, 1>(Y.t, X.t, d, s, tmp);
        else Broadcast<T, 2, 1>(Y.t, X.t, d, s);
    } else {  // 3: the same through the name BroadCast (kernels call CANN's implementation name)
        uint32_t d[2] = {m, n}, s[2] = {m, 1};
        if (tmpBytes) BroadCast<T, 2, 1>(Y.t, X.t, d, s, tmp);
        else BroadCast<T, 2, 1>(Y.t, X.t, d, s);
    }
    Y.out();
}
template <typename T>
void run_brc() {
    uint32_t m = kt::param("m"), n = kt::param("n");
    int mode = kt::param("mode");
    const int shapeMode = mode == 3 ? 2 : mode;
    TensorShape dst = shapeMode == 0 ? TensorShape({int64_t(m * n)}) : TensorShape({int64_t(m), int64_t(n)});
    TensorShape src = shapeMode == 0 ? TensorShape({1}) : (shapeMode == 1 ? TensorShape({1, int64_t(n)}) : TensorShape({int64_t(m), 1}));
    uint32_t mx = 7, mn = 7;
    platform_ascendc::PlatformAscendC plat;
    GetBroadCastMaxMinTmpSize(plat, src, dst, sizeof(T), false, mx, mn);
    kt::save("sizes", std::vector<uint32_t>{mn, mx});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? (mn ? mn : 32) : uint32_t(tmp);
    auto x = kt::load<T>("x");
    kt::Dev<T> dx(x), dy((m * n * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    brc_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), m, n, mode, tmpBytes);
    kt::save("y", dy.host());
}
KT_CASE(brc_f32) { run_brc<float>(); }
KT_CASE(brc_f16) { run_brc<half>(); }
KT_CASE(brc_i8) { run_brc<int8_t>(); }
KT_CASE(brc_i16) { run_brc<int16_t>(); }
KT_CASE(brc_i32) { run_brc<int32_t>(); }
KT_CASE(brc_bf16) { run_brc<bfloat16_t>(); }

KT_MAIN()
