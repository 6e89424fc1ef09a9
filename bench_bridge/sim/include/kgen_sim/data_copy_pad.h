// kgen AscendC CPU emulator -- DataCopyPad: GM <-> UB copies of rows whose length is not a
// multiple of 32 bytes, with optional padding on the UB side.
//
// Documented rules followed (dav-2201, Atlas A2):
//  * Parameters: DataCopyExtParams {blockCount, blockLen, srcStride, dstStride, rsv} or the
//    older DataCopyParams {blockCount, blockLen, srcStride, dstStride} (16-bit fields).
//    blockCount rows of blockLen BYTES each; blockLen must be a multiple of sizeof(T).
//    Strides are gaps between the end of one row and the start of the next; their unit
//    depends on the side: BYTES on the GM side, 32-byte BLOCKS on the UB side.
//    Ranges: blockCount in [0, 4095], blockLen in [0, 2097151]; blockCount == 0 or
//    blockLen == 0 makes the call a no-op.
//  * The UB address must be 32-byte aligned (`ub-misaligned`); the GM address needs none.
//  * GM -> UB: each row lands at a 32-byte aligned UB address laid out as
//    [leftPadding elements][blockLen bytes of data][rightPadding elements][dummy up to the
//    next 32-byte boundary]; the next row starts dstStride blocks after that boundary.
//    leftPadding and rightPadding are element counts of at most 32 bytes each.
//  * Padding values come from the MTE2 pad-value register: isPad == true loads it with
//    paddingValue (DataCopyPadExtParams<T>: a value of T; the older DataCopyPadParams: the raw
//    uint64 bit pattern); isPad == false uses whatever SetPadValue (or an earlier isPad copy)
//    left there. Left/right padding and the dummy take that value; when leftPadding and
//    rightPadding are both 0 the dummy repeats the row's first element instead. For 64-bit
//    types paddingValue must be 0.
//  * UB -> GM: row r is read from UB at a 32-byte aligned offset (rows of blockLen rounded up
//    to 32 bytes, plus srcStride blocks) and exactly blockLen bytes are written to GM (the
//    dummy is dropped). SetAtomicAdd/Max/Min apply to these writes like to DataCopy's.
//  * GM -> UB runs on MTE2, UB -> GM on MTE3.
//
// Emulator choices (not documented behaviour):
//  * The pad-value register starts undefined on hardware ("random" in the docs). The emulator
//    fills padding taken from a never-set register with all-ones bytes (NaN for floats, -1 for
//    integers) so a kernel that relies on it shows visibly wrong numbers.
//  * Bounds: data and padding must lie inside the destination LocalTensor; the dummy tail may
//    reach the tensor end rounded up to 32 bytes (InitBuffer rounds buffers that way), no
//    further (`ub-out-of-bounds`). Every GM row is checked against the SetGlobalBuffer size and
//    the device allocation (`gm-out-of-bounds`). Parameter-rule violations are
//    `datacopypad-params`.
//
// @api DataCopyPad DataCopyExtParams DataCopyPadExtParams DataCopyPadParams SetPadValue
#pragma once
#include <cstring>
#include <type_traits>

#include "kgen_sim/data_copy.h"

namespace AscendC {

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn, const uint32_t dstStrideIn,
                      const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(const bool isPadValue, const uint8_t left, const uint8_t right, const uint64_t value)
        : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(const bool isPadValue, const uint8_t left, const uint8_t right, T value)
        : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

}  // namespace AscendC

namespace kgen {

/// The MTE2 pad-value register of the calling core.
struct PadRegister {
    bool set = false;
    uint64_t bits = 0;
};
inline PadRegister& pad_register() {
    static thread_local PadRegister reg;
    static thread_local CoreContext* owner = nullptr;
    if (owner != tls_core) { reg = PadRegister{}; owner = tls_core; }
    return reg;
}

template <typename T>
inline uint64_t value_bits(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T) < sizeof b ? sizeof(T) : sizeof b);
    return b;
}

