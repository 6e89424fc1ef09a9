// int4b_t (S4, two elements per byte) on the emulator, driven by tests/bench_bridge/sim/test_cube_int4.py: tensor size
// rules, nibble order, Mmad int4 x int4 -> int32 and LoadDataWithTranspose of 64 x 64 squares.
#include "kgen_test_io.h"

using namespace AscendC;

template <typename T>
static GlobalTensor<T> gt(GM_ADDR p, uint64_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// sizes and element access: out = [GetSize, GetLength, sub-tensor byte offset, reinterpret sizes, queue size,
// values read back, packed bytes]
__global__ __aicore__ void sizes_kernel(GM_ADDR out) {
    auto o = gt<int32_t>(out, 64);
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 1, 64);  // 64 bytes = 128 elements
    LocalTensor<int4b_t> t = q.AllocTensor<int4b_t>();
    o.SetValue(0, t.GetSize());
    o.SetValue(1, t.GetLength());
    o.SetValue(2, int32_t(t[10].GetPhyAddr() - t.GetPhyAddr()));
    o.SetValue(3, t.ReinterpretCast<int8_t>().GetSize());
    o.SetValue(4, t.ReinterpretCast<int8_t>().ReinterpretCast<int4b_t>().GetSize());
    LocalTensor<int4b_t> f(TPosition::A1, 512, 100);  // a fixed-address tensor of 100 elements: 50 bytes
    o.SetValue(5, f.GetLength());
    const int vals[6] = {6, 7, -8, -1, 3, -5};
    for (int i = 0; i < 6; ++i) t.SetValue(i, vals[i]);
    for (int i = 0; i < 6; ++i) o.SetValue(8 + i, t.GetValue(i).value());
    LocalTensor<uint8_t> bytes = t.ReinterpretCast<uint8_t>();
    for (int i = 0; i < 3; ++i) o.SetValue(16 + i, bytes.GetValue(i));
    q.FreeTensor(t);
}
KT_CASE(sizes) {
    kt::Dev<int32_t> out(std::vector<int32_t>(64, 0));
    sizes_kernel<<<1, nullptr, nullptr>>>(out.gm());
    kt::save("out", out.host());
}

__global__ __aicore__ void odd_offset_kernel(GM_ADDR) {
    LocalTensor<int4b_t> t(TPosition::A1, 0, 256);
    LocalTensor<int4b_t> u = t[3];  // @odd-offset
    (void)u;
}
KT_CASE(odd_offset) {
    kt::Dev<int32_t> out(std::vector<int32_t>(64, 0));
    odd_offset_kernel<<<1, nullptr, nullptr>>>(out.gm());
}

// Mmad: L0A / L0B filled with packed bytes from GM, result L0C dumped as int32. p: m n k
__global__ __aicore__ void mmad_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR prm, uint32_t na, uint32_t nb, uint32_t nc) {
    auto p = gt<int64_t>(prm, 4);
    LocalTensor<int4b_t> a2(TPosition::A2, 0, na * 2);
    LocalTensor<int4b_t> b2(TPosition::B2, 0, nb * 2);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, nc);
    LocalTensor<int8_t> a8 = a2.ReinterpretCast<int8_t>(), b8 = b2.ReinterpretCast<int8_t>();
    auto ga = gt<int8_t>(a, na), gb = gt<int8_t>(b, nb);
    for (uint32_t i = 0; i < na; ++i) a8.SetValue(i, ga.GetValue(i));
    for (uint32_t i = 0; i < nb; ++i) b8.SetValue(i, gb.GetValue(i));
    MmadParams mp;
    mp.m = p(0); mp.n = p(1); mp.k = p(2);
    Mmad(c1, a2, b2, mp);
    auto gc = gt<int32_t>(c, nc);
    for (uint32_t i = 0; i < nc; ++i) gc.SetValue(i, c1.GetValue(i));
}
KT_CASE(mmad) {
    auto a = kt::load<int8_t>("a");
    auto b = kt::load<int8_t>("b");
    auto p = kt::load<int64_t>("p");
    const size_t nc = size_t(kt::param("nc"));
    kt::Dev<int8_t> da(a), db(b);
    kt::Dev<int32_t> dc(std::vector<int32_t>(nc, 0));
    kt::Dev<int64_t> dp(p);
    mmad_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dp.gm(), (uint32_t)a.size(), (uint32_t)b.size(), (uint32_t)nc);
    kt::save("c", dc.host());
}

