// The device compiler's scalar min/max, called unqualified in kernel code (kgen_sim/utils.h), next to
// host code that uses std::min/std::max through `using namespace std`.
#include <algorithm>

#include "kgen_test_io.h"

using namespace std;

__global__ __aicore__ void mm_kernel(GM_ADDR out, uint32_t a, uint32_t b, int32_t c, int32_t d, uint64_t e, float f) {
    AscendC::GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)out, 8);
    o.SetValue(0, float(min(a, b)));
    o.SetValue(1, float(max(a, b)));
    o.SetValue(2, float(min(c, d)));
    o.SetValue(3, float(max(c, d)));
    o.SetValue(4, float(min(e, uint64_t(10))));
    o.SetValue(5, max(f, -f));
    o.SetValue(6, float(std::min(c, d)));  // std's template still works beside them
    o.SetValue(7, 0.0f);
}
KT_CASE(mm) {
    kt::Dev<float> out(8);
    mm_kernel<<<1, nullptr, nullptr>>>(out.gm(), uint32_t(kt::param("a")), uint32_t(kt::param("b")), int32_t(kt::param("c")),
                                      int32_t(kt::param("d")), uint64_t(kt::param("e")), float(kt::param("f")));
    kt::save("out", out.host());
}

KT_MAIN()