/// The element a pad slot receives from the register (all-ones while the register was never set).
template <typename T>
inline T pad_element() {
    const PadRegister& r = pad_register();
    T v;
    if (!r.set) {
        std::memset(static_cast<void*>(&v), 0xFF, sizeof(T));
    } else if (sizeof(T) == 8) {
        // 64-bit types are moved as pairs of 32-bit elements: each half takes the low 32 bits
        uint64_t lo = r.bits & 0xFFFFFFFFull, b = lo | (lo << 32);
        std::memcpy(static_cast<void*>(&v), &b, sizeof(T));
    } else {
        std::memcpy(static_cast<void*>(&v), &r.bits, sizeof(T));
    }
    return v;
}

/// Check bytes [off, off + n) of a GlobalTensor view against its SetGlobalBuffer size and the device
/// allocation, by the GM access policy of tensor.h (reads past the view or the allocation's end warn).
template <typename T>
inline void gm_check_bytes(const AscendC::GlobalTensor<T>& g, uint64_t off, uint64_t n, const char* api,
                           GmAccess acc = GmAccess::Write) {
    if (!g.raw()) fail("gm-null", "%s on a GlobalTensor whose SetGlobalBuffer was never called", api);
    if (g.bounded() && off + n > g.GetSize() * sizeof(T))
        warn("gm-view-overrun", "%s %s bytes [%llu, %llu) of a GlobalTensor of %llu bytes (SetGlobalBuffer size): the hardware does "
             "not check views", api, acc == GmAccess::Read ? "reads" : "writes", (unsigned long long)off, (unsigned long long)(off + n),
             (unsigned long long)(g.GetSize() * sizeof(T)));
    check_gm_allocation(reinterpret_cast<const uint8_t*>(g.raw()) + off, n, api, acc);
}

inline void check_pad_params(const char* api, uint64_t count, uint64_t len, size_t esize) {
    if (count > 4095) fail("datacopypad-params", "%s: blockCount %llu is outside [0, 4095]", api, (unsigned long long)count);
    if (len > 2097151) fail("datacopypad-params", "%s: blockLen %llu bytes is outside [0, 2097151]", api, (unsigned long long)len);
    if (len % esize)
        fail("datacopypad-params", "%s: blockLen %llu bytes is not a multiple of the %zu-byte element type", api,
             (unsigned long long)len, esize);
}

/// GM -> UB rows with padding. srcStride in bytes, dstStride in 32-byte blocks.
template <typename T>
inline void pad_gm_to_ub(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint64_t count,
                         uint64_t len, uint64_t srcStride, uint64_t dstStride, bool isPad, uint32_t left, uint32_t right,
                         uint64_t padBits) {
    dst.check_aligned(api);
    check_pad_params(api, count, len, sizeof(T));
    if (left * sizeof(T) > ONE_BLK || right * sizeof(T) > ONE_BLK)
        fail("datacopypad-params", "%s: leftPadding %u / rightPadding %u elements exceed 32 bytes (%zu-byte elements)", api, left,
             right, sizeof(T));
    if (isPad) {
        if (sizeof(T) == 8 && padBits != 0)
            fail("datacopypad-params", "%s: paddingValue must be 0 for 64-bit element types", api);
        pad_register().set = true;
        pad_register().bits = padBits;
    }
    if (count == 0 || len == 0) {
        trace(api, Pipe::MTE2, 0);
        return;
    }
    constexpr uint64_t epb = ONE_BLK / sizeof(T);
    const uint64_t n = len / sizeof(T);
    const uint64_t used = left + n + right;
    const uint64_t row = (used + epb - 1) / epb * epb;  // elements per padded UB row
    const uint64_t tensor_end = (uint64_t(dst.GetSize()) * sizeof(T) + ONE_BLK - 1) / ONE_BLK * ONE_BLK;
    const T pad = pad_element<T>();
    for (uint64_t r = 0; r < count; ++r) {
        uint64_t goff = r * (len + srcStride);
        uint64_t d = r * (row + dstStride * epb);
        gm_check_bytes(src, goff, len, api, GmAccess::Read);
        dst.check(d, used, api);
        if ((d + row) * sizeof(T) > tensor_end)
            fail("ub-out-of-bounds", "%s: row %llu with its 32-byte padding ends at byte %llu, past the %u-element (%llu-byte rounded) "
                 "destination tensor", api, (unsigned long long)r, (unsigned long long)((d + row) * sizeof(T)), dst.GetSize(),
                 (unsigned long long)tensor_end);
        T* out = dst.raw() + d;
        for (uint64_t i = 0; i < left; ++i) out[i] = pad;
        std::memcpy(static_cast<void*>(out + left), reinterpret_cast<const uint8_t*>(src.raw()) + goff, len);
        for (uint64_t i = left + n; i < used; ++i) out[i] = pad;
        T dummy = (left == 0 && right == 0) ? out[0] : pad;
        for (uint64_t i = used; i < row; ++i) out[i] = dummy;
    }
    trace(api, Pipe::MTE2, count * len, static_cast<uint32_t>(count), 0, 0, sizeof(T));
}

