// ListTensorDesc / TensorDesc (kgen_sim/list_tensor.h) on blocks written word by word as the AscendC
// documentation draws them (kgen team test program; cases are driven by tests/bench_bridge/sim/test_list_tensor.py).
#include "kgen_test_io.h"
#include "kernel_operator_list_tensor_intf.h"

using namespace AscendC;

// Every tensor of the list summed into out[i]; out[n + i] = dim, out[2n + i] = index, shapes after.
__global__ __aicore__ void describe_kernel(GM_ADDR list, GM_ADDR out, uint32_t length, uint32_t shapeSize) {
    ListTensorDesc l(reinterpret_cast<__gm__ void*>(list), length, shapeSize);
    const uint32_t n = l.GetSize();
    GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 64);
    o.SetValue(0, static_cast<float>(n));
    uint32_t w = 1 + 3 * n;
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t shape[8] = {0};
        TensorDesc<float> d;
        d.SetShapeAddr(shape);
        l.GetDesc(d, i);
        GlobalTensor<float> g = d.GetDataObj();
        float s = 0;
        for (uint64_t k = 0; k < g.GetSize(); ++k) s += g.GetValue(k);
        o.SetValue(1 + i, s);
        o.SetValue(1 + n + i, static_cast<float>(d.GetDim()));
        o.SetValue(1 + 2 * n + i, static_cast<float>(d.GetIndex()));
        for (uint64_t k = 0; k < d.GetDim(); ++k) o.SetValue(w++, static_cast<float>(d.GetShape(k)));
        if (l.GetDataPtr<float>(i) != d.GetDataPtr()) o.SetValue(0, -1.0f);
    }
}

__global__ __aicore__ void bad_index_kernel(GM_ADDR list) {
    ListTensorDesc l(reinterpret_cast<__gm__ void*>(list));
    (void)l.GetDataPtr<float>(l.GetSize());
}

// The documentation's example block: two tensors of shapes [1, 2, 3] and [3, 4, 5].
static std::vector<uint64_t> documented_block(const std::vector<uint8_t*>& ptrs) {
    return {72, 3, 1, 2, 3, (1ull << 32) | 3, 3, 4, 5, reinterpret_cast<uint64_t>(ptrs[0]), reinterpret_cast<uint64_t>(ptrs[1])};
}

// x.bin holds 6 + 60 floats (the two tensors back to back); out.bin gets 64 floats
KT_CASE(documented) {
    auto x = kt::load<float>("x");
    kt::Dev<float> a(std::vector<float>(x.begin(), x.begin() + 6)), b(std::vector<float>(x.begin() + 6, x.end()));
    auto words = documented_block({a.gm(), b.gm()});
    if (words != kgen::list_tensor_layout({{1, 2, 3}, {3, 4, 5}}, {reinterpret_cast<uint64_t>(a.gm()), reinterpret_cast<uint64_t>(b.gm())}))
        std::exit(5);
    kt::Dev<uint64_t> list(words);
    kt::Dev<float> out(std::vector<float>(64, 0.0f));
    describe_kernel<<<1, nullptr, nullptr>>>(list.gm(), out.gm(), (uint32_t)kt::param("length", 0xffffffff),
                                             (uint32_t)kt::param("shape_size", 0xffffffff));
    kt::save("out", out.host());
}

// three tensors of ranks 1, 2 and 0 (0-d: described as [1]) built by list_tensor_layout
KT_CASE(mixed_ranks) {
    auto x = kt::load<float>("x");  // 5 + 12 + 1 floats
    kt::Dev<float> a(std::vector<float>(x.begin(), x.begin() + 5)), b(std::vector<float>(x.begin() + 5, x.begin() + 17)),
        c(std::vector<float>(x.begin() + 17, x.end()));
    kt::Dev<uint64_t> list(kgen::list_tensor_layout({{5}, {3, 4}, {}}, {reinterpret_cast<uint64_t>(a.gm()), reinterpret_cast<uint64_t>(b.gm()),
                                                                          reinterpret_cast<uint64_t>(c.gm())}));
    kt::Dev<float> out(std::vector<float>(64, 0.0f));
    describe_kernel<<<1, nullptr, nullptr>>>(list.gm(), out.gm(), 0xffffffffu, 0xffffffffu);
    kt::save("out", out.host());
}

KT_CASE(bad_index) {
    kt::Dev<float> a(std::vector<float>(8, 1.0f)), b(std::vector<float>(8, 1.0f));
    kt::Dev<uint64_t> list(documented_block({a.gm(), b.gm()}));
    bad_index_kernel<<<1, nullptr, nullptr>>>(list.gm());
}

KT_MAIN()
