// kgen AscendC CPU emulator -- the CCE intrinsic layer (dav-c220) that some published kernels call
// directly, under `#if __CCE_AICORE__ == 220`, instead of the AscendC API built on it.
//
// An intrinsic takes UB addresses, not tensors: a kernel writes `(__ubuf__ float *)t.GetPhyAddr()`.
// On the emulator GetPhyAddr() is the byte offset in UB, so such a "pointer" carries that offset (as for
// TransDataTo5HDImpl and DuplicateImpl). The hardware bounds an intrinsic's accesses by UB only, not by
// the tensor the address came from: each operand here is a view from its address to the end of UB, and
// an access past UB is `ub-out-of-bounds`. Every intrinsic runs through the same engine as its API
// (masks, strides, repeats, alignment checks, tracing for the performance model).
//
// Documented rules followed (the C-API pages of asc-devkit for the same instructions, Atlas A2):
//  * set_mask_norm() / set_mask_count(): normal / counter mask mode (SetMaskNorm / SetMaskCount).
//    set_vector_mask(mask1, mask0): the mask register; normal mode: bit i of mask0 (i < 64) or mask1
//    enables lane i; counter mode: mask0 is the number of elements of the whole call.
//  * vcadd(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode) (asc_repeat_reduce_sum):
//    half / float; the sum of the enabled lanes of each repeat, a pairwise tree as RepeatReduceSum
//    (reduce_repeat.h); the lanes come from the mask register (set_vector_mask / SetVectorMask /
//    AscendCUtils::SetMask; counter mode: the element count, the repeats follow from it). src is
//    32-byte aligned, strides in 32-byte blocks. mode 0 (false): repeat r's sum is written to
//    dst[r * dstRepStride] (dstRepStride in elements). mode 1 (true): nothing is written to dst (kernels
//    pass nullptr); the sum of all repeats goes to the accumulator register that get_acc_val reads (the
//    register ReduceSum's count form also sets; CANN's ReduceSum count form is this instruction in
//    counter mode). The repeats' sums are added in order, every addition rounded to T (the order is the
//    emulator's choice, as for ReduceSum; the NPU's is not documented). The form without `mode`
//    (other architectures) is mode 0.
//  * get_acc_val(): the accumulator register as int64_t; a float / half sum is in its low bytes
//    (kernels reinterpret it). GetAccVal() / GetReduceRepeatSumSpr() without a type are the same read.
//    Reading it before any accumulating vcadd or ReduceSum is `reduce-spr-unset` (warning).
//  * vor(dst, src0, src1, repeat, dstBlkStride, src0BlkStride, src1BlkStride, dstRepStride, src0RepStride,
//    src1RepStride) (asc_or): int16_t / uint16_t; Or with the mask register (isSetMask = false); the six
//    strides are 8-bit fields (0..255), in 32-byte blocks.
//  * vector_dup(dst, value, repeat, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride): Duplicate
//    with the mask register (isSetMask = false); the src strides do not apply to a scalar.
//  * copy_ubuf_to_ubuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap): DataCopy UB -> UB with
//    DataCopyParams{nBurst, lenBurst, srcGap, dstGap} (32-byte units); sid is ignored.
//  * vtranspose(dst, src): the 16 x 16 transpose of 2-byte elements (512 bytes), as Transpose(dst, src).
//  * set_va_reg_sb(VAn, addresses): address register VAn (VA0..VA7) holds 8 UB addresses.
//    scatter_vnchwconv_b16 / _b32 (dst, src, repeat, dstStride, srcStride) (asc_transto5hd_b16/_b32):
//    TransDataTo5HD with the 16 destination addresses held by registers dst and dst + 1 and the 16
//    source addresses by src and src + 1 (the first 8 and the last 8); repeat and strides as
//    TransDataTo5HDParams. A register never set is `va-reg-unset` (error: the hardware would use
//    whatever addresses it holds).
//  * DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, DataCopyParams) / DataCopyUB2GMImpl(__gm__ T* dst,
//    __ubuf__ T* src, DataCopyParams): the library's internal entry points of DataCopy's DataCopyParams
//    form, which some published kernels call directly; the same copy (and checks) as DataCopy, with the GM
//    side judged by the GM access policy of an unbounded GlobalTensor (tensor.h).
//
// Not emulated: the many other intrinsics of the layer (an intrinsic the emulator lacks is a compile
// error naming it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kgen_sim/data_copy.h"
#include "kgen_sim/gather_transpose.h"
#include "kgen_sim/reduce_repeat.h"
#include "kgen_sim/reduce_spr.h"
#include "kgen_sim/trans_5hd.h"
#include "kgen_sim/vec_duplicate.h"

enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace kgen {
namespace cce {

/// The UB view an intrinsic's address names: from that byte offset to the end of UB.
template <typename T>
inline AscendC::LocalTensor<T> ub_view(const char* api, const void* p) {
    const uint64_t at = reinterpret_cast<uintptr_t>(p);
    if (at >= UB_SIZE)
        fail("ub-out-of-bounds", "%s: UB address %llu is past the %u-byte Unified Buffer (an intrinsic takes "
             "(__ubuf__ T*)tensor.GetPhyAddr())", api, (unsigned long long)at, UB_SIZE);
    return AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC, static_cast<uint32_t>(at),
                                   static_cast<uint32_t>((UB_SIZE - at) / sizeof(T)));
}

inline uint32_t u16_arg(const char* api, const char* what, int64_t v) {
    if (v < 0 || v > 65535) fail("bad-stride", "%s: %s %lld is outside [0, 65535]", api, what, (long long)v);
    return static_cast<uint32_t>(v);
}

template <typename T>
inline void vcadd(T* dst, T* src, int64_t repeat, int64_t dstRepStride, int64_t srcBlkStride, int64_t srcRepStride,
                  bool accumulate) {
    const char* api = "vcadd";
    if (repeat < 0 || repeat > 255) fail("bad-repeat", "%s: repeat %lld is outside [0, 255]", api, (long long)repeat);
    uint32_t rep = static_cast<uint32_t>(repeat);
    const red::Lanes L = red::lanes_of<T, false>(api, int64_t(0), &rep);   // the mask register
    const uint32_t dRep = u16_arg(api, "dstRepStride", dstRepStride);
    const uint32_t sBlk = u16_arg(api, "srcBlkStride", srcBlkStride);
    const uint32_t sRep = u16_arg(api, "srcRepStride", srcRepStride);
    const AscendC::LocalTensor<T> s = ub_view<T>(api, src);
    if (!accumulate) {
        red::whole_sum(api, ub_view<T>(api, dst), s, L, rep, dRep, sBlk, sRep);
        return;
    }
    if (rep == 0 || L.none()) return;
    Strided<const T> S(s, sBlk, sRep, api);
    T lanes[128];
    T acc = T(0);
    for (uint32_t r = 0; r < rep; ++r) {
        for (uint32_t i = 0; i < L.per; ++i) lanes[i] = L.on(r, i) ? S.at(r, i) : T(0);
        const T sum = red::tree_sum(lanes, L.per);
        acc = r == 0 ? sum : red::add(acc, sum);   // repeats added in order
    }
    red::record_sum<T>(acc);
    trace(api, Pipe::V, uint64_t(rep) * ONE_REP, rep);
}

/// The 8 addresses each address register VA0..VA7 holds, per core.
struct VaRegs {
    uint64_t addr[8][8] = {};
    bool set[8] = {};
};
inline VaRegs& va_regs() {
    static thread_local VaRegs regs;
    static thread_local CoreContext* owner = nullptr;
    if (owner != tls_core) { regs = VaRegs(); owner = tls_core; }
    return regs;
}

inline void va_list16(const char* api, ub_addr8_t first, uint64_t out[16]) {
    VaRegs& v = va_regs();
    for (int k = 0; k < 2; ++k) {
        const int reg = int(first) + k;
        if (reg > 7) fail("va-reg-unset", "%s: address register VA%d does not exist (VA0..VA7; the 16 addresses are "
                          "held by VA%d and the register after it)", api, reg, int(first));
        if (!v.set[reg])
            fail("va-reg-unset", "%s reads address register VA%d, which set_va_reg_sb never set on this core", api, reg);
        for (int i = 0; i < 8; ++i) out[8 * k + i] = v.addr[reg][i];
    }
}

template <typename T>
inline void vnchwconv(const char* api, ub_addr8_t dst, ub_addr8_t src, int64_t repeat, int64_t dstStride, int64_t srcStride) {
    if (repeat < 0 || repeat > 255) fail("bad-repeat", "%s: repeat %lld is outside [0, 255]", api, (long long)repeat);
    uint64_t d[16], s[16];
    va_list16(api, dst, d);
    va_list16(api, src, s);
    AscendC::TransDataTo5HDParams p;
    p.repeatTimes = static_cast<uint8_t>(repeat);
    p.dstRepStride = static_cast<uint16_t>(u16_arg(api, "dstStride", dstStride));
    p.srcRepStride = static_cast<uint16_t>(u16_arg(api, "srcStride", srcStride));
    trans5hd::run<T>(d, s, p);
}

}  // namespace cce
}  // namespace kgen

