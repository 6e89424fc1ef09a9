// One kernel per cube-unit hardware rule; the line that breaks the rule carries a marker comment
// that tests/bench_bridge/sim/test_cube_rules.py looks for.
#include "kgen_test_io.h"

using namespace AscendC;

template <typename F>
static void launch(F kernel) {
    kt::Dev<float> out(64);
    kernel<<<1, nullptr, nullptr>>>(out.gm());
    kt::save("out", out.host());
}

__global__ __aicore__ void l1_overflow(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::A1, 2> a1;
    TQue<TPosition::B1, 1> b1;
    pipe.InitBuffer(a1, 2, 200 * 1024);
    pipe.InitBuffer(b1, 1, 120 * 1024);  // @l1-overflow
}
__global__ __aicore__ void l0a_overflow(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A2> a2;
    pipe.InitBuffer(a2, 64 * 1024 + 32);  // @l0a-overflow
}
__global__ __aicore__ void l0b_overflow(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::B2, 2> b2;
    pipe.InitBuffer(b2, 2, 33 * 1024);  // @l0b-overflow
}
__global__ __aicore__ void l0c_overflow(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::CO1, 2> co1;
    pipe.InitBuffer(co1, 2, 64 * 1024 + 4);  // @l0c-overflow
}
__global__ __aicore__ void l0a_fixed_address_overflow(GM_ADDR) {
    LocalTensor<half> a2(TPosition::A2, 32 * 1024, 16 * 1024 + 16);  // @l0a-fixed
}
// every memory has its own capacity: a full UB, a full L1 and full L0A/L0B/L0C side by side
__global__ __aicore__ void memories_are_separate(GM_ADDR out) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> ub;
    TQue<TPosition::A1, 1> a1;
    TQue<TPosition::A2, 2> a2;
    TQue<TPosition::B2, 1> b2;
    TQue<TPosition::CO1, 1> co1;
    pipe.InitBuffer(ub, 1, 192 * 1024);
    pipe.InitBuffer(a1, 1, 512 * 1024);
    pipe.InitBuffer(a2, 2, 100);  // rounded up to a 512-byte fractal each
    pipe.InitBuffer(b2, 1, 64 * 1024);
    pipe.InitBuffer(co1, 1, 128 * 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 64);
    LocalTensor<half> x = a2.AllocTensor<half>();
    LocalTensor<half> y = a2.AllocTensor<half>();
    LocalTensor<float> u = ub.AllocTensor<float>();
    LocalTensor<float> c = co1.AllocTensor<float>();
    g.SetValue(0, float(x.GetPhyAddr()));
    g.SetValue(1, float(y.GetPhyAddr()));
    g.SetValue(2, float(u.GetPhyAddr()));
    g.SetValue(3, float(c.GetPhyAddr()));
    g.SetValue(4, float(x.GetPosition() == TPosition::A2));
}
__global__ __aicore__ void mmad_wrong_position(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 512);
    pipe.InitBuffer(b2, 512);
    pipe.InitBuffer(co1, 1024);
    MmadParams p;
    p.m = 16; p.n = 16; p.k = 16;
    Mmad(co1.Get<float>(), a1.Get<half>(), b2.Get<half>(), p);  // @mmad-position
}
__global__ __aicore__ void loaddata_from_ub(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECIN> ub;
    TBuf<TPosition::A2> a2;
    pipe.InitBuffer(ub, 512);
    pipe.InitBuffer(a2, 512);
    LoadData2DParams p;
    p.repeatTimes = 1;
    LoadData(a2.Get<half>(), ub.Get<half>(), p);  // @loaddata-position
}
__global__ __aicore__ void fixpipe_from_l1(GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    pipe.InitBuffer(a1, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 64);
    FixpipeParamsV220 p;
    p.mSize = 4; p.nSize = 4; p.srcStride = 16; p.dstStride = 4;
    Fixpipe(g, a1.Get<float>(), p);  // @fixpipe-position
}
__global__ __aicore__ void mmad_operand_too_small(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a2, 32 * 32 * 2);
    pipe.InitBuffer(b2, 32 * 32 * 2);
    pipe.InitBuffer(co1, 32 * 32 * 4);
    MmadParams p;
    p.m = 20; p.n = 32; p.k = 40;  // k = 40 needs 3 fractal columns of A: 32 x 48 halves
    Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(), p);  // @mmad-size
}
__global__ __aicore__ void fixpipe_quant_mismatch(GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(co1, 1024);
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)out, 128);
    FixpipeParamsV220 p;
    p.mSize = 16; p.nSize = 16; p.srcStride = 16; p.dstStride = 16;  // quantPre left at NoQuant
    Fixpipe(g, co1.Get<float>(), p);  // @fixpipe-quant
}
__global__ __aicore__ void l0a_misaligned(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    pipe.InitBuffer(a1, 1024);
    LocalTensor<half> a2(TPosition::A2, 256, 256);
    LoadData2DParams p;
    p.repeatTimes = 1;
    LoadData(a2, a1.Get<half>(), p);  // @l0a-misaligned
}
__global__ __aicore__ void datacopy_ub_to_l1(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECOUT> ub;
    TBuf<TPosition::A1> a1;
    pipe.InitBuffer(ub, 1024);
    pipe.InitBuffer(a1, 1024);
    DataCopy(a1.Get<half>(), ub.Get<half>(), 512);  // @ub-to-l1
}
__global__ __aicore__ void transpose_int8_load2d(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::B2> b2;
    pipe.InitBuffer(b1, 1024);
    pipe.InitBuffer(b2, 1024);
    LoadData2DParams p;
    p.repeatTimes = 1;
    p.ifTranspose = true;
    LoadData(b2.Get<int8_t>(), b1.Get<int8_t>(), p);  // @transpose-dtype
}

