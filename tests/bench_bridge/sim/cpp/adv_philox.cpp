// PhiloxRandom (Ascend 950 only: api-unsupported on dav-2201, kgen_sim/adv/philox.h) and
// GetDataBlockSizeInBytes (kgen_sim/sys_sizes.h), driven by tests/bench_bridge/sim/test_adv_philox.py.
#include "kgen_test_io.h"
#include "lib/math/philox.h"  // the install path kernels include

using namespace AscendC;

static_assert(GetDataBlockSizeInBytes() == 32, "a dav-2201 data block is 32 bytes");

// Add over 512 halves with mask and repeat computed from GetDataBlockSizeInBytes, as its page shows.
__global__ __aicore__ void add_kernel(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 512 * sizeof(half) * 2);
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half*)x, 512);
    yg.SetGlobalBuffer((__gm__ half*)y, 512);
    LocalTensor<half> a = b.Get<half>(), o = a[512];
    DataCopy(a, xg, 512);
    PipeBarrier<PIPE_ALL>();
    constexpr int16_t blk = GetDataBlockSizeInBytes();
    uint64_t mask = 8 * blk / sizeof(half);
    uint8_t repeat = 512 / mask;
    Add(o, a, a, mask, repeat, {1, 1, 1, 8, 8, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, o, 512);
}
KT_CASE(block_size) {
    auto x = kt::load<half>("x");
    kt::Dev<half> dx(x), dy(512);
    add_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dy.gm());
    kt::save("y", dy.host());
}

__global__ __aicore__ void philox_kernel(GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024 * sizeof(float));
    LocalTensor<float> d = b.Get<float>();
    PhiloxRandom<10>(d, {1u, 2u}, {0u, 0u, 0u, 0u}, {32u, 32u, 32u});
}
KT_CASE(philox) {
    kt::Dev<float> dy(1024);
    philox_kernel<<<1, nullptr, nullptr>>>(dy.gm());
}

KT_MAIN()
