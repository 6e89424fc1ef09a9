// Cube-unit instructions of the emulator, one kernel per instruction, driven by parameters from
// tests/bench_bridge/sim/test_cube_ops.py. Local memories are filled and read back with GetValue/SetValue
// (emulator-side scalar access) so each instruction is checked on its own.
#include "kgen_test_io.h"

using namespace AscendC;

template <typename T>
static void fill(const LocalTensor<T>& t, const GlobalTensor<T>& g, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, g.GetValue(i));
}
template <typename T>
static void dump(const GlobalTensor<T>& g, const LocalTensor<T>& t, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) g.SetValue(i, t.GetValue(i));
}
template <typename T>
static GlobalTensor<T> gt(GM_ADDR p, uint64_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

// ---- DataCopy GM -> A1 with Nd2NzParams ------------------------------------------------------------------
// p: ndNum nValue dValue srcNdMatrixStride srcDValue dstNzC0Stride dstNzNStride dstNzMatrixStride
template <typename T>
__global__ __aicore__ void nd2nz_kernel(GM_ADDR x, GM_ADDR out, GM_ADDR prm, uint32_t nx, uint32_t nout) {
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 1, nout * sizeof(T));
    auto p = gt<int64_t>(prm, 8);
    auto og = gt<T>(out, nout);
    LocalTensor<T> l1 = q.AllocTensor<T>();
    fill(l1, og, nout);  // sentinel contents
    Nd2NzParams nd(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7));
    DataCopy(l1, gt<T>(x, nx), nd);
    dump(og, l1, nout);
    q.FreeTensor(l1);
}
template <typename T>
static void run_nd2nz() {
    auto x = kt::load<T>("x");
    auto out = kt::load<T>("out");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> dx(x), dout(out);
    kt::Dev<int64_t> dp(p);
    nd2nz_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dout.gm(), dp.gm(), (uint32_t)x.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}
KT_CASE(nd2nz_f16) { run_nd2nz<half>(); }
KT_CASE(nd2nz_i8) { run_nd2nz<int8_t>(); }
KT_CASE(nd2nz_f32) { run_nd2nz<float>(); }

// ---- LoadData (2D) and LoadDataWithTranspose: A1/B1 -> A2/B2 --------------------------------------------
// p: startIndex repeatTimes srcStride dstGap ifTranspose toB withTranspose dstFracGap
template <typename T>
__global__ __aicore__ void load_kernel(GM_ADDR src, GM_ADDR out, GM_ADDR prm, uint32_t ns, uint32_t nout) {
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    pipe.InitBuffer(qa1, 1, ns * sizeof(T));
    pipe.InitBuffer(qa2, 1, nout * sizeof(T));
    pipe.InitBuffer(qb2, 1, nout * sizeof(T));
    auto p = gt<int64_t>(prm, 8);
    auto og = gt<T>(out, nout);
    LocalTensor<T> l1 = qa1.AllocTensor<T>();
    fill(l1, gt<T>(src, ns), ns);
    LocalTensor<T> l0 = p(5) ? qb2.AllocTensor<T>() : qa2.AllocTensor<T>();
    fill(l0, og, nout);
    if (p(6)) {
        LoadData2dTransposeParams t(p(0), p(1), p(2), p(3), p(7));
        LoadDataWithTranspose(l0, l1, t);
    } else {
        LoadData2DParams l;
        l.startIndex = p(0);
        l.repeatTimes = p(1);
        l.srcStride = p(2);
        l.dstGap = p(3);
        l.ifTranspose = p(4) != 0;
        LoadData(l0, l1, l);
    }
    dump(og, l0, nout);
}
template <typename T>
static void run_load() {
    auto src = kt::load<T>("src");
    auto out = kt::load<T>("out");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> ds(src), dout(out);
    kt::Dev<int64_t> dp(p);
    load_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dout.gm(), dp.gm(), (uint32_t)src.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}
KT_CASE(load_f16) { run_load<half>(); }
KT_CASE(load_i8) { run_load<int8_t>(); }
KT_CASE(load_f32) { run_load<float>(); }

