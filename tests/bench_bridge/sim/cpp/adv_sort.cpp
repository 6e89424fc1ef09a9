// The high-level sort flow Concat -> Sort<T, isFullSort> -> Extract sized with the host helpers
// GetSortTmpSize / GetConcatTmpSize / GetSortLen (kgen_sim/sort.h, adv/host_sort_tiling.h, adv/sort_adv.h).
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, false>;  // kgen_test_ub.h

template <typename T, bool full>
__global__ __aicore__ void sort_kernel(GM_ADDR x, GM_ADDR ix, GM_ADDR v, GM_ADDR i, uint32_t n, uint32_t tmpBytes,
                                       uint32_t concatBytes) {
    TPipe pipe;
    Ub<T> X(pipe, x, n), V(pipe, v, n);
    Ub<uint32_t> IX(pipe, ix, n), I(pipe, i, n);
    TBuf<TPosition::VECCALC> sb, tb, cb;
    pipe.InitBuffer(sb, GetSortLen<T>(n) * sizeof(T));
    pipe.InitBuffer(tb, tmpBytes);
    pipe.InitBuffer(cb, concatBytes ? concatBytes : 32);
    LocalTensor<T> sorted = sb.Get<T>(), tmp = tb.Get<T>(), concatTmp = cb.Get<T>();
    LocalTensor<T> concat;
    Concat(concat, X.t, concatTmp, n / 16);
    Sort<T, full>(sorted, concat, IX.t, tmp, n / 32);  // @sort
    Extract(V.t, I.t, sorted, n / 32);
    V.out();
    I.out();
}

template <typename T>
void run_sort() {
    auto x = kt::load<T>("x");
    auto ix = kt::load<uint32_t>("ix");
    const uint32_t n = x.size();
    auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    const uint32_t tmpNeed = GetSortTmpSize(*plat, n, sizeof(T));
    const uint32_t concatNeed = GetConcatTmpSize(*plat, n, sizeof(T));
    kt::save("sizes", std::vector<uint32_t>{tmpNeed, concatNeed, GetSortLen<T>(n)});
    const int64_t tmp = kt::param("tmp", -1);
    kt::Dev<T> dx(x), dv(n);
    kt::Dev<uint32_t> dix(ix), di(n);
    if (kt::param("full"))
        sort_kernel<T, true><<<1, nullptr, nullptr>>>(dx.gm(), dix.gm(), dv.gm(), di.gm(), n,
                                                      tmp < 0 ? tmpNeed : uint32_t(tmp), concatNeed);
    else
        sort_kernel<T, false><<<1, nullptr, nullptr>>>(dx.gm(), dix.gm(), dv.gm(), di.gm(), n,
                                                       tmp < 0 ? tmpNeed : uint32_t(tmp), concatNeed);
    kt::save("v", dv.host());
    kt::save("i", di.host());
}
KT_CASE(sort_f32) { run_sort<float>(); }
KT_CASE(sort_f16) { run_sort<half>(); }

// host helpers outside their range, and the Ascend 950 GetSortMaxMinTmpSize
KT_CASE(sort_host) {
    auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t mx = 7, mn = 7;
    SortConfig cfg;
    cfg.type = SortType::MERGE_SORT;
    GetSortMaxMinTmpSize(TensorShape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, cfg, mx, mn);
    kt::save("sizes", std::vector<uint32_t>{GetSortTmpSize(*plat, 0, 4), GetSortTmpSize(*plat, 64, 3),
                                            GetConcatTmpSize(*plat, 64, 2), mx, mn});
}

// a SortConfig form of Sort (Ascend 950) called on dav-2201
constexpr SortConfig kMerge = {SortType::MERGE_SORT, true};
__global__ __aicore__ void sort_config_kernel(GM_ADDR x) {
    TPipe pipe;
    Ub<float> X(pipe, x, 32), D(pipe, x, 64);
    Sort<float, false, kMerge>(D.t, X.t, 32);  // @E-config
}
KT_CASE(sort_config) {
    std::vector<float> x(64, 1.0f);
    kt::Dev<float> dx(x);
    sort_config_kernel<<<1, nullptr, nullptr>>>(dx.gm());
}

KT_MAIN()