/// Store n elements to a GM address that may not be aligned for T, honouring the atomic mode.
template <typename T>
inline void gm_store_bytes(uint8_t* dst, const T* src, uint64_t n) {
    if (reinterpret_cast<uintptr_t>(dst) % alignof(T) == 0) {
        gm_store(reinterpret_cast<T*>(dst), src, n);
        return;
    }
    int mode = core().atomic_mode;
    if (mode == 0) {
        std::memcpy(dst, src, n * sizeof(T));
        return;
    }
    std::lock_guard<std::mutex> g(atomic_mutex());
    for (uint64_t i = 0; i < n; ++i) {
        T cur;
        std::memcpy(static_cast<void*>(&cur), dst + i * sizeof(T), sizeof(T));
        using C = compute_t<T>;
        C a = static_cast<C>(cur), b = static_cast<C>(src[i]);
        C r = mode == 1 ? static_cast<C>(a + b) : mode == 2 ? (a > b ? a : b) : (a < b ? a : b);
        T out = static_cast<T>(r);
        std::memcpy(dst + i * sizeof(T), static_cast<const void*>(&out), sizeof(T));
    }
}

/// UB -> GM rows: exactly blockLen bytes per row reach GM. srcStride in 32-byte blocks, dstStride in bytes.
template <typename T>
inline void pad_ub_to_gm(const char* api, const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint64_t count,
                         uint64_t len, uint64_t srcStride, uint64_t dstStride) {
    src.check_aligned(api);
    check_pad_params(api, count, len, sizeof(T));
    if (count == 0 || len == 0) {
        trace(api, Pipe::MTE3, 0);
        return;
    }
    constexpr uint64_t epb = ONE_BLK / sizeof(T);
    const uint64_t n = len / sizeof(T);
    const uint64_t row = (n + epb - 1) / epb * epb;
    for (uint64_t r = 0; r < count; ++r) {
        uint64_t s = r * (row + srcStride * epb);
        uint64_t goff = r * (len + dstStride);
        src.check(s, n, api);
        gm_check_bytes(dst, goff, len, api);
        gm_store_bytes(reinterpret_cast<uint8_t*>(dst.raw()) + goff, src.raw() + s, n);
    }
    trace(api, Pipe::MTE3, count * len, static_cast<uint32_t>(count), 0, 0, sizeof(T));
}

}  // namespace kgen

namespace AscendC {

/// GM -> UB with DataCopyExtParams (blockLen bytes, srcStride bytes, dstStride 32-byte blocks).
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                        const DataCopyPadExtParams<T>& padParams) {
    kgen::pad_gm_to_ub("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                       dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                       kgen::value_bits(padParams.paddingValue));
}
/// GM -> UB with the older 16-bit DataCopyParams; paddingValue is the raw register bit pattern.
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& dataCopyParams,
                        const DataCopyPadParams& padParams) {
    kgen::pad_gm_to_ub("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                       dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                       padParams.paddingValue);
}
/// UB -> GM with DataCopyExtParams (blockLen bytes, srcStride 32-byte blocks, dstStride bytes).
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& dataCopyParams) {
    kgen::pad_ub_to_gm("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                       dataCopyParams.dstStride);
}
/// UB -> GM with the older 16-bit DataCopyParams.
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& dataCopyParams) {
    kgen::pad_ub_to_gm("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                       dataCopyParams.dstStride);
}

/// Load the pad-value register used by later DataCopyPad GM -> UB calls with isPad == false.
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
    if (sizeof(T) == 8 && kgen::value_bits(paddingValue) != 0)
        kgen::fail("datacopypad-params", "SetPadValue: the pad value must be 0 for 64-bit element types");
    kgen::pad_register().set = true;
    kgen::pad_register().bits = kgen::value_bits(paddingValue);
    kgen::trace("SetPadValue", kgen::Pipe::S, 0);
}

}  // namespace AscendC
