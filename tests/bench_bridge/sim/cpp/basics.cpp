// Emulator basics: half/bf16 conversion, binary vector ops (count and mask/repeat forms),
// DataCopy rounding, queue discipline and the located diagnostics of hardware rules.
#include "kgen_test_io.h"

using namespace AscendC;

// ---- host-side half / bf16 conversion ------------------------------------------------------
KT_CASE(convert_f32) {
    auto x = kt::load<float>("x");
    std::vector<uint16_t> h(x.size()), b(x.size());
    std::vector<float> hb(x.size()), bb(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        half hv = half(x[i]);
        bfloat16_t bv = bfloat16_t(x[i]);
        h[i] = hv.bits;
        b[i] = bv.bits;
        hb[i] = float(hv);
        bb[i] = float(bv);
    }
    kt::save("h", h);
    kt::save("b", b);
    kt::save("hf", hb);
    kt::save("bf", bb);
}

// ---- binary ops, count form ----------------------------------------------------------------
template <typename T>
__global__ __aicore__ void binary_count_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n, int op) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    uint32_t padded = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    pipe.InitBuffer(buf, 3 * padded * sizeof(T));
    LocalTensor<T> all = buf.Get<T>();
    LocalTensor<T> x = all, y = all[padded], z = all[2 * padded];
    GlobalTensor<T> ag, bg, og;
    ag.SetGlobalBuffer((__gm__ T*)a, n);
    bg.SetGlobalBuffer((__gm__ T*)b, n);
    og.SetGlobalBuffer((__gm__ T*)out, n);
    for (uint32_t i = 0; i < n; ++i) { x.SetValue(i, ag.GetValue(i)); y.SetValue(i, bg.GetValue(i)); }
    switch (op) {
        case 0: Add(z, x, y, n); break;
        case 1: Sub(z, x, y, n); break;
        case 2: Mul(z, x, y, n); break;
        case 3: Div(z, x, y, n); break;
        case 4: Max(z, x, y, n); break;
        case 5: Min(z, x, y, n); break;
    }
    for (uint32_t i = 0; i < n; ++i) og.SetValue(i, z.GetValue(i));
}

template <typename T>
void run_binary_count() {
    auto a = kt::load<T>("a");
    auto b = kt::load<T>("b");
    kt::Dev<T> da(a), db(b), dz(a.size());
    binary_count_kernel<T><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dz.gm(), (uint32_t)a.size(), (int)kt::param("op"));
    kt::save("z", dz.host());
}
KT_CASE(binary_count_f32) { run_binary_count<float>(); }
KT_CASE(binary_count_f16) { run_binary_count<half>(); }
KT_CASE(binary_count_i32) { run_binary_count<int32_t>(); }

// ---- Add in the mask/repeat form with strides -----------------------------------------------
// dst, src0, src1 live in one buffer of `len` floats each; the repeat parameters come from p.bin.
__global__ __aicore__ void add_repeat_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR z, GM_ADDR params, uint32_t len) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * len * sizeof(float));
    LocalTensor<float> x = buf.Get<float>(), y = x[len], d = x[2 * len];
    GlobalTensor<float> ag, bg, zg;
    GlobalTensor<int64_t> pg;
    ag.SetGlobalBuffer((__gm__ float*)a, len);
    bg.SetGlobalBuffer((__gm__ float*)b, len);
    zg.SetGlobalBuffer((__gm__ float*)z, len);
    pg.SetGlobalBuffer((__gm__ int64_t*)params, 10);
    DataCopy(x, ag, len);
    DataCopy(y, bg, len);
    for (uint32_t i = 0; i < len; ++i) d.SetValue(i, -1.0f);
    BinaryRepeatParams rp((uint16_t)pg.GetValue(3), (uint16_t)pg.GetValue(4), (uint16_t)pg.GetValue(5),
                          (uint16_t)pg.GetValue(6), (uint16_t)pg.GetValue(7), (uint16_t)pg.GetValue(8));
    uint8_t repeat = (uint8_t)pg.GetValue(2);
    if (pg.GetValue(0) == 0) {
        Add(d, x, y, (uint64_t)pg.GetValue(1), repeat, rp);
    } else {
        uint64_t mask[2] = {(uint64_t)pg.GetValue(1), 0};
        Add(d, x, y, mask, repeat, rp);
    }
    DataCopy(zg, d, len);
}
KT_CASE(add_repeat) {
    auto a = kt::load<float>("a");
    auto b = kt::load<float>("b");
    auto p = kt::load<int64_t>("p");
    kt::Dev<float> da(a), db(b), dz(a.size());
    kt::Dev<int64_t> dp(p);
    add_repeat_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dz.gm(), dp.gm(), (uint32_t)a.size());
    kt::save("z", dz.host());
}

// ---- DataCopy of an unaligned length: the tail is not copied, with a warning ---------------------
__global__ __aicore__ void copy_kernel(GM_ADDR src, GM_ADDR dst, uint32_t n) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<float> s, d;
    s.SetGlobalBuffer((__gm__ float*)src, 256);
    d.SetGlobalBuffer((__gm__ float*)dst, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    for (uint32_t i = 0; i < 256; ++i) t.SetValue(i, 0.0f);
    DataCopy(t, s, n);  // @rounding-site
    DataCopy(d, t, 256);
    q.FreeTensor(t);
}
KT_CASE(copy_unaligned) {
    auto a = kt::load<float>("a");
    kt::Dev<float> da(a), dz(a.size());
    copy_kernel<<<1, nullptr, nullptr>>>(da.gm(), dz.gm(), (uint32_t)kt::param("n"));
    kt::save("z", dz.host());
}

KT_MAIN()