// ---- Mmad: L0A/L0B/L0C contents given raw --------------------------------------------------------------------
// p: m n k cmatrixInitVal cmatrixSource isBias biasMode(0 none, 1 tensor in C2, 2 bias table at 0) kDirectionAlign
template <typename C, typename A>
__global__ __aicore__ void mmad_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR bias, GM_ADDR prm, uint32_t na, uint32_t nb,
                                       uint32_t nc, uint32_t nbias) {
    TPipe pipe;
    TBuf<TPosition::A2> ba;
    TBuf<TPosition::B2> bb;
    TBuf<TPosition::CO1> bc;
    TBuf<TPosition::C2> bt;
    pipe.InitBuffer(ba, na * sizeof(A));
    pipe.InitBuffer(bb, nb * sizeof(A));
    pipe.InitBuffer(bc, nc * sizeof(C));
    pipe.InitBuffer(bt, nbias * sizeof(C));
    auto p = gt<int64_t>(prm, 8);
    auto cg = gt<C>(c, nc);
    LocalTensor<A> la = ba.Get<A>(), lb = bb.Get<A>();
    LocalTensor<C> lc = bc.Get<C>(), lbias = bt.Get<C>();
    fill(la, gt<A>(a, na), na);
    fill(lb, gt<A>(b, nb), nb);
    fill(lc, cg, nc);
    fill(lbias, gt<C>(bias, nbias), nbias);
    MmadParams mp;
    mp.m = p(0);
    mp.n = p(1);
    mp.k = p(2);
    mp.cmatrixInitVal = p(3) != 0;
    mp.cmatrixSource = p(4) != 0;
    mp.isBias = p(5) != 0;
    mp.kDirectionAlign = p(7) != 0;
    if (p(6) == 1) Mmad(lc, la, lb, lbias, mp);
    else Mmad(lc, la, lb, mp);
    dump(cg, lc, nc);
}
template <typename C, typename A>
static void run_mmad() {
    auto a = kt::load<A>("a");
    auto b = kt::load<A>("b");
    auto c = kt::load<C>("c");
    auto bias = kt::load<C>("bias");
    auto p = kt::load<int64_t>("p");
    kt::Dev<A> da(a), db(b);
    kt::Dev<C> dc(c), dbias(bias);
    kt::Dev<int64_t> dp(p);
    mmad_kernel<C, A><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dbias.gm(), dp.gm(), (uint32_t)a.size(), (uint32_t)b.size(),
                                               (uint32_t)c.size(), (uint32_t)bias.size());
    kt::save("c", dc.host());
}
KT_CASE(mmad_f16) { run_mmad<float, half>(); }
KT_CASE(mmad_bf16) { run_mmad<float, bfloat16_t>(); }
KT_CASE(mmad_i8) { run_mmad<int32_t, int8_t>(); }
KT_CASE(mmad_f32) { run_mmad<float, float>(); }

// ---- LoadDataWithSparse + MmadWithSparse: A (m x k, ZZ) given raw in L0A, the densified B (ZN, k / 2 rows) and its
// index fractals in L1, loaded to L0B with LoadDataWithSparse (startIndex 0, one repeat per B fractal)
// p: m n k
__global__ __aicore__ void mmad_sparse_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c, GM_ADDR prm, uint32_t na, uint32_t nb,
                                              uint32_t nidx, uint32_t nc) {
    TPipe pipe;
    TBuf<TPosition::A2> ba;
    TBuf<TPosition::B1> b1, i1;
    TBuf<TPosition::B2> bb;
    TBuf<TPosition::CO1> bc;
    pipe.InitBuffer(ba, na);
    pipe.InitBuffer(b1, nb);
    pipe.InitBuffer(i1, nidx);
    pipe.InitBuffer(bb, nb);
    pipe.InitBuffer(bc, nc * sizeof(int32_t));
    auto p = gt<int64_t>(prm, 3);
    LocalTensor<int8_t> la = ba.Get<int8_t>(), lb1 = b1.Get<int8_t>(), lb = bb.Get<int8_t>();
    LocalTensor<uint8_t> li = i1.Get<uint8_t>();
    LocalTensor<int32_t> lc = bc.Get<int32_t>();
    fill(la, gt<int8_t>(a, na), na);
    fill(lb1, gt<int8_t>(b, nb), nb);
    fill(li, gt<uint8_t>(idx, nidx), nidx);
    LoadData2DParams lp;
    lp.repeatTimes = uint8_t(nb / 512);
    LoadDataWithSparse(lb, lb1, li, lp);
    MmadWithSparse(lc, la, lb, {uint16_t(p(0)), uint16_t(p(1)), uint16_t(p(2)), false, 0, false, false, false});
    dump(gt<int32_t>(c, nc), lc, nc);
}
KT_CASE(mmad_sparse) {
    auto a = kt::load<int8_t>("a");
    auto b = kt::load<int8_t>("b");
    auto idx = kt::load<uint8_t>("idx");
    auto p = kt::load<int64_t>("p");
    const uint32_t nc = uint32_t((p[0] + 15) / 16 * 16 * ((p[1] + 15) / 16 * 16));
    kt::Dev<int8_t> da(a), db(b);
    kt::Dev<uint8_t> di(idx);
    kt::Dev<int32_t> dc(std::vector<int32_t>(nc, 0));
    kt::Dev<int64_t> dp(p);
    mmad_sparse_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), di.gm(), dc.gm(), dp.gm(), (uint32_t)a.size(), (uint32_t)b.size(),
                                                (uint32_t)idx.size(), nc);
    kt::save("c", dc.host());
}

