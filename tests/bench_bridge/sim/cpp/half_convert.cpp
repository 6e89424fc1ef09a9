// half <-> bfloat16_t conversions (kgen team test program): reads float values from x.bin, converts
// each to half, then half -> bfloat16_t and bfloat16_t -> half, writes the 16-bit patterns.
#include "kgen_test_io.h"

KT_CASE(convert) {
    auto x = kt::load<float>("x");
    std::vector<uint16_t> h2b, b2h;
    for (float v : x) {
        half h(v);
        bfloat16_t b = bfloat16_t(h);
        h2b.push_back(b.bits);
        bfloat16_t b2(v);
        half h2 = half(b2);
        b2h.push_back(h2.bits);
    }
    kt::save("h2b", h2b);
    kt::save("b2h", b2h);
}

KT_MAIN()
