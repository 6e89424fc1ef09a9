// Fill / InitGlobalMemory on Global Memory (kgen_sim/adv/init_global_memory.h), driven by
// tests/bench_bridge/sim/test_adv_init_gm.py.
#include "kgen_test_io.h"
#include "lib/utils/init_global_memory.h"  // the install path kernels include

using namespace AscendC;

// Params: n (elements per core), fill (how many to fill; may exceed n), old (1: InitGlobalMemory), blocks.
// Each core fills its slice with (blockIdx + 1) * 1.5 then adds x atomically, as the documented example does.
template <typename T>
__global__ __aicore__ void fill_kernel(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t fill, int old) {
    GlobalTensor<T> xg, zg;
    xg.SetGlobalBuffer((__gm__ T*)x + n * GetBlockIdx(), n);
    zg.SetGlobalBuffer((__gm__ T*)z + n * GetBlockIdx(), n);
    T v = static_cast<T>((GetBlockIdx() + 1) * 1.5f);
    if (old) InitGlobalMemory(zg, fill, v);
    else Fill(zg, fill, v);
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, (n * sizeof(T) + 31) / 32 * 32);
    LocalTensor<T> l = b.Get<T>();
    DataCopy(l, xg, n);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    SetAtomicAdd<T>();
    DataCopy(zg, l, n);
    SetAtomicNone();
}
template <typename T>
void run_fill() {
    auto x = kt::load<T>("x");
    uint32_t blocks = uint32_t(kt::param("blocks", 1));
    uint32_t n = uint32_t(x.size() / blocks);
    kt::Dev<T> dx(x);
    kt::Dev<T> dz(x.size());
    fill_kernel<T><<<blocks, nullptr, nullptr>>>(dx.gm(), dz.gm(), n, uint32_t(kt::param("fill", n)), int(kt::param("old")));
    kt::save("z", dz.host());
}
KT_CASE(fill_f32) { run_fill<float>(); }
KT_CASE(fill_f16) { run_fill<half>(); }
KT_CASE(fill_i32) { run_fill<int32_t>(); }

KT_MAIN()
