// CPU-debug ("twin debug") launch interface: a program in the style of older AscendC samples,
// whose host code takes the ASCENDC_CPU_DEBUG branch (GmAlloc, ICPU_RUN_KF, SetKernelMode,
// ICPU_SET_TILING_KEY, GmFree). Built by tests/bench_bridge/sim/test_cpudebug.py with -DASCENDC_CPU_DEBUG.
#ifndef ASCENDC_CPU_DEBUG
#error "build this test program with -DASCENDC_CPU_DEBUG"
#endif
#include "tikicpulib.h"
#include "kgen_test_io.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;  // floats per tile

// z = 2 * x + y, each block a contiguous slice of n / blocks elements
extern "C" __global__ __aicore__ void twice_plus(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    uint32_t len = n / GetBlockNum();
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + len * GetBlockIdx(), len);
    yg.SetGlobalBuffer((__gm__ float*)y + len * GetBlockIdx(), len);
    zg.SetGlobalBuffer((__gm__ float*)z + len * GetBlockIdx(), len);
    pipe.InitBuffer(qx, 1, TILE * sizeof(float));
    pipe.InitBuffer(qy, 1, TILE * sizeof(float));
    pipe.InitBuffer(qz, 1, TILE * sizeof(float));
    for (uint32_t t = 0; t < len / TILE; ++t) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, xg[t * TILE], TILE);
        DataCopy(b, yg[t * TILE], TILE);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<float>();
        b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Add(c, a, a, TILE);
        Add(c, c, b, TILE);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopy(zg[t * TILE], c, TILE);
        qz.FreeTensor(c);
    }
}

KT_CASE(run_kf_function) {
    auto x = kt::load<float>("x");
    auto y = kt::load<float>("y");
    uint32_t n = x.size();
    size_t bytes = n * sizeof(float);
    uint8_t* xd = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* yd = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* zd = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* untouched = (uint8_t*)AscendC::GmAlloc(100);
    std::memcpy(xd, x.data(), bytes);
    std::memcpy(yd, y.data(), bytes);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(twice_plus, (uint32_t)kt::param("blocks", 4), xd, yd, zd, n);
    std::vector<float> z(n);
    std::memcpy(z.data(), zd, bytes);
    kt::save("z", z);
    kt::save("fresh", std::vector<uint8_t>(untouched, untouched + 100));  // GmAlloc memory starts zeroed
    AscendC::GmFree(xd);
    AscendC::GmFree(yd);
    AscendC::GmFree(zd);
    AscendC::GmFree(untouched);
}

// Each block records what it saw: block index, block count, tiling key, template argument, mode.
template <int K>
__global__ __aicore__ void report_launch(GM_ADDR out) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out + 8 * GetBlockIdx(), 8);
    g.SetValue(0, (int32_t)GetBlockIdx());
    g.SetValue(1, (int32_t)GetBlockNum());
    g.SetValue(2, (int32_t)kgen::icpu_tiling_key());
    g.SetValue(3, K);
    g.SetValue(4, (int32_t)kgen::icpu_kernel_mode());
}

KT_CASE(run_kf_template_and_lambda) {
    int32_t* out = (int32_t*)AscendC::GmAlloc(2 * 8 * 8 * sizeof(int32_t));
    ICPU_SET_TILING_KEY(kt::param("key", 5));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF((report_launch<7>), 3, (uint8_t*)out);
    auto forward = [](GM_ADDR o) { report_launch<11>(o); };
    ICPU_SET_TILING_KEY(9);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(forward, 5, (uint8_t*)(out + 64));
    kt::save("out", std::vector<int32_t>(out, out + 128));
    AscendC::GmFree(out);
}

// Atomic accumulation from every block onto GmAlloc memory, relying on it starting at zero.
extern "C" __global__ __aicore__ void atomic_accumulate(GM_ADDR x, GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x + 64 * GetBlockIdx(), 64);
    og.SetGlobalBuffer((__gm__ float*)out, 64);
    DataCopy(t, xg, 64);
    SetAtomicAdd<float>();
    DataCopy(og, t, 64);
    SetAtomicNone();
}

KT_CASE(atomic_on_gmalloc) {
    auto x = kt::load<float>("x");  // blocks * 64 floats
    uint32_t blocks = x.size() / 64;
    uint8_t* xd = (uint8_t*)AscendC::GmAlloc(x.size() * sizeof(float));
    uint8_t* od = (uint8_t*)AscendC::GmAlloc(64 * sizeof(float));
    std::memcpy(xd, x.data(), x.size() * sizeof(float));
    ICPU_RUN_KF(atomic_accumulate, blocks, xd, od);
    kt::save("out", std::vector<float>((float*)od, (float*)od + 64));
    AscendC::GmFree(xd);
    AscendC::GmFree(od);
}

KT_CASE(arg_not_gmalloc) {
    std::vector<float> hostOnly(1024, 1.0f);  // ordinary host memory, not GmAlloc
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(1024 * sizeof(float));
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(1024 * sizeof(float));
    ICPU_RUN_KF(twice_plus, 1, (uint8_t*)hostOnly.data(), y, z, 0u);  // @not-gm-site
    AscendC::GmFree(y);
    AscendC::GmFree(z);
}

KT_CASE(tiling_key_zero) {
    int32_t* out = (int32_t*)AscendC::GmAlloc(8 * sizeof(int32_t));
    ICPU_SET_TILING_KEY(0);  // @key-zero-site
    ICPU_RUN_KF((report_launch<1>), 1, (uint8_t*)out);
    kt::save("out", std::vector<int32_t>(out, out + 8));
    AscendC::GmFree(out);
}

KT_CASE(double_free) {
    void* p = AscendC::GmAlloc(64);
    AscendC::GmFree(p);
    AscendC::GmFree(p);  // @double-free-site
}

KT_CASE(kernel_overruns_gmalloc) {
    // 1000 floats allocated, the kernel reads 4 blocks x 256: the last 24 are outside (inside the 512-byte granule)
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1000 * sizeof(float));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(1024 * sizeof(float));
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(1024 * sizeof(float));
    ICPU_RUN_KF(twice_plus, 4, x, y, z, 1024u);
}

KT_CASE(kernel_overruns_gmalloc_far) {
    // 512 floats allocated, the kernel reads 4 blocks x 256: the last two blocks lie beyond the allocation
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(512 * sizeof(float));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(1024 * sizeof(float));
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(1024 * sizeof(float));
    ICPU_RUN_KF(twice_plus, 4, x, y, z, 1024u);
}

KT_MAIN()
