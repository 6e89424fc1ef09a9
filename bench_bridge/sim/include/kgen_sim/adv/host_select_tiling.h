// kgen host-side emulation -- temporary sizes of the byte-mask Select: GetSelectMaxMinTmpSize,
// GetSelectMinTmpSize, GetSelectMaxTmpSize and the GetSelectWithBytesMask... aliases.
//
// Documented rules followed (dav-2201 GetSelectMaxMinTmpSize page; the formula is in adv/select_rules.h):
// the source is whichever of src0Shape / src1Shape is not a scalar (a scalar shape has no dimensions or
// one element); n = its element count; the mask row length is the last dimension of maskShape.
// Shapes that are not 2-D or type sizes outside {2, 4} (source) / {1, 2, 4} (mask) are reported on
// stderr (`select-tiling`).
//
// @api GetSelectMaxMinTmpSize GetSelectMinTmpSize GetSelectMaxTmpSize GetSelectWithBytesMaskMaxMinTmpSize
// @api GetSelectWithBytesMaskMinTmpSize GetSelectWithBytesMaskMaxTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/select_rules.h"

namespace AscendC {
namespace kgen_host {
inline uint32_t select_sizes(const char* api, const ge::Shape& s0, const ge::Shape& s1, uint32_t ts, const ge::Shape& m,
                             uint32_t mts, bool reuse, bool minimum) {
    auto count = [](const ge::Shape& s) {
        uint64_t n = 1;
        for (size_t i = 0; i < s.GetDimNum(); ++i) n *= static_cast<uint64_t>(s.GetDim(i));
        return n;
    };
    const bool s0Scalar = s0.GetDimNum() == 0 || count(s0) == 1;
    const ge::Shape& src = s0Scalar ? s1 : s0;
    if ((ts != 2 && ts != 4) || (mts != 1 && mts != 2 && mts != 4) || src.GetDimNum() != 2 || m.GetDimNum() != 2) {
        ::kgen::host::host_warn("select-tiling", "%s: needs 2-D source and mask shapes, source type size 2 or 4, mask type size "
                     "1, 2 or 4", api);
        return 0;
    }
    const uint32_t n = static_cast<uint32_t>(count(src));
    const uint32_t sl = static_cast<uint32_t>(src.GetDim(1)), ml = static_cast<uint32_t>(m.GetDim(1));
    return ::kgen::adv::select_bytes_tmp(n, mts, sl != ml, reuse, ml, minimum);
}
}  // namespace kgen_host

#define KGEN_SEL_ARGS const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize, \
                      const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask
#define KGEN_SEL_PASS src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask
inline uint32_t GetSelectMinTmpSize(KGEN_SEL_ARGS) {
    return kgen_host::select_sizes("GetSelectMinTmpSize", KGEN_SEL_PASS, true);
}
inline uint32_t GetSelectMaxTmpSize(KGEN_SEL_ARGS) {
    return kgen_host::select_sizes("GetSelectMaxTmpSize", KGEN_SEL_PASS, false);
}
inline void GetSelectMaxMinTmpSize(KGEN_SEL_ARGS, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetSelectMaxTmpSize(KGEN_SEL_PASS);
    minValue = GetSelectMinTmpSize(KGEN_SEL_PASS);
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(KGEN_SEL_ARGS) { return GetSelectMinTmpSize(KGEN_SEL_PASS); }
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(KGEN_SEL_ARGS) { return GetSelectMaxTmpSize(KGEN_SEL_PASS); }
inline void GetSelectWithBytesMaskMaxMinTmpSize(KGEN_SEL_ARGS, uint32_t& maxValue, uint32_t& minValue) {
    GetSelectMaxMinTmpSize(KGEN_SEL_PASS, maxValue, minValue);
}
#undef KGEN_SEL_ARGS
#undef KGEN_SEL_PASS

}  // namespace AscendC
