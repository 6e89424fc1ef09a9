// DataCopyPad (GM -> UB with padding, UB -> GM of exact byte lengths), SetPadValue, and the
// strided-block DataCopy(..., DataCopyParams) forms. Parameters come from p.bin (int64) and
// v.bin (float64 values); the whole UB tensor is dumped so the tests see layout and padding.
#include "kgen_test_io.h"

using namespace AscendC;

// p: 0 blockCount, 1 blockLen (bytes), 2 srcStride, 3 dstStride, 4 isPad, 5 leftPadding,
//    6 rightPadding, 7 old-form raw paddingValue bits, 8 GM element offset, 9 use old form,
//    10 call SetPadValue first, 11 UB element offset, 12 prime the register with an isPad copy
// v: 0 paddingValue, 1 UB sentinel, 2 SetPadValue value, 3 priming pad value
template <typename T>
__global__ __aicore__ void pad_in_kernel(GM_ADDR gm, GM_ADDR out, GM_ADDR prm, GM_ADDR val, uint32_t gmElems, uint32_t ubElems) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, scratch;
    pipe.InitBuffer(buf, ubElems * sizeof(T));
    pipe.InitBuffer(scratch, 64);
    LocalTensor<T> ub = buf.Get<T>();
    GlobalTensor<T> src, dst;
    GlobalTensor<int64_t> p;
    GlobalTensor<double> v;
    src.SetGlobalBuffer((__gm__ T*)gm, gmElems);
    dst.SetGlobalBuffer((__gm__ T*)out, ubElems);
    p.SetGlobalBuffer((__gm__ int64_t*)prm, 13);
    v.SetGlobalBuffer((__gm__ double*)val, 4);
    for (uint32_t i = 0; i < ubElems; ++i) ub.SetValue(i, (T)v.GetValue(1));
    if (p.GetValue(12)) {
        DataCopyExtParams one{1, (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPadExtParams<T> primePad{true, 0, 1, (T)v.GetValue(3)};
        DataCopyPad(scratch.Get<T>(), src, one, primePad);
    }
    if (p.GetValue(10)) SetPadValue((T)v.GetValue(2));
    LocalTensor<T> d = ub[(uint32_t)p.GetValue(11)];
    GlobalTensor<T> s = src[(uint64_t)p.GetValue(8)];
    if (p.GetValue(9) == 0) {
        DataCopyExtParams cp{(uint16_t)p.GetValue(0), (uint32_t)p.GetValue(1), (uint32_t)p.GetValue(2), (uint32_t)p.GetValue(3), 0};
        DataCopyPadExtParams<T> pp{p.GetValue(4) != 0, (uint8_t)p.GetValue(5), (uint8_t)p.GetValue(6), (T)v.GetValue(0)};
        DataCopyPad(d, s, cp, pp);  // @pad-in-ext
    } else {
        DataCopyParams cp((uint16_t)p.GetValue(0), (uint16_t)p.GetValue(1), (uint16_t)p.GetValue(2), (uint16_t)p.GetValue(3));
        DataCopyPadParams pp(p.GetValue(4) != 0, (uint8_t)p.GetValue(5), (uint8_t)p.GetValue(6), (uint64_t)p.GetValue(7));
        DataCopyPad(d, s, cp, pp);  // @pad-in-old
    }
    for (uint32_t i = 0; i < ubElems; ++i) dst.SetValue(i, ub.GetValue(i));
}

template <typename T>
void run_pad_in() {
    auto g = kt::load<T>("g");
    auto p = kt::load<int64_t>("p");
    auto v = kt::load<double>("v");
    uint32_t ubElems = (uint32_t)kt::param("ub");
    kt::Dev<T> dg(g), dz(ubElems);
    kt::Dev<int64_t> dp(p);
    kt::Dev<double> dv(v);
    pad_in_kernel<T><<<1, nullptr, nullptr>>>(dg.gm(), dz.gm(), dp.gm(), dv.gm(), (uint32_t)g.size(), ubElems);
    kt::save("z", dz.host());
}
KT_CASE(pad_in_f32) { run_pad_in<float>(); }
KT_CASE(pad_in_f16) { run_pad_in<half>(); }
KT_CASE(pad_in_bf16) { run_pad_in<bfloat16_t>(); }
KT_CASE(pad_in_i8) { run_pad_in<int8_t>(); }
KT_CASE(pad_in_i32) { run_pad_in<int32_t>(); }
KT_CASE(pad_in_i64) { run_pad_in<int64_t>(); }

// p: 0 blockCount, 1 blockLen (bytes), 2 srcStride (blocks), 3 dstStride (bytes), 8 GM element offset,
//    9 use old form, 11 UB element offset
template <typename T>
__global__ __aicore__ void pad_out_kernel(GM_ADDR u, GM_ADDR out, GM_ADDR prm, uint32_t ubElems, uint32_t outElems) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, ubElems * sizeof(T));
    LocalTensor<T> ub = buf.Get<T>();
    GlobalTensor<T> ug, dst;
    GlobalTensor<int64_t> p;
    ug.SetGlobalBuffer((__gm__ T*)u, ubElems);
    dst.SetGlobalBuffer((__gm__ T*)out, outElems);
    p.SetGlobalBuffer((__gm__ int64_t*)prm, 13);
    for (uint32_t i = 0; i < ubElems; ++i) ub.SetValue(i, ug.GetValue(i));
    LocalTensor<T> s = ub[(uint32_t)p.GetValue(11)];
    GlobalTensor<T> d = dst[(uint64_t)p.GetValue(8)];
    if (p.GetValue(9) == 0) {
        DataCopyExtParams cp{(uint16_t)p.GetValue(0), (uint32_t)p.GetValue(1), (uint32_t)p.GetValue(2), (uint32_t)p.GetValue(3), 0};
        DataCopyPad(d, s, cp);  // @pad-out-ext
    } else {
        DataCopyParams cp((uint16_t)p.GetValue(0), (uint16_t)p.GetValue(1), (uint16_t)p.GetValue(2), (uint16_t)p.GetValue(3));
        DataCopyPad(d, s, cp);  // @pad-out-old
    }
}