// ---- Fixpipe: L0C contents given raw, to GM --------------------------------------------------------------------
// p: mSize nSize srcStride dstStride quantPre deqScalar reluEn ndNum srcNdStride dstNdStride nz vectorQuant channelSplit
template <typename D, typename S>
__global__ __aicore__ void fix_kernel(GM_ADDR l0c, GM_ADDR out, GM_ADDR quant, GM_ADDR prm, uint32_t nc, uint32_t nout, uint32_t nq) {
    TPipe pipe;
    TBuf<TPosition::CO1> bc;
    TBuf<TPosition::C1> bq;
    pipe.InitBuffer(bc, nc * sizeof(S));
    pipe.InitBuffer(bq, nq * sizeof(uint64_t));
    auto p = gt<int64_t>(prm, 13);
    LocalTensor<S> lc = bc.Get<S>();
    LocalTensor<uint64_t> lq = bq.Get<uint64_t>();
    fill(lc, gt<S>(l0c, nc), nc);
    fill(lq, gt<uint64_t>(quant, nq), nq);
    FixpipeParamsV220 f;
    f.mSize = p(0);
    f.nSize = p(1);
    f.srcStride = p(2);
    f.dstStride = p(3);
    f.quantPre = static_cast<QuantMode_t>(p(4));
    f.deqScalar = static_cast<uint64_t>(p(5));
    f.reluEn = p(6) != 0;
    f.ndNum = p(7);
    f.srcNdStride = p(8);
    f.dstNdStride = p(9);
    f.isChannelSplit = p(12) != 0;
    auto og = gt<D>(out, nout);
    if (p(10)) {
        if (p(11)) Fixpipe<D, S, CFG_NZ>(og, lc, lq, f);
        else Fixpipe<D, S, CFG_NZ>(og, lc, f);
    } else {
        if (p(11)) Fixpipe(og, lc, lq, f);
        else Fixpipe(og, lc, f);
    }
}
template <typename D, typename S>
static void run_fix() {
    auto c = kt::load<S>("c");
    auto out = kt::load<D>("out");
    auto q = kt::load<uint64_t>("q");
    auto p = kt::load<int64_t>("p");
    kt::Dev<S> dc(c);
    kt::Dev<D> dout(out);
    kt::Dev<uint64_t> dq(q);
    kt::Dev<int64_t> dp(p);
    fix_kernel<D, S><<<1, nullptr, nullptr>>>(dc.gm(), dout.gm(), dq.gm(), dp.gm(), (uint32_t)c.size(), (uint32_t)out.size(),
                                              (uint32_t)q.size());
    kt::save("out", dout.host());
}
KT_CASE(fix_f32_f32) { run_fix<float, float>(); }
KT_CASE(fix_f16_f32) { run_fix<half, float>(); }
KT_CASE(fix_bf16_f32) { run_fix<bfloat16_t, float>(); }
KT_CASE(fix_i8_f32) { run_fix<int8_t, float>(); }
KT_CASE(fix_f16_i32) { run_fix<half, int32_t>(); }
KT_CASE(fix_i8_i32) { run_fix<int8_t, int32_t>(); }
KT_CASE(fix_u8_i32) { run_fix<uint8_t, int32_t>(); }
KT_CASE(fix_i32_i32) { run_fix<int32_t, int32_t>(); }

// ---- LoadData with LoadData3DParamsV2 (im2col) A1 -> A2 --------------------------------------------------------
// p: l1H l1W channelSize kExtension mExtension kStartPt mStartPt strideW strideH filterW filterH dilW dilH padL padR padT padB pad
__global__ __aicore__ void im2col_kernel(GM_ADDR fm, GM_ADDR out, GM_ADDR prm, uint32_t nf, uint32_t nout) {
    TPipe pipe;
    TBuf<TPosition::A1> b1;
    TBuf<TPosition::A2> b2;
    pipe.InitBuffer(b1, nf * sizeof(half));
    pipe.InitBuffer(b2, nout * sizeof(half));
    auto p = gt<int64_t>(prm, 18);
    LocalTensor<half> l1 = b1.Get<half>(), l0 = b2.Get<half>();
    fill(l1, gt<half>(fm, nf), nf);
    const uint8_t pads[4] = {(uint8_t)p(13), (uint8_t)p(14), (uint8_t)p(15), (uint8_t)p(16)};
    LoadData3DParamsV2<half> l(pads, p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9), p(10), p(11), p(12), false, false,
                               half(float(p(17))));
    LoadData(l0, l1, l);
    dump(gt<half>(out, nout), l0, nout);
}
KT_CASE(im2col_f16) {
    auto fm = kt::load<half>("fm");
    auto out = kt::load<half>("out");
    auto p = kt::load<int64_t>("p");
    kt::Dev<half> df(fm), dout(out);
    kt::Dev<int64_t> dp(p);
    im2col_kernel<<<1, nullptr, nullptr>>>(df.gm(), dout.gm(), dp.gm(), (uint32_t)fm.size(), (uint32_t)out.size());
    kt::save("out", dout.host());
}

KT_MAIN()