// LocalMemAllocator over the cube memories: A2 tensors one fractal apart, then L0A runs out
__global__ __aicore__ void allocator_l0a(GM_ADDR out) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 64);
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalTensor<half> x = l0a.Alloc<half>(100);
    LocalTensor<half> y = l0a.Alloc<half>(16 * 1024);
    LocalMemAllocator<Hardware::L1> l1;
    LocalTensor<half> z = l1.Alloc<half>(256);
    g.SetValue(0, float(x.GetPhyAddr()));
    g.SetValue(1, float(y.GetPhyAddr()));
    g.SetValue(2, float(y.GetPosition() == TPosition::A2));
    g.SetValue(3, float(z.GetPosition() == TPosition::A1));
    if (g.GetValue(63) != 0) {
        LocalTensor<half> w = l0a.Alloc<half>(16 * 1024);  // @allocator-l0a
    }
}

// TBufPool regions live in the memory of their position; buffers initialised in them start at the region
__global__ __aicore__ void bufpool_regions(GM_ADDR out) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> head;
    TBuf<TPosition::A1> l1head;
    pipe.InitBuffer(head, 1000);     // UB [0, 1024)
    pipe.InitBuffer(l1head, 2048);   // L1 [0, 2048)
    TBufPool<TPosition::VECCALC> ubPool;
    TBufPool<TPosition::A1> l1Pool;
    pipe.InitBufPool(ubPool, 4096);
    pipe.InitBufPool(l1Pool, 8192);
    TBuf<TPosition::VECCALC> u;
    TQue<TPosition::A1, 1> a;
    ubPool.InitBuffer(u, 512);
    l1Pool.InitBuffer(a, 1, 4096);
    g.SetValue(0, float(u.Get<half>().GetPhyAddr()));
    g.SetValue(1, float(a.AllocTensor<half>().GetPhyAddr()));
    if (g.GetValue(63) != 0) {
        TQue<TPosition::A1, 1> b;
        l1Pool.InitBuffer(b, 1, 8192);  // @bufpool-l1
    }
}
KT_CASE(bufpool_regions) {
    std::vector<float> init(64, 0.0f);
    init[63] = float(kt::param("overflow"));
    kt::Dev<float> out(init);
    bufpool_regions<<<1, nullptr, nullptr>>>(out.gm());
    kt::save("out", out.host());
}

KT_CASE(allocator_l0a) {
    std::vector<float> init(64, 0.0f);
    init[63] = float(kt::param("overflow"));
    kt::Dev<float> out(init);
    allocator_l0a<<<1, nullptr, nullptr>>>(out.gm());
    kt::save("out", out.host());
}
KT_CASE(l1_overflow) { launch(l1_overflow); }
KT_CASE(l0a_overflow) { launch(l0a_overflow); }
KT_CASE(l0b_overflow) { launch(l0b_overflow); }
KT_CASE(l0c_overflow) { launch(l0c_overflow); }
KT_CASE(l0a_fixed_address_overflow) { launch(l0a_fixed_address_overflow); }
KT_CASE(memories_are_separate) { launch(memories_are_separate); }
KT_CASE(mmad_wrong_position) { launch(mmad_wrong_position); }
KT_CASE(loaddata_from_ub) { launch(loaddata_from_ub); }
KT_CASE(fixpipe_from_l1) { launch(fixpipe_from_l1); }
// TSCM is a position of L1: a TSCM tensor can feed LoadData (an L1 source) and is bounded by L1's 512 KB
__global__ __aicore__ void tscm_is_l1(GM_ADDR out) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 64);
    LocalTensor<half> t(TPosition::TSCM, 1024, 256);
    LocalTensor<half> a2(TPosition::A2, 0, 256);
    for (uint32_t i = 0; i < 256; ++i) t.SetValue(i, half(float(i % 7)));
    LoadData2DParams l;
    l.repeatTimes = 1;
    LoadData(a2, t, l);
    g.SetValue(0, float(t.GetPhyAddr()));
    g.SetValue(1, float(a2.GetValue(13)));
}
__global__ __aicore__ void tscm_overflow(GM_ADDR) {
    LocalTensor<half> big(TPosition::TSCM, 500 * 1024, 16 * 1024);  // @tscm-overflow
}
KT_CASE(tscm_is_l1) { launch(tscm_is_l1); }
KT_CASE(tscm_overflow) { launch(tscm_overflow); }
KT_CASE(mmad_operand_too_small) { launch(mmad_operand_too_small); }
KT_CASE(fixpipe_quant_mismatch) { launch(fixpipe_quant_mismatch); }
KT_CASE(l0a_misaligned) { launch(l0a_misaligned); }
KT_CASE(datacopy_ub_to_l1) { launch(datacopy_ub_to_l1); }
KT_CASE(transpose_int8_load2d) { launch(transpose_int8_load2d); }

KT_MAIN()
