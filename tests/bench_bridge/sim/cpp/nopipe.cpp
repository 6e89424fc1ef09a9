// Basic-API style without TPipe: LocalMemAllocator, fixed-address LocalTensor, InitSocState,
// GetTPipePtr, aclFloat16.
#include "kgen_test_io.h"

using namespace AscendC;

constexpr uint32_t N = 256;

__global__ __vector__ void alloc_add(GM_ADDR a, GM_ADDR b, GM_ADDR z) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, N>();
    LocalTensor<float> y = ub.Alloc<float>(N);
    LocalTensor<float> s = ub.Alloc<TPosition::VECOUT, float, N>();
    GlobalTensor<float> ag, bg, zg;
    ag.SetGlobalBuffer((__gm__ float*)a, N);
    bg.SetGlobalBuffer((__gm__ float*)b, N);
    zg.SetGlobalBuffer((__gm__ float*)z, 2 * N + 3);
    DataCopy(x, ag, N);
    DataCopy(y, bg, N);
    Add(s, x, y, N);
    DataCopy(zg, s, N);
    // the same bytes seen through a fixed-address tensor: y starts at byte N*4
    LocalTensor<float> alias(TPosition::VECCALC, N * sizeof(float), N);
    DataCopy(zg[N], alias, N);
    zg.SetValue(2 * N, (float)x.GetPhyAddr());
    zg.SetValue(2 * N + 1, (float)y.GetPhyAddr());
    zg.SetValue(2 * N + 2, (float)ub.GetCurAddr());
}
KT_CASE(alloc_add) {
    auto a = kt::load<float>("a");
    auto b = kt::load<float>("b");
    kt::Dev<float> da(a), db(b), dz(2 * N + 3);
    alloc_add<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dz.gm());
    kt::save("z", dz.host());
}

__global__ __vector__ void alloc_too_much() {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float>(40000);
    LocalTensor<float> y = ub.Alloc<float>(10000);  // @alloc-overflow
}
KT_CASE(alloc_overflow) { alloc_too_much<<<1, nullptr, nullptr>>>(); }

__global__ __vector__ void soc_state(GM_ADDR z) {
    SetAtomicAdd<float>();
    SetMaskCount();
    InitSocState();  // atomic mode off again: the copy below overwrites
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 5.0f, 8);
    TEventID id = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
    SetFlag<HardEvent::V_MTE3>(id);
    WaitFlag<HardEvent::V_MTE3>(id);
    GlobalTensor<float> zg;
    zg.SetGlobalBuffer((__gm__ float*)z, 8);
    DataCopy(zg, t, 8);
}
KT_CASE(soc_state) {
    kt::Dev<float> dz(std::vector<float>(8, 1.0f));
    soc_state<<<1, nullptr, nullptr>>>(dz.gm());
    kt::save("z", dz.host());
}

KT_CASE(acl_float16) {
    auto x = kt::load<float>("x");
    std::vector<uint16_t> h(x.size());
    std::vector<float> back(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        h[i] = aclFloatToFloat16(x[i]);
        back[i] = aclFloat16ToFloat(h[i]);
    }
    kt::save("h", h);
    kt::save("back", back);
}

KT_MAIN()
