// kgen host-side emulation -- temporary-buffer size helpers of the high-level math APIs
// (reached through tiling/tiling_api.h, as in CANN).
//
// Documented rules followed (host tiling pages of each API):
//  * Get<Name>MaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue): minValue is
//    the smallest sharedTmpBuffer the kernel API accepts (0: none needed), maxValue the most it
//    can use for an input of srcShape (more brings nothing). Exp's version returns bool.
//  * Get<Name>TmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf): the buffer needed for
//    n elements is maxLiveNodeCount * n * typeSize + extraBuf, so a kernel can derive how many
//    elements fit a given buffer.
//  * Power takes both operand shapes (a shape of one dimension of length 1 is a scalar) and
//    whether the type is an integer; Round takes the platform (dav-2201: float needs nothing,
//    half one node).
//  * AscendC::TensorShape is ge::Shape.
// The sizes themselves: kgen_sim/adv/tmp_rules.h (shared with the kernel-side checks).
//
// @api TensorShape GetAcosMaxMinTmpSize GetAcoshMaxMinTmpSize GetAsinMaxMinTmpSize GetAsinhMaxMinTmpSize GetAtanMaxMinTmpSize GetAtanhMaxMinTmpSize GetAxpyMaxMinTmpSize GetCeilMaxMinTmpSize GetClampMaxMinTmpSize GetCosMaxMinTmpSize GetCoshMaxMinTmpSize GetErfMaxMinTmpSize GetErfcMaxMinTmpSize GetExpMaxMinTmpSize GetFloorMaxMinTmpSize GetFmodMaxMinTmpSize GetFracMaxMinTmpSize GetLogMaxMinTmpSize GetLog2MaxMinTmpSize GetLog10MaxMinTmpSize GetPowerMaxMinTmpSize GetRoundMaxMinTmpSize GetSignMaxMinTmpSize GetSinMaxMinTmpSize GetSinhMaxMinTmpSize GetTanMaxMinTmpSize GetTanhMaxMinTmpSize GetTruncMaxMinTmpSize GetXorMaxMinTmpSize
// @api GetAcosTmpBufferFactorSize GetAcoshTmpBufferFactorSize GetAsinTmpBufferFactorSize GetAsinhTmpBufferFactorSize GetAtanTmpBufferFactorSize GetAtanhTmpBufferFactorSize GetAxpyTmpBufferFactorSize GetCeilTmpBufferFactorSize GetClampTmpBufferFactorSize GetCosTmpBufferFactorSize GetCoshTmpBufferFactorSize GetErfTmpBufferFactorSize GetErfcTmpBufferFactorSize GetExpTmpBufferFactorSize GetFloorTmpBufferFactorSize GetFmodTmpBufferFactorSize GetFracTmpBufferFactorSize GetLogTmpBufferFactorSize GetLog2TmpBufferFactorSize GetLog10TmpBufferFactorSize GetPowerTmpBufferFactorSize GetRoundTmpBufferFactorSize GetSignTmpBufferFactorSize GetSinTmpBufferFactorSize GetSinhTmpBufferFactorSize GetTanTmpBufferFactorSize GetTanhTmpBufferFactorSize GetTruncTmpBufferFactorSize GetXorTmpBufferFactorSize
#pragma once
#include <cstdint>

#include "graph/types.h"
#include "kgen_sim/adv/tmp_rules.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

using TensorShape = ge::Shape;

namespace kgen_host {
inline uint64_t elements(const ge::Shape& s) {
    int64_t n = s.GetShapeSize();
    return n > 0 ? static_cast<uint64_t>(n) : 0;
}
}  // namespace kgen_host

#define KGEN_HOST_TMP_RULE(NAME, RULE)                                                                              \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                         uint32_t& maxValue, uint32_t& minValue) {                                 \
        minValue = ::kgen::adv::min_tmp(RULE, typeSize, isReuseSource);                                             \
        maxValue = ::kgen::adv::max_tmp(RULE, typeSize, isReuseSource, kgen_host::elements(srcShape));              \
    }                                                                                                               \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) { \
        maxLiveNodeCount = RULE.of(typeSize, false);                                                                \
        extraBuf = 0;                                                                                               \
    }