// LoadDataWithTranspose of int4b_t squares (L1 -> L0B). p: repeatTimes srcStride dstGap dstFracGap
__global__ __aicore__ void transpose_kernel(GM_ADDR src, GM_ADDR out, GM_ADDR prm, uint32_t ns, uint32_t nout) {
    auto p = gt<int64_t>(prm, 4);
    LocalTensor<int4b_t> l1(TPosition::B1, 0, ns * 2);
    LocalTensor<int4b_t> b2(TPosition::B2, 0, nout * 2);
    LocalTensor<int8_t> s8 = l1.ReinterpretCast<int8_t>(), d8 = b2.ReinterpretCast<int8_t>();
    auto gs = gt<int8_t>(src, ns);
    auto go = gt<int8_t>(out, nout);
    for (uint32_t i = 0; i < ns; ++i) s8.SetValue(i, gs.GetValue(i));
    for (uint32_t i = 0; i < nout; ++i) d8.SetValue(i, go.GetValue(i));
    LoadData2dTransposeParams t(0, p(0), p(1), p(2), p(3));
    LoadDataWithTranspose(b2, l1, t);
    for (uint32_t i = 0; i < nout; ++i) go.SetValue(i, d8.GetValue(i));
}
KT_CASE(transpose) {
    auto s = kt::load<int8_t>("src");
    auto out = kt::load<int8_t>("out");
    auto p = kt::load<int64_t>("p");
    kt::Dev<int8_t> ds(s), dout(out);
    kt::Dev<int64_t> dp(p);
    transpose_kernel<<<1, nullptr, nullptr>>>(ds.gm(), dout.gm(), dp.gm(), (uint32_t)s.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}

// Vector side: DataCopy GM -> UB of packed int4, Cast int4b_t -> half, then half (scaled input) -> int4b_t
// with the round mode in p(0), DataCopy UB -> GM. out: the halves, then the packed result bytes.
__global__ __aicore__ void cast_kernel(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR prm, uint32_t n) {
    auto p = gt<int64_t>(prm, 2);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b4, bh, bi;
    pipe.InitBuffer(b4, n / 2);
    pipe.InitBuffer(bh, n * sizeof(half));
    pipe.InitBuffer(bi, n * sizeof(half));
    LocalTensor<int4b_t> x4 = b4.Get<int4b_t>();
    LocalTensor<half> xh = bh.Get<half>();
    LocalTensor<half> hin = bi.Get<half>();
    DataCopy(x4, gt<int4b_t>(x, n), n);
    Cast(xh, x4, RoundMode::CAST_NONE, n);
    DataCopy(gt<half>(h, n), xh, n);
    DataCopy(hin, gt<half>(h, 2 * n)[n], n);  // second half of h holds the values to narrow
    Cast(x4, hin, static_cast<RoundMode>(p(0)), n);
    DataCopy(gt<int4b_t>(y, n), x4, n);
}
KT_CASE(cast) {
    auto x = kt::load<int8_t>("x");
    auto h = kt::load<half>("h");
    auto p = kt::load<int64_t>("p");
    const uint32_t n = x.size() * 2;
    kt::Dev<int8_t> dx(x), dy(std::vector<int8_t>(x.size(), 0));
    kt::Dev<half> dh(h);
    kt::Dev<int64_t> dp(p);
    cast_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dh.gm(), dy.gm(), dp.gm(), n);
    kt::save("h", dh.host());
    kt::save("y", dy.host());
}

KT_MAIN()
