// kgen AscendC CPU emulator -- the high-level Select with a byte mask (SelectWithBytesMask).
//
// Documented rules followed (dav-2201 Select page of the high-level "data filter" APIs):
//  * Select<T, U, isReuseMask = true>(dst, LocalTensor src0, T src1, LocalTensor<U> mask, sharedTmpBuffer,
//    SelectWithBytesMaskShapeInfo {firstAxis, srcLastAxis, maskLastAxis}): dst[r][c] = mask[r][c] == 0 ?
//    src0[r][c] : src1 for c < srcLastAxis; Select(dst, T src0, LocalTensor src1, mask, ...) picks the
//    scalar where the mask is 0 and the tensor elsewhere. The mask rows have maskLastAxis >= srcLastAxis
//    elements; the extra ones are ignored.
//  * T: half or float; U: bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t. srcLastAxis *
//    sizeof(T) and maskLastAxis * sizeof(U) must be multiples of 32 and maskLastAxis a multiple of 16
//    (`select-shape` error).
//  * isReuseMask = true lets the API rewrite the mask when the two row lengths differ (the emulator
//    compacts the mask rows to srcLastAxis elements there, as the NPU's GatherMask step does, so code
//    that reads the mask afterwards sees the change).
//  * Temporary bytes (GetSelectMaxMinTmpSize): max(1024, align32(n) * 2 + 512) with n the source
//    element count (capped at 4096 for the minimum), plus align32(n * sizeof(U)) when the row lengths
//    differ, isReuseMask is false and maskLastAxis > 1.
//  * SelectWithBytesMask(...): the name these two forms had before CANN 8 (published kernels still call
//    it), same template parameters, arguments and rules.
//
// @api SelectWithBytesMaskShapeInfo SelectWithBytesMask
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/select_rules.h"

namespace AscendC {
struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
}  // namespace AscendC

namespace kgen {
namespace adv {

template <class U> inline constexpr bool sel_bytes_mask_ok_v =
    std::is_same_v<U, bool> || std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t> || std::is_same_v<U, int16_t> ||
    std::is_same_v<U, uint16_t> || std::is_same_v<U, int32_t> || std::is_same_v<U, uint32_t>;

/// tensorFirst: src0 is the tensor (mask 0 picks it); otherwise src0 is the scalar.
template <class T, class U>
inline void select_bytes(bool reuseMask, bool tensorFirst, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         T scalar, const AscendC::LocalTensor<U>& mask, const AscendC::LocalTensor<uint8_t>& tmp,
                         const AscendC::SelectWithBytesMaskShapeInfo& info) {
    static_assert(hf_v<T>, "Select (byte mask): T must be half or float on dav-2201");
    static_assert(sel_bytes_mask_ok_v<U>, "Select (byte mask): U must be bool or an 8/16/32-bit integer type");
    const char* api = "Select";
    const uint32_t rows = info.firstAxis, sl = info.srcLastAxis, ml = info.maskLastAxis;
    if (!rows || !sl || ml < sl || (uint64_t(sl) * sizeof(T)) % 32 || (uint64_t(ml) * sizeof(U)) % 32 || ml % 16)
        fail("select-shape", "%s: needs srcLastAxis (%u) * sizeof(T) and maskLastAxis (%u) * sizeof(U) multiples of 32 bytes, "
             "maskLastAxis a multiple of 16 and >= srcLastAxis, firstAxis (%u) > 0", api, sl, ml, rows);
    const uint64_t n = uint64_t(rows) * sl, nm = uint64_t(rows) * ml;
    operand(api, dst, n);
    operand(api, src, n);
    operand(api, mask, nm);
    if (lo_of(dst) != lo_of(src)) no_overlap(api, dst, n, src, n, "dst and the source tensor");
    const bool differ = ml != sl;
    Tmp t{&tmp, select_bytes_tmp(uint32_t(n), sizeof(U), differ, reuseMask, ml, true),
          select_bytes_tmp(uint32_t(n), sizeof(U), differ, reuseMask, ml, false)};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}, {lo_of(mask), hi_of(mask, nm)}});
    std::vector<uint8_t> pick(n);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < sl; ++c) pick[uint64_t(r) * sl + c] = mask.raw()[uint64_t(r) * ml + c] != U(0);
    for (uint64_t i = 0; i < n; ++i) {
        const bool useTensor = tensorFirst ? !pick[i] : pick[i];
        dst.raw()[i] = useTensor ? src.raw()[i] : scalar;
    }
    if (differ && reuseMask)  // documented: the mask may be rewritten; the NPU compacts it to [rows, srcLastAxis]
        for (uint32_t r = 0; r < rows; ++r)
            for (uint32_t c = 0; c < sl; ++c) mask.raw()[uint64_t(r) * sl + c] = mask.raw()[uint64_t(r) * ml + c];
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 4);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    kgen::adv::select_bytes<T, U>(isReuseMask, true, dst, src0, src1, mask, sharedTmpBuffer, info);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    kgen::adv::select_bytes<T, U>(isReuseMask, false, dst, src1, src0, mask, sharedTmpBuffer, info);
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info);   // the same API under its own name
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info);
}

}  // namespace AscendC