KGEN_HOST_TMP_RULE(Acos, ::kgen::adv::kAcos)
KGEN_HOST_TMP_RULE(Acosh, ::kgen::adv::kAcosh)
KGEN_HOST_TMP_RULE(Asin, ::kgen::adv::kAsin)
KGEN_HOST_TMP_RULE(Asinh, ::kgen::adv::kAsinh)
KGEN_HOST_TMP_RULE(Atan, ::kgen::adv::kAtan)
KGEN_HOST_TMP_RULE(Atanh, ::kgen::adv::kAtanh)
KGEN_HOST_TMP_RULE(Axpy, ::kgen::adv::kAxpy)
KGEN_HOST_TMP_RULE(Ceil, ::kgen::adv::kCeil)
KGEN_HOST_TMP_RULE(Cos, ::kgen::adv::kCos)
KGEN_HOST_TMP_RULE(Cosh, ::kgen::adv::kCosh)
KGEN_HOST_TMP_RULE(Erf, ::kgen::adv::kErf)
KGEN_HOST_TMP_RULE(Erfc, ::kgen::adv::kErfc)
KGEN_HOST_TMP_RULE(Floor, ::kgen::adv::kFloor)
KGEN_HOST_TMP_RULE(Fmod, ::kgen::adv::kFmod)
KGEN_HOST_TMP_RULE(Frac, ::kgen::adv::kFrac)
KGEN_HOST_TMP_RULE(Log, ::kgen::adv::kNone)
KGEN_HOST_TMP_RULE(Log10, ::kgen::adv::kNone)
KGEN_HOST_TMP_RULE(Sign, ::kgen::adv::kSign)
KGEN_HOST_TMP_RULE(Sin, ::kgen::adv::kSin)
KGEN_HOST_TMP_RULE(Sinh, ::kgen::adv::kSinh)
KGEN_HOST_TMP_RULE(Tan, ::kgen::adv::kTan)
KGEN_HOST_TMP_RULE(Tanh, ::kgen::adv::kTanh)
KGEN_HOST_TMP_RULE(Trunc, ::kgen::adv::kTrunc)
KGEN_HOST_TMP_RULE(Xor, ::kgen::adv::kXor)
#undef KGEN_HOST_TMP_RULE

inline void GetLog2MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                                 uint32_t& minValue) {
    minValue = ::kgen::adv::log2_min_tmp(typeSize);
    maxValue = ::kgen::adv::log2_max_tmp(typeSize, kgen_host::elements(srcShape));
}
inline void GetLog2TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = typeSize == 2 ? 2 : 0;  // one float per half element
    extraBuf = 0;
}

inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    minValue = ::kgen::adv::exp_min_tmp(typeSize, isReuseSource);
    maxValue = ::kgen::adv::exp_max_tmp(typeSize, isReuseSource, kgen_host::elements(srcShape));
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    // float intermediates: 4 of them for half (16 bytes per 2-byte element), 3 for float
    maxLiveNodeCount = typeSize == 4 ? 3 : 8;
    extraBuf = 0;
}

inline void GetClampMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                                  uint32_t& minValue) {
    minValue = ::kgen::adv::clamp_min_tmp(typeSize);
    maxValue = ::kgen::adv::clamp_max_tmp(typeSize, kgen_host::elements(srcShape));
}
inline void GetClampTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = 1;
    extraBuf = 0;
}

inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    minValue = ::kgen::adv::min_tmp(::kgen::adv::kRound, typeSize, isReuseSource);
    maxValue = ::kgen::adv::max_tmp(::kgen::adv::kRound, typeSize, isReuseSource, kgen_host::elements(srcShape));
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC&, const uint32_t typeSize,
                                        uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = ::kgen::adv::kRound.of(typeSize, false);
    extraBuf = 0;
}

namespace kgen_host {
/// A shape of one dimension of length 1 stands for a scalar operand.
inline bool is_tensor(const ge::Shape& s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); }
}  // namespace kgen_host

inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool, uint32_t& maxValue, uint32_t& minValue) {
    bool t1 = kgen_host::is_tensor(srcShape1), t2 = kgen_host::is_tensor(srcShape2);
    bool tt = t1 && t2;
    uint64_t n = kgen_host::elements(t1 ? srcShape1 : srcShape2);
    minValue = ::kgen::adv::power_min_tmp(typeIsInt, typeSize, tt);
    maxValue = ::kgen::adv::power_max_tmp(typeIsInt, typeSize, tt, n);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = ::kgen::adv::power_nodes(typeIsInt, typeSize, baseIsTensor && expIsTensor);
    extraBuffer = typeIsInt ? 0 : ::kgen::adv::REP_BYTES;
}

}  // namespace AscendC