// ---- mask mode and register ------------------------------------------------------------------------
inline void set_mask_norm() { AscendC::SetMaskNorm(); }
inline void set_mask_count() { AscendC::SetMaskCount(); }
inline void set_vector_mask(uint64_t mask1, uint64_t mask0) {
    kgen::core().mask[0] = mask0;
    kgen::core().mask[1] = mask1;
}

// ---- vcadd and the accumulator register ------------------------------------------------------------
#define KGEN_VCADD(T)                                                                                            \
    inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, int64_t repeat, int64_t dstRepStride, int64_t srcBlkStride, \
                      int64_t srcRepStride, bool mode) {                                                          \
        kgen::cce::vcadd<T>(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode);                    \
    }                                                                                                             \
    inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, int64_t repeat, int64_t dstRepStride, int64_t srcBlkStride, \
                      int64_t srcRepStride) {                                                                     \
        kgen::cce::vcadd<T>(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, false);                   \
    }
KGEN_VCADD(float)
KGEN_VCADD(half)
#undef KGEN_VCADD

inline int64_t get_acc_val() {
    const kgen::red::SumSpr& s = kgen::red::tls_sum_spr;
    if (!s.set)
        kgen::warn("reduce-spr-unset", "get_acc_val: no accumulating vcadd or ReduceSum(dst, src, work, count) ran on this "
                   "core yet; the register holds no result");
    int64_t out = 0;
    std::memcpy(&out, &s.bits, sizeof(s.bits));
    return out;
}

namespace AscendC {
inline int64_t GetAccVal() { return ::get_acc_val(); }
inline int64_t GetReduceRepeatSumSpr() { return ::get_acc_val(); }
}  // namespace AscendC

// ---- vor ---------------------------------------------------------------------------------------------
template <typename T>
inline void vor(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, int64_t repeat, int64_t dstBlkStride,
                int64_t src0BlkStride, int64_t src1BlkStride, int64_t dstRepStride, int64_t src0RepStride,
                int64_t src1RepStride) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>, "vor takes int16_t or uint16_t operands");
    const char* api = "vor";
    const int64_t v[7] = {repeat, dstBlkStride, src0BlkStride, src1BlkStride, dstRepStride, src0RepStride, src1RepStride};
    for (int64_t x : v)
        if (x < 0 || x > 255) kgen::fail("bad-stride", "%s: repeat and strides are 8-bit fields; %lld is outside [0, 255]", api, (long long)x);
    AscendC::BinaryRepeatParams p(static_cast<uint16_t>(dstBlkStride), static_cast<uint16_t>(src0BlkStride),
                                  static_cast<uint16_t>(src1BlkStride), static_cast<uint16_t>(dstRepStride),
                                  static_cast<uint16_t>(src0RepStride), static_cast<uint16_t>(src1RepStride));
    AscendC::Or<T, false>(kgen::cce::ub_view<T>(api, dst), kgen::cce::ub_view<T>(api, src0), kgen::cce::ub_view<T>(api, src1),
                          AscendC::MASK_PLACEHOLDER, static_cast<uint8_t>(repeat), p);
}

