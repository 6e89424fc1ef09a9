// kgen host-side emulation -- temporary-buffer size helpers of the high-level activations.
//
// Documented rules followed (host pages of each API; sizes in bytes, n = elements of srcShape):
//  * GetSigmoidMaxMinTmpSize: min 256, max max(n * typeSize, 256).
//  * GetGeluMinTmpSize / GetGeluMaxTmpSize / GetGeluMaxMinTmpSize (no isReuseSource):
//    min 3 * 256, max 3 * max(n * typeSize, 256). FasterGelu uses the same helpers.
//  * GetSwiGLUMaxMinTmpSize(shape, typeSize, max, min, isReuseSource) -- note the order -- and
//    GetGeGLUMaxMinTmpSize(shape, typeSize, isReuseSource, max, min): half needs 6 (SwiGLU) or
//    4 (GeGLU) nodes of max(n * 2, 256) bytes (min: 256 per node), float none.
//  * GetSwishTmpSize / GetSiluTmpSize: 0 and 0 (no temporary buffer).
//  * The *TmpBufferFactorSize helpers report those node counts with extraBuf = 0.
// The same counts drive the kernel-side checks (kgen_sim/adv/activation.h).
//
// @api GetSigmoidMaxMinTmpSize GetGeluMinTmpSize GetGeluMaxTmpSize GetGeluMaxMinTmpSize GetSwiGLUMaxMinTmpSize GetSwiGLUTmpBufferFactorSize GetGeGLUMaxMinTmpSize GetGeGLUTmpBufferFactorSize GetSwishTmpSize GetSiluTmpSize
#pragma once
#include <cstdint>

#include "kgen_sim/adv/host_math_tiling.h"

namespace AscendC {

inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool, uint32_t& maxValue,
                                    uint32_t& minValue) {
    minValue = ::kgen::adv::REP_BYTES;
    maxValue = ::kgen::adv::max_tmp({1, 1, 1}, typeSize, false, kgen_host::elements(srcShape));
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape&, const uint32_t typeSize) {
    return ::kgen::adv::min_tmp({3, 3, 3}, typeSize, false);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    return ::kgen::adv::max_tmp({3, 3, 3}, typeSize, false, kgen_host::elements(srcShape));
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    minValue = GetGeluMinTmpSize(srcShape, typeSize);
    maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
}
inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue,
                                   const bool isReuseSource) {
    minValue = ::kgen::adv::min_tmp({6, 0, 0}, typeSize, isReuseSource);
    maxValue = ::kgen::adv::max_tmp({6, 0, 0}, typeSize, isReuseSource, kgen_host::elements(srcShape));
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = typeSize == 4 ? 0 : 6;
    extraBuffer = 0;
}
inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    minValue = ::kgen::adv::min_tmp({4, 0, 0}, typeSize, isReuseSource);
    maxValue = ::kgen::adv::max_tmp({4, 0, 0}, typeSize, isReuseSource, kgen_host::elements(srcShape));
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = typeSize == 4 ? 0 : 4;
    extraBuf = 0;
}
inline void GetSwishTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
}
inline void GetSiluTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
}

}  // namespace AscendC
