// kgen AscendC CPU emulator -- PhiloxRandom (declared so that a kernel written for Ascend 950 gets a
// clear diagnostic).
//
// Documented rules followed (PhiloxRandom page): PhiloxRandom<Rounds = 7 | 10, T>(dst, PhiloxKey
// (uint32_t[2]), PhiloxCounter (uint32_t[4]), count | PhiloxRandomParams{stride, row, column}) is
// supported on Ascend 950 (Atlas 350, dav-3510) only; the product table marks Atlas A2/A3 (dav-2201) as
// unsupported. Calling it here is a located `api-unsupported` error; on dav-2201 random masks come from
// DropOut's inputs or host-generated data.
//
// @api PhiloxRandom PhiloxKey PhiloxCounter PhiloxRandomParams
#pragma once
#include <cstdint>

#include "kgen_sim/tensor.h"

namespace AscendC {

using PhiloxKey = uint32_t[2];
using PhiloxCounter = uint32_t[4];
struct PhiloxRandomParams {
    uint32_t stride;  // distance between the starts of two generated rows (elements)
    uint32_t row;     // number of rows
    uint32_t column;  // elements per row
};

namespace detail_philox {
[[noreturn]] inline void unsupported() {
    kgen::fail("api-unsupported",
               "PhiloxRandom is supported on Ascend 950 (dav-3510) only, not on dav-2201 (Atlas A2/A3): generate the "
               "random numbers on the host or use DropOut with a host-made mask");
}
}  // namespace detail_philox

template <uint16_t Rounds = 7, typename T>
inline void PhiloxRandom(const LocalTensor<T>&, const PhiloxKey&, const PhiloxCounter&, uint16_t) {
    detail_philox::unsupported();
}
template <uint16_t Rounds = 7, typename T>
inline void PhiloxRandom(const LocalTensor<T>&, const PhiloxKey&, const PhiloxCounter&, const PhiloxRandomParams&) {
    detail_philox::unsupported();
}

}  // namespace AscendC