template <typename T>
void run_pad_out() {
    auto u = kt::load<T>("u");
    auto z0 = kt::load<T>("z0");
    auto p = kt::load<int64_t>("p");
    kt::Dev<T> du(u), dz(z0);
    kt::Dev<int64_t> dp(p);
    pad_out_kernel<T><<<1, nullptr, nullptr>>>(du.gm(), dz.gm(), dp.gm(), (uint32_t)u.size(), (uint32_t)z0.size());
    kt::save("z", dz.host());
}
KT_CASE(pad_out_f32) { run_pad_out<float>(); }
KT_CASE(pad_out_f16) { run_pad_out<half>(); }
KT_CASE(pad_out_i8) { run_pad_out<int8_t>(); }
KT_CASE(pad_out_i64) { run_pad_out<int64_t>(); }

// Round trip of a [rows, cols] half matrix with an unaligned row length: GM -> UB (rows padded
// to 32 bytes with zeros) -> Add in UB over the padded rows -> UB -> GM without the padding.
__global__ __aicore__ void roundtrip_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t rows, uint32_t cols) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    uint32_t padded = (cols + 15) / 16 * 16;
    pipe.InitBuffer(inQ, 1, 2 * rows * padded * sizeof(half));
    pipe.InitBuffer(outQ, 1, rows * padded * sizeof(half));
    GlobalTensor<half> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ half*)x, rows * cols);
    yg.SetGlobalBuffer((__gm__ half*)y, rows * cols);
    zg.SetGlobalBuffer((__gm__ half*)z, rows * cols);
    DataCopyExtParams in{(uint16_t)rows, (uint32_t)(cols * sizeof(half)), 0, 0, 0};
    DataCopyPadExtParams<half> pad{true, 0, (uint8_t)(padded - cols), half(0)};
    LocalTensor<half> a = inQ.AllocTensor<half>();
    DataCopyPad(a, xg, in, pad);
    DataCopyPad(a[rows * padded], yg, in, pad);
    inQ.EnQue(a);
    LocalTensor<half> b = inQ.DeQue<half>();
    LocalTensor<half> c = outQ.AllocTensor<half>();
    Add(c, b, b[rows * padded], (int32_t)(rows * padded));
    outQ.EnQue(c);
    inQ.FreeTensor(b);
    LocalTensor<half> o = outQ.DeQue<half>();
    DataCopyPad(zg, o, DataCopyExtParams{(uint16_t)rows, (uint32_t)(cols * sizeof(half)), 0, 0, 0});
    outQ.FreeTensor(o);
}
KT_CASE(roundtrip_f16) {
    auto x = kt::load<half>("x");
    auto y = kt::load<half>("y");
    uint32_t rows = (uint32_t)kt::param("rows"), cols = (uint32_t)kt::param("cols");
    kt::Dev<half> dx(x), dy(y), dz(x.size());
    roundtrip_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dz.gm(), rows, cols);
    kt::save("z", dz.host());
}

// Strided-block DataCopy (units of 32 bytes on both sides): GM -> UB with (count, len, ss, ds),
// then UB -> GM with (count, len, ss2, ds2). p: count, len, ss, ds, ss2, ds2.
__global__ __aicore__ void blocks_kernel(GM_ADDR x, GM_ADDR ubOut, GM_ADDR z, GM_ADDR prm, uint32_t n, uint32_t ubElems, uint32_t zElems) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, ubElems * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    GlobalTensor<float> xg, ug, zg;
    GlobalTensor<int64_t> p;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    ug.SetGlobalBuffer((__gm__ float*)ubOut, ubElems);
    zg.SetGlobalBuffer((__gm__ float*)z, zElems);
    p.SetGlobalBuffer((__gm__ int64_t*)prm, 6);
    for (uint32_t i = 0; i < ubElems; ++i) ub.SetValue(i, -1.0f);
    uint16_t count = (uint16_t)p.GetValue(0), len = (uint16_t)p.GetValue(1);
    DataCopy(ub, xg, DataCopyParams(count, len, (uint16_t)p.GetValue(2), (uint16_t)p.GetValue(3)));  // @blocks-in
    DataCopy(zg, ub, DataCopyParams(count, len, (uint16_t)p.GetValue(4), (uint16_t)p.GetValue(5)));  // @blocks-out
    for (uint32_t i = 0; i < ubElems; ++i) ug.SetValue(i, ub.GetValue(i));
}
KT_CASE(blocks_f32) {
    auto x = kt::load<float>("x");
    auto z0 = kt::load<float>("z0");
    auto p = kt::load<int64_t>("p");
    uint32_t ubElems = (uint32_t)kt::param("ub");
    kt::Dev<float> dx(x), du(ubElems), dz(z0);
    kt::Dev<int64_t> dp(p);
    blocks_kernel<<<1, nullptr, nullptr>>>(dx.gm(), du.gm(), dz.gm(), dp.gm(), (uint32_t)x.size(), ubElems, (uint32_t)z0.size());
    kt::save("ub", du.host());
    kt::save("z", dz.host());
}

KT_MAIN()
