// DataCopy out of L0C with DataCopyCO12DstParams and the fixpipe registers, driven by
// tests/bench_bridge/sim/test_cube_copy_co1.py. L0C is filled from GM with SetValue so the move is checked on its own.
#include "kgen_test_io.h"

using namespace AscendC;

template <typename T>
static GlobalTensor<T> gt(GM_ADDR p, uint64_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// p: nSize mSize srcStride dstStride quantPre reluPre nz2ndEn channelSplit ndNum srcNdStride dstNdStride deqScalar useTable
template <typename D, typename S>
__global__ __aicore__ void co1_kernel(GM_ADDR l0c, GM_ADDR out, GM_ADDR prm, GM_ADDR table, uint32_t nsrc, uint32_t nout) {
    auto p = gt<int64_t>(prm, 16);
    LocalTensor<S> c(TPosition::CO1, 0, nsrc);
    auto src = gt<S>(l0c, nsrc);
    for (uint32_t i = 0; i < nsrc; ++i) c.SetValue(i, src.GetValue(i));
    if (p(12)) {
        LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, 256);
        auto tg = gt<uint64_t>(table, 256);
        for (uint32_t i = 0; i < 256; ++i) fb.SetValue(i, tg.GetValue(i));
        SetFixPipeConfig(fb);
    }
    SetFixpipePreQuantFlag(static_cast<uint64_t>(p(11)));
    if (p(6)) SetFixpipeNz2ndFlag(p(8), p(9), p(10));
    DataCopyCO12DstParams d;
    d.nSize = p(0);
    d.mSize = p(1);
    d.srcStride = p(2);
    d.dstStride = p(3);
    d.quantPre = static_cast<QuantMode_t>(p(4));
    d.reluPre = p(5);
    d.nz2ndEn = p(6) != 0;
    d.channelSplit = p(7) != 0;
    DataCopy(gt<D>(out, nout), c, d);
}
template <typename D, typename S>
static void run_co1() {
    auto l0c = kt::load<S>("l0c");
    auto out = kt::load<D>("out");
    auto p = kt::load<int64_t>("p");
    auto table = kt::load<uint64_t>("table");
    kt::Dev<S> dl(l0c);
    kt::Dev<D> dout(out);
    kt::Dev<int64_t> dp(p);
    kt::Dev<uint64_t> dt(table);
    co1_kernel<D, S><<<1, nullptr, nullptr>>>(dl.gm(), dout.gm(), dp.gm(), dt.gm(), (uint32_t)l0c.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}
KT_CASE(co1_f16_f32) { run_co1<half, float>(); }
KT_CASE(co1_f32_f32) { run_co1<float, float>(); }
KT_CASE(co1_i8_i32) { run_co1<int8_t, int32_t>(); }
KT_CASE(co1_f16_i32) { run_co1<half, int32_t>(); }

// ---- rules ----------------------------------------------------------------------------------------------
__global__ __aicore__ void vector_quant_without_table(GM_ADDR out) {
    LocalTensor<int32_t> c(TPosition::CO1, 0, 256);
    DataCopyCO12DstParams d;
    d.nSize = 16; d.mSize = 16; d.srcStride = 16; d.dstStride = 16; d.nz2ndEn = true;
    d.quantPre = QuantMode_t::VDEQF16;
    DataCopy(gt<half>(out, 256), c, d);  // @no-table
}
__global__ __aicore__ void nz_n_unaligned(GM_ADDR out) {
    LocalTensor<float> c(TPosition::CO1, 0, 512);
    DataCopyCO12DstParams d;
    d.nSize = 24; d.mSize = 16; d.srcStride = 16; d.dstStride = 16;
    DataCopy(gt<float>(out, 512), c, d);  // @nz-n
}
__global__ __aicore__ void source_in_l1(GM_ADDR out) {
    LocalTensor<float> c(TPosition::A1, 0, 256);
    DataCopyCO12DstParams d;
    d.nSize = 16; d.mSize = 16; d.srcStride = 16; d.dstStride = 16; d.nz2ndEn = true;
    DataCopy(gt<float>(out, 256), c, d);  // @from-l1
}
__global__ __aicore__ void nd_to_l1(GM_ADDR out) {
    LocalTensor<float> c(TPosition::CO1, 0, 256);
    LocalTensor<float> l1(TPosition::A1, 0, 256);
    DataCopyCO12DstParams d;
    d.nSize = 16; d.mSize = 16; d.srcStride = 16; d.dstStride = 16; d.nz2ndEn = true;
    DataCopy(l1, c, d);  // @nd-to-l1
}
template <typename K>
static void launch1(K kernel) {
    kt::Dev<float> out(std::vector<float>(1024, 0.f));
    kernel<<<1, nullptr, nullptr>>>(out.gm());
}
KT_CASE(vector_quant_without_table) { launch1(vector_quant_without_table); }
KT_CASE(nz_n_unaligned) { launch1(nz_n_unaligned); }
KT_CASE(source_in_l1) { launch1(source_in_l1); }
KT_CASE(nd_to_l1) { launch1(nd_to_l1); }

KT_MAIN()
