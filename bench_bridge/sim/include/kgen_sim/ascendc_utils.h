// kgen AscendC CPU emulator -- AscendCUtils, the static helper class kernels call for sizes, masks and
// the float overflow mode.
//
// Documented behaviour followed (AscendCUtils as the basic API headers and the Mmad / DataCopy pages
// use it, dav-2201):
//  * GetBitSize(bytes) = bytes * 8; GetC0Size() = 32 (bytes of one C0 block, DEFAULT_C0_SIZE);
//    GetC0Count(typeSize) = 32 / typeSize (typeSize 0 is an `utils-arg` error); GetDefaultBlockNum() = 8;
//    GetRsvdCnt() = the number of elements the core's last GatherMask kept.
//  * SetMask<T>(maskHigh, maskLow) sets the vector mask register; SetMask<T>(len) sets the bit mask of
//    the first len lanes (in either mask mode: 64 lanes -> (0, all ones); a whole repeat or >= 128 ->
//    (all ones, all ones)); SetMaskCount<T>() / SetMaskNorm<T>() switch counter / normal mask mode; ResetMask() sets
//    the full mask. (isSetMask = false makes the SetMask forms do nothing.)
//  * SetOverflow(v) sets CTRL[48]: 1 = inf/NaN mode (float results keep inf and NaN), 0 = saturation
//    mode (inf becomes +-MAX, NaN becomes 0). The emulator keeps the bit per core (default 1, the
//    inf/NaN mode) and computes IEEE results in both modes: in saturation mode a float result that is
//    inf or NaN differs from the NPU's (documented for the cube's Mmad; the vector unit's float
//    results follow SetSaturationFlag, see cast.h).
//
// @api AscendCUtils SetOverflow GetBitSize GetC0Size GetC0Count GetDefaultBlockNum GetRsvdCnt
#pragma once
#include <cstdint>

#include "kgen_sim/vec_engine.h"

namespace kgen {
/// CTRL[48] of this core (each block runs on its own thread, so thread_local = per core).
inline uint64_t& ctrl_overflow_bit() {
    static thread_local uint64_t bit = 1;
    return bit;
}
/// The rsvdCnt of this core's last GatherMask (kgen_sim/gather_mask.h).
inline uint64_t& gather_mask_count() {
    static thread_local uint64_t n = 0;
    return n;
}
}  // namespace kgen

namespace AscendC {

class AscendCUtils {
public:
    static inline int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
    static inline int32_t GetC0Size() { return 32; }
    static inline int32_t GetC0Count(const int32_t dtypeSize) {
        if (dtypeSize == 0) kgen::fail("utils-arg", "AscendCUtils::GetC0Count: dtypeSize must not be 0");
        return GetC0Size() / dtypeSize;
    }
    static inline int32_t GetDefaultBlockNum() { return 8; }
    /// Elements the last GatherMask kept.
    static inline int64_t GetRsvdCnt() { return static_cast<int64_t>(kgen::gather_mask_count()); }

    template <typename T, bool isSetMask = true>
    static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
        if constexpr (isSetMask) SetVectorMask<T>(maskHigh, maskLow);
    }
    /// The first `len` lanes as a bit mask, whatever the mask mode: 64 -> low word full; the lanes of a
    /// whole repeat (256 / sizeof(T)) or >= 128 -> both words full.
    template <typename T, bool isSetMask = true>
    static inline void SetMask(int32_t len) {
        if constexpr (!isSetMask) return;
        const int32_t typeLen = 256 / int32_t(sizeof(T));
        if (len == 64) return SetVectorMask<T>(0, ~0ull);
        if (len == typeLen || len >= 128) return SetVectorMask<T>(~0ull, ~0ull);
        const uint64_t hi = len > 64 ? (1ull << uint32_t(len - 64)) - 1 : 0;
        const uint64_t lo = len > 64 ? ~0ull : (len > 0 ? (1ull << uint32_t(len)) - 1 : 0);
        SetVectorMask<T>(hi, lo);
    }
    template <typename T>
    static inline void SetMaskCount() { ::AscendC::SetMaskCount(); }
    template <typename T>
    static inline void SetMaskNorm() { ::AscendC::SetMaskNorm(); }
    template <bool isSetMask = true>
    static inline void ResetMask() {
        if constexpr (isSetMask) ::AscendC::ResetMask();
    }

    /// CTRL[48]: 1 = inf/NaN mode, 0 = saturation mode.
    static inline void SetOverflow(uint64_t ctrlValue) { kgen::ctrl_overflow_bit() = ctrlValue == 1 ? 1 : 0; }
};

}  // namespace AscendC