// ---- vector_dup, copy_ubuf_to_ubuf, vtranspose -----------------------------------------------------
template <typename T, typename U>
inline void vector_dup(__ubuf__ T* dst, U value, int64_t repeat, int64_t dstBlkStride, int64_t srcBlkStride,
                       int64_t dstRepStride, int64_t srcRepStride) {
    const char* api = "vector_dup";
    (void)srcBlkStride;
    (void)srcRepStride;
    if (repeat < 0 || repeat > 255) kgen::fail("bad-repeat", "%s: repeat %lld is outside [0, 255]", api, (long long)repeat);
    if (dstRepStride < 0 || dstRepStride > 255)
        kgen::fail("bad-stride", "%s: dstRepStride %lld is outside [0, 255]", api, (long long)dstRepStride);
    AscendC::Duplicate<T, false>(kgen::cce::ub_view<T>(api, dst), static_cast<T>(value), AscendC::MASK_PLACEHOLDER,
                                 static_cast<uint8_t>(repeat),
                                 static_cast<uint16_t>(kgen::cce::u16_arg(api, "dstBlkStride", dstBlkStride)),
                                 static_cast<uint8_t>(dstRepStride));
}

template <typename T>
inline void copy_ubuf_to_ubuf(__ubuf__ T* dst, __ubuf__ T* src, int64_t sid, int64_t nBurst, int64_t lenBurst,
                              int64_t srcGap, int64_t dstGap) {
    const char* api = "copy_ubuf_to_ubuf";
    (void)sid;
    AscendC::DataCopyParams p;
    p.blockCount = static_cast<uint16_t>(kgen::cce::u16_arg(api, "nBurst", nBurst));
    p.blockLen = static_cast<uint16_t>(kgen::cce::u16_arg(api, "lenBurst", lenBurst));
    p.srcStride = static_cast<uint16_t>(kgen::cce::u16_arg(api, "srcGap", srcGap));
    p.dstStride = static_cast<uint16_t>(kgen::cce::u16_arg(api, "dstGap", dstGap));
    AscendC::DataCopy(kgen::cce::ub_view<T>(api, dst), kgen::cce::ub_view<T>(api, src), p);
}

template <typename T>
inline void vtranspose(__ubuf__ T* dst, __ubuf__ T* src) {
    static_assert(sizeof(T) == 2, "vtranspose transposes 16 x 16 two-byte elements");
    const char* api = "vtranspose";
    AscendC::Transpose(kgen::cce::ub_view<T>(api, dst), kgen::cce::ub_view<T>(api, src));
}

// ---- address registers and scatter_vnchwconv -------------------------------------------------------
template <typename P>
inline void set_va_reg_sb(ub_addr8_t reg, P* addrs) {
    static_assert(sizeof(P) == 8, "set_va_reg_sb takes 8 addresses (uint64_t or UB pointers)");
    if (int(reg) > 7) kgen::fail("va-reg-unset", "set_va_reg_sb: address register %d does not exist (VA0..VA7)", int(reg));
    kgen::cce::VaRegs& v = kgen::cce::va_regs();
    for (int i = 0; i < 8; ++i) {
        uint64_t a = 0;
        std::memcpy(&a, &addrs[i], 8);
        v.addr[int(reg)][i] = a;
    }
    v.set[int(reg)] = true;
}
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, int64_t repeat, int64_t dstStride, int64_t srcStride) {
    kgen::cce::vnchwconv<uint16_t>("scatter_vnchwconv_b16", dst, src, repeat, dstStride, srcStride);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, int64_t repeat, int64_t dstStride, int64_t srcStride) {
    kgen::cce::vnchwconv<uint32_t>("scatter_vnchwconv_b32", dst, src, repeat, dstStride, srcStride);
}

// ---- the library's internal DataCopy entry points ----------------------------------------------------
namespace AscendC {
template <typename T>
inline void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& intriParams) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(src);
    DataCopy(kgen::cce::ub_view<T>("DataCopyGM2UBImpl", dst), g, intriParams);
}
template <typename T>
inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(dst);
    DataCopy(g, kgen::cce::ub_view<T>("DataCopyUB2GMImpl", src), intriParams);
}
}  // namespace AscendC
