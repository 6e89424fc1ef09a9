// kgen AscendC CPU emulator -- tensors: positions, GlobalTensor (GM), LocalTensor (UB).
//
// Documented rules followed:
//  * GlobalTensor wraps a __gm__ pointer; SetGlobalBuffer(ptr, size) bounds the view.
//    Accessing outside that view, or outside the device allocation, is reported
//    (`gm-out-of-bounds`): the hardware would read or corrupt a neighbour's data.
//  * LocalTensor is a typed view of local memory handed out by a queue or TBuf: the Unified Buffer
//    for vector positions, or the cube unit's L1 / L0A / L0B / L0C / bias table for A1/B1/C1, A2,
//    B2, CO1, C2 (mem_of below); it remembers its position and memory so that cube APIs can
//    check their operands (`wrong-position`). operator[](offset) is a sub-view `offset` elements later.
//  * Using a LocalTensor after FreeTensor returned its buffer is reported (`use-after-free`): an error
//    once the buffer has been handed out again (AllocTensor) or laid out anew (InitBuffer), since the
//    access then reads or clobbers another tensor; a warning while the buffer is still free, where the
//    NPU reads the freed tensor's own bytes, unchanged (NPUKernelBench's AddRmsNorm, a CANN op, computes
//    from its x tensor after FreeTensor, before the double-buffered queue hands that buffer out again);
//    accessing outside the tensor is reported (`ub-out-of-bounds`). One exception,
//    because the hardware bounds nothing but UB: a view taken with TBuf::Get(len) starts at the TBuf's
//    buffer, and an access past its `len` elements that stays inside that buffer touches only the
//    TBuf's own bytes (NPUKernelBench's Arange casts 8 floats into Get<float>(0) of a 32-byte TBuf): a
//    warning (`ub-past-tensor`) and the access is made. The same when the view is shorter than its buffer,
//    the TBuf is the last buffer laid out and the access runs on into UB no buffer occupies (Arange's
//    float16 path casts 16 floats into Get<float>(0) of that 32-byte TBuf). Once GetWithOffset or a sub-view operator[](offset > 0) has carved tensors out of the
//    TBuf, such an access could reach a neighbouring tensor, so it stays the error; so does one that
//    reaches the next buffer.
//  * Vector instructions and DataCopy need 32-byte aligned UB addresses (`ub-misaligned`).
//  * int4b_t (S4, values -8..7) is packed two per byte, the first element in the low 4 bits; sizeof(int4b_t)
//    is 1 byte (as the official examples note), but a LocalTensor<int4b_t> counts elements of 4 bits:
//    GetSize() is the element count, GetLength() the bytes (half of it), operator[](offset) moves
//    offset / 2 bytes (an odd offset would split a byte: `int4-odd-offset`), ReinterpretCast converts by
//    bits, and a tensor of n elements at a fixed address takes ceil(n / 2) bytes.
//
// @api TPosition QuePosition GlobalTensor LocalTensor int4b_t
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/core.h"
#include "kgen_sim/adv/data_format.h"  // DataFormat (ShapeInfo's layout tag)

namespace AscendC {

/// A 4-bit signed integer (S4). Storage is one byte, but tensors of int4b_t pack two elements per byte.
struct int4b_t {
    uint8_t storage = 0;
    int4b_t() = default;
    template <typename V, typename = std::enable_if_t<std::is_arithmetic_v<V>>>
    int4b_t(V v) : storage(static_cast<uint8_t>(static_cast<int>(v) & 0xF)) {}
    /// The value, sign-extended from 4 bits.
    int value() const { return (storage & 0x8) ? int(storage & 0xF) - 16 : int(storage & 0xF); }
    operator int() const { return value(); }
};

}  // namespace AscendC

namespace kgen {

template <typename T>
inline constexpr bool is_int4_v = std::is_same_v<std::remove_cv_t<T>, AscendC::int4b_t>;
/// Bits per element of T as tensors count them (4 for int4b_t).
template <typename T>
inline constexpr uint32_t elem_bits() { return is_int4_v<T> ? 4u : 8u * static_cast<uint32_t>(sizeof(T)); }
/// Bytes that n elements of T occupy (int4b_t: rounded up to whole bytes).
template <typename T>
inline constexpr uint64_t bytes_of(uint64_t n) { return is_int4_v<T> ? (n + 1) / 2 : n * sizeof(T); }
/// Elements of T that fit in `bytes` bytes.
template <typename T>
inline constexpr uint64_t elems_in(uint64_t bytes) { return is_int4_v<T> ? bytes * 2 : bytes / sizeof(T); }
/// Element i of a buffer (int4b_t: the low 4 bits of byte i / 2 for even i, the high 4 bits for odd i).
template <typename T>
inline T load_elem(const T* base, uint64_t i) {
    if constexpr (is_int4_v<T>) {
        const uint8_t b = reinterpret_cast<const uint8_t*>(base)[i / 2];
        return T(int((i % 2) ? (b >> 4) : (b & 0xF)) << 28 >> 28);
    } else {
        return base[i];
    }
}
template <typename T>
inline void store_elem(T* base, uint64_t i, T v) {
    if constexpr (is_int4_v<T>) {
        uint8_t& b = reinterpret_cast<uint8_t*>(base)[i / 2];
        const uint8_t nib = v.storage & 0xF;
        b = (i % 2) ? uint8_t((b & 0x0F) | (nib << 4)) : uint8_t((b & 0xF0) | nib);
    } else {
        base[i] = v;
    }
}

}  // namespace kgen

namespace AscendC {

enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC,
    LCM = VECCALC, SPM, SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;

inline const char* position_name(TPosition p) {
    switch (p) {
        case TPosition::GM: return "GM";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        case TPosition::A1: return "A1";
        case TPosition::A2: return "A2";
        case TPosition::B1: return "B1";
        case TPosition::B2: return "B2";
        case TPosition::C1: return "C1";
        case TPosition::C2: return "C2";
        case TPosition::CO1: return "CO1";
        case TPosition::CO2: return "CO2";
        case TPosition::TSCM: return "TSCM";
        default: return "OTHER";
    }
}

/// The physical memory of a position on dav-2201 (cube unit: A1/B1/C1 and TSCM -> L1 (the docs' data-path
/// overview maps L1 to A1, B1, C1 and TSCM), A2 -> L0A, B2 -> L0B,
/// CO1 -> L0C, C2 -> BT (bias table), C2PIPE2GM -> FB (fixpipe buffer); everything else, including
/// CO2 and the VEC* positions of the vector core, is the Unified Buffer).
inline constexpr kgen::Mem mem_of(TPosition p) {
    switch (p) {
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return kgen::Mem::L1;
        case TPosition::A2: return kgen::Mem::L0A;
        case TPosition::B2: return kgen::Mem::L0B;
        case TPosition::CO1: return kgen::Mem::L0C;
        case TPosition::C2: return kgen::Mem::BT;
        case TPosition::C2PIPE2GM: return kgen::Mem::FB;
        default: return kgen::Mem::UB;
    }
}
/// The memory of a queue binding `src` to `dst`: the side that is not GM (a GM<->local queue
/// holds its buffers in the local side); otherwise the source's memory.
inline constexpr kgen::Mem mem_of(TPosition src, TPosition dst) {
    return src == TPosition::GM ? mem_of(dst) : mem_of(src);
}

/// Shape metadata some APIs carry along with a tensor (not used for addressing). Documented forms:
/// ShapeInfo(dim, shape[]) (ND), ShapeInfo(dim, shape[], DataFormat) and ShapeInfo(dim, shape[],
/// originalDim, originalShape[], DataFormat); at most 8 dimensions (`shapeinfo-dim` error).
// @api ShapeInfo
struct ShapeInfo {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[8] = {0};
    uint32_t originalShape[8] = {0};
    DataFormat dataFormat = DataFormat::ND;
    ShapeInfo() = default;
    ShapeInfo(uint8_t dim, const uint32_t* s) : ShapeInfo(dim, s, DataFormat::ND) {}
    ShapeInfo(uint8_t dim, const uint32_t* s, DataFormat format) : ShapeInfo(dim, s, dim, s, format) {}
    ShapeInfo(uint8_t dim, const uint32_t* s, uint8_t oriDim, const uint32_t* ori, DataFormat format)
        : shapeDim(dim), originalShapeDim(oriDim), dataFormat(format) {
        if (dim > 8 || oriDim > 8)
            kgen::fail("shapeinfo-dim", "ShapeInfo: %u / %u dimensions given, at most 8 are supported", dim, oriDim);
        for (uint8_t i = 0; i < dim; ++i) shape[i] = s[i];
        for (uint8_t i = 0; i < oriDim; ++i) originalShape[i] = ori[i];
    }
};

}  // namespace AscendC

namespace kgen {

/// Global-memory access policy. The hardware does not check GM accesses; device allocations come
/// in 512-byte granules (torch_npu's caching allocator rounds to 512 B; assumption for aclrtMalloc).
///  * Outside every allocation, or past the 512-byte granule of the allocation it starts in:
///    error `gm-out-of-bounds` (reads fault or read another tensor; writes corrupt one).
///  * Past the end of the allocation but inside its granule: warning `gm-read-past-end` /
///    `gm-write-past-end` (harmless on hardware, but the values read there are garbage).
///  * Past the SetGlobalBuffer view (whose size the hardware ignores): warning `gm-view-overrun`;
///    the access is then judged against the allocation as above.
inline constexpr uint64_t GM_GRANULE = 512;
enum class GmAccess { Read, Write };

inline void check_gm_allocation(const void* p, uint64_t nbytes, const char* api, GmAccess acc) {
    auto& reg = gm_registry();
    uintptr_t start = 0;
    size_t bytes = 0;
    if (reg.empty() || reg.contains(p, nbytes, &start, &bytes)) return;
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    uint64_t granule_end = start + (bytes + GM_GRANULE - 1) / GM_GRANULE * GM_GRANULE;
    if (start && a >= start && a + nbytes <= granule_end) {
        warn(acc == GmAccess::Read ? "gm-read-past-end" : "gm-write-past-end",
             "%s %s bytes [%llu, %llu) of a %llu-byte device allocation: past its end, inside its 512-byte granule", api,
             acc == GmAccess::Read ? "reads" : "writes", (unsigned long long)(a - start), (unsigned long long)(a + nbytes - start),
             (unsigned long long)bytes);
        return;
    }
    // inside an allocation, or just past its end (up to 4 KB): name that allocation
    if (start && a < start + bytes + 4096)
        fail("gm-out-of-bounds", "%s touches bytes [%llu, %llu) of a %llu-byte device allocation", api,
             (unsigned long long)(a - start), (unsigned long long)(a + nbytes - start), (unsigned long long)bytes);
    fail("gm-out-of-bounds", "%s touches GM outside every device allocation (address %p)", api, p);
}

/// One UB buffer handed out by a queue or TBuf: its generation changes on FreeTensor,
/// which invalidates every LocalTensor still pointing at the old allocation.
struct BufferSlot {
    uint32_t offset = 0;   // byte offset in UB
    uint32_t bytes = 0;
    uint32_t generation = 1;
    uint32_t freed_generation = 0;   // the generation FreeTensor left (use-after-free while still free: a warning)
    bool in_use = false;
    const char* owner = "";  // "TQue", "TBuf", ...
    bool scratch = false;    // a TBuf's buffer: Get(len) views that an access may run past inside the buffer
    bool carved = false;     // GetWithOffset has carved tensors out of this TBuf: each view is strict again
    int16_t queue_pos = -1;  // a queue's buffer: the queue's (src, dst) positions, TQueBind::qpos(); -1 otherwise
    int32_t queue_id = 0;    // a queue's buffer: the queue's trace id, and the buffer's (queue id * 64 + index)
    int32_t trace_buf = -1;
};

}  // namespace kgen

namespace AscendC {

template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    /// A tensor at a fixed byte address of its position's memory (the basic-API style without
    /// TPipe): `size` elements. The address is relative to that memory (UB, L1, L0A, ...).
    LocalTensor(TPosition pos, uint32_t addr, uint32_t size) : pos_(pos), mem_(mem_of(pos)) {
        const kgen::Mem m = mem_of(pos);
        if (uint64_t(addr) + kgen::bytes_of<T>(size) > kgen::mem_size(m)) {
            if (m == kgen::Mem::UB)
                kgen::fail("ub-out-of-bounds", "LocalTensor at UB address %u with %u elements runs past the %u-byte Unified Buffer",
                           addr, size, kgen::UB_SIZE);
            kgen::fail(kgen::mem_overflow_code(m), "LocalTensor(%s) at %s address %u with %u elements runs past the %u-byte %s",
                       position_name(pos), kgen::mem_name(m), addr, size, kgen::mem_size(m), kgen::mem_name(m));
        }
        ptr_ = reinterpret_cast<T*>(kgen::core().mem_base(m) + addr);
        size_ = size;
    }

    // ---- emulator-internal construction ----
    /// `mem` is the memory the buffer lives in (default: the position's own memory, mem_of(pos)).
    static LocalTensor make(T* ptr, uint32_t size, kgen::BufferSlot* slot, TPosition pos, kgen::Mem mem = kgen::Mem::COUNT) {
        LocalTensor t;
        t.mem_ = mem == kgen::Mem::COUNT ? mem_of(pos) : mem;
        t.ptr_ = ptr;
        t.size_ = size;
        t.slot_ = slot;
        t.gen_ = slot ? slot->generation : 0;
        t.pos_ = pos;
        return t;
    }

    /// Element access, bounds- and lifetime-checked.
    T GetValue(uint32_t i) const {
        check(i, 1, "GetValue");
        return kgen::load_elem(ptr_, i);
    }
    template <typename U>
    void SetValue(uint32_t i, U v) const {
        check(i, 1, "SetValue");
        kgen::store_elem(ptr_, i, static_cast<T>(v));
    }
    T& operator()(uint32_t i) const { check(i, 1, "operator()"); return ptr_[i]; }

    /// Sub-view starting `offset` elements later.
    LocalTensor operator[](uint32_t offset) const {
        if (!ptr_) {
            // a view of a tensor never allocated is an address computation on the NPU, not an access
            // (AddLayerNormGrad passes `dSum[offset]` of an unused tensor to a helper that ignores it): a
            // warning and another unallocated tensor; an access through it is the error
            kgen::warn("tensor-unallocated", "operator[] on a LocalTensor that was never allocated (AllocTensor/DeQue/Get): "
                       "the view is an address computation; any access through it is the error");
            return *this;
        }
        live("operator[]");
        if (offset > size_)
            kgen::fail("ub-out-of-bounds", "LocalTensor[%u] is past the end of a tensor of %u elements", offset, size_);
        if (offset > 0 && slot_ && slot_->scratch) slot_->carved = true;   // the buffer now holds neighbouring views
        LocalTensor t = *this;
        if constexpr (kgen::is_int4_v<T>) {
            if (offset % 2)
                kgen::fail("int4-odd-offset", "LocalTensor<int4b_t>[%u]: int4b_t elements are packed two per byte, so a sub-tensor "
                           "must start at an even element", offset);
            t.ptr_ = ptr_ + offset / 2;
        } else {
            t.ptr_ = ptr_ + offset;
        }
        t.size_ = size_ - offset;
        return t;
    }

    uint32_t GetSize() const { return size_; }
    void SetSize(uint32_t n) {
        if (slot_ && (reinterpret_cast<uint8_t*>(ptr_) - slot_base()) + kgen::bytes_of<T>(n) > slot_->bytes)
            kgen::fail("ub-out-of-bounds", "SetSize(%u) exceeds the %u-byte buffer", n, slot_->bytes);
        size_ = n;
    }
    uint32_t GetLength() const { return static_cast<uint32_t>(kgen::bytes_of<T>(size_)); }
    /// Byte address inside the tensor's own memory (UB for vector positions, L1/L0A/... for cube ones).
    uint64_t GetPhyAddr() const { return static_cast<uint64_t>(reinterpret_cast<uint8_t*>(ptr_) - kgen::core().mem_base(mem_)); }
    uint64_t GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + (kgen::is_int4_v<T> ? offset / 2 : uint64_t(offset) * sizeof(T)); }
    TPosition GetPosition() const { return pos_; }
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }
    void SetShapeInfo(const ShapeInfo& s) { shape_ = s; }
    ShapeInfo GetShapeInfo() const { return shape_; }
    void SetAddrWithOffset(const LocalTensor& src, uint32_t offset) { *this = src[offset]; }
    /// `dst = src0 + src1` and the other whole-tensor operator forms (kgen_sim/tensor_operators.h).
    template <class Expr, class = typename Expr::kgen_tensor_expr>
    void operator=(const Expr& e) { e.assign_to(*this); }

    /// The same bytes seen as another element type.
    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        live("ReinterpretCast");
        LocalTensor<U> t = LocalTensor<U>::make(reinterpret_cast<U*>(ptr_),
                                                static_cast<uint32_t>(uint64_t(size_) * kgen::elem_bits<T>() / kgen::elem_bits<U>()), slot_, pos_, mem_);
        t.gen_override(gen_);
        return t;
    }

    // ---- emulator-internal access (used by the API families) ----
    T* raw() const { return ptr_; }
    kgen::BufferSlot* slot() const { return slot_; }
    uint32_t generation() const { return gen_; }
    void gen_override(uint32_t g) { gen_ = g; }
    bool valid() const { return ptr_ != nullptr; }
    uint32_t ub_offset() const { return static_cast<uint32_t>(GetPhyAddr()); }
    /// The physical memory this tensor lives in.
    kgen::Mem mem() const { return mem_; }
    void mem_override(kgen::Mem m) { mem_ = m; }

    /// Fail unless the tensor is allocated and its buffer has not been freed.
    void live(const char* api) const {
        if (!ptr_) kgen::fail("tensor-unallocated", "%s on a LocalTensor that was never allocated (AllocTensor/DeQue/Get)", api);
        if (slot_ && slot_->generation != gen_) {
            if (slot_->in_use || slot_->generation != gen_ + 1 || slot_->freed_generation != slot_->generation)
                kgen::fail("use-after-free", "%s uses a LocalTensor after FreeTensor returned its buffer, which has been "
                           "handed out again since: the access reads or clobbers another tensor", api);
            kgen::warn("use-after-free", "%s uses a LocalTensor after FreeTensor returned its buffer; the buffer is still "
                       "free, so the NPU finds the tensor's bytes unchanged (so does the emulator), until the next "
                       "AllocTensor hands it out", api);
        }
    }
    /// Fail unless elements [i, i+n) lie inside the tensor.
    void check(uint64_t i, uint64_t n, const char* api) const {
        live(api);
        if (i + n > size_) {
            if (!inside_scratch_buffer(i + n))
                kgen::fail("ub-out-of-bounds", "%s touches elements [%llu, %llu) of a LocalTensor of %u elements", api,
                           (unsigned long long)i, (unsigned long long)(i + n), size_);
            kgen::warn("ub-past-tensor", "%s touches elements [%llu, %llu) of a LocalTensor of %u elements taken with "
                       "TBuf::Get(len); the bytes lie inside that TBuf's %u-byte buffer (or past the last buffer, in UB "
                       "no buffer occupies), which the hardware does not bound, so the access is made", api,
                       (unsigned long long)i, (unsigned long long)(i + n), size_, slot_->bytes);
        }
        if (mem_ == kgen::Mem::UB && n) {
            // a buffer InitBuffer laid out past the end of UB (warning there): touching it is the error
            const uint64_t at = GetPhyAddr();
            const uint64_t end = at + kgen::bytes_of<T>(i + n);
            if (end > kgen::UB_SIZE)
                kgen::fail("ub-overflow-access", "%s touches UB bytes up to %llu, past the %u-byte Unified Buffer: the buffer "
                           "was laid out past UB by InitBuffer (see the ub-overflow warning)", api, (unsigned long long)end,
                           kgen::UB_SIZE);
        }
    }
    void check_read(uint64_t i, uint64_t n, const char* api) const { check(i, n, api); }
    /// How many elements from this view's start an access may touch: GetSize(), or for a view taken with
    /// TBuf::Get(len) from a buffer GetWithOffset has not carved up, every whole element up to the end of
    /// that buffer (see the file's rules: `ub-past-tensor`).
    uint64_t reach() const {
        if (!slot_ || !slot_->scratch || slot_->carved || kgen::is_int4_v<T>) return size_;
        const int64_t at = reinterpret_cast<uint8_t*>(ptr_) - slot_base();
        if (at < 0 || uint64_t(at) >= slot_->bytes) return size_;
        uint64_t bytes = slot_->bytes - uint64_t(at);
        // a view shorter than its buffer, in the last buffer laid out in UB: past the buffer's end lies UB
        // that no buffer occupies (up to the end of the Unified Buffer), which an access may touch without
        // reaching any other tensor. A view of the whole buffer stays bounded by the buffer.
        const uint64_t end = uint64_t(slot_->offset) + slot_->bytes;
        const bool shorter = kgen::bytes_of<T>(size_) < bytes;
        if (shorter && mem_ == kgen::Mem::UB && end >= kgen::core().ub_used && end <= kgen::UB_SIZE)
            bytes = kgen::UB_SIZE - (uint64_t(slot_->offset) + uint64_t(at));
        const uint64_t whole = bytes / sizeof(T);
        return whole > size_ ? whole : size_;
    }
    /// Fail unless the tensor starts at a 32-byte aligned UB address.
    void check_aligned(const char* api) const {
        live(api);
        if (GetPhyAddr() % kgen::ONE_BLK)
            kgen::fail("ub-misaligned", "%s needs a 32-byte aligned UB address; this tensor starts at UB offset %llu",
                       api, (unsigned long long)GetPhyAddr());
    }

private:
    uint8_t* slot_base() const { return kgen::core().mem_base(mem_) + slot_->offset; }
    bool inside_scratch_buffer(uint64_t n) const { return n <= reach(); }
    T* ptr_ = nullptr;
    uint32_t size_ = 0;
    kgen::BufferSlot* slot_ = nullptr;
    uint32_t gen_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    kgen::Mem mem_ = kgen::Mem::UB;
    int32_t tag_ = 0;
    ShapeInfo shape_;
};

/// Cache hints accepted and ignored by the emulator.
enum class CacheMode : uint8_t { CACHE_MODE_NORMAL, CACHE_MODE_DISABLE, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    GlobalTensor() = default;

    void SetGlobalBuffer(T* buffer, uint64_t bufferSize) { ptr_ = buffer; size_ = bufferSize; bounded_ = true; }
    void SetGlobalBuffer(T* buffer) { ptr_ = buffer; size_ = 0; bounded_ = false; }

    T GetValue(uint64_t i) const { check_read(i, 1, "GetValue"); return kgen::load_elem(ptr_, i); }
    template <typename U>
    void SetValue(uint64_t i, U v) const { check(i, 1, "SetValue"); kgen::store_elem(ptr_, i, static_cast<T>(v)); }
    T& operator()(uint64_t i) const {
        static_assert(!kgen::is_int4_v<T>, "GlobalTensor<int4b_t>: elements are 4 bits, use GetValue / SetValue");
        check(i, 1, "operator()");
        return ptr_[i];
    }

    /// Sub-view `offset` elements later. The hardware does not check views, so an offset past the
    /// end gives an empty view; the accesses through it are judged by the GM access policy.
    /// int4b_t: `offset` counts 4-bit elements, the view starts offset / 2 bytes later (an odd offset would
    /// split a byte: `int4-odd-offset`).
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t = *this;
        if constexpr (kgen::is_int4_v<T>)
            if (offset % 2)
                kgen::fail("int4-odd-offset", "GlobalTensor<int4b_t>[%llu]: int4b_t elements are packed two per byte, so a sub-tensor "
                           "must start at an even element", (unsigned long long)offset);
        t.ptr_ = at(offset);
        if (bounded_) t.size_ = offset > size_ ? 0 : size_ - offset;
        return t;
    }
    uint64_t GetSize() const { return size_; }
    T* GetPhyAddr() const { return ptr_; }
    T* GetPhyAddr(uint64_t offset) const { return at(offset); }
    void SetL2CacheHint(CacheMode) {}
    template <int M> void SetL2CacheHint() {}
    void SetShapeInfo(const ShapeInfo& s) { shape_ = s; }
    ShapeInfo GetShapeInfo() const { return shape_; }

    // ---- emulator-internal ----
    T* raw() const { return ptr_; }
    bool bounded() const { return bounded_; }
    /// Check a GM access of elements [i, i+n) (see the GM access policy at the top of this file).
    void check(uint64_t i, uint64_t n, const char* api, kgen::GmAccess acc = kgen::GmAccess::Write) const {
        if (!ptr_) kgen::fail("gm-null", "%s on a GlobalTensor whose SetGlobalBuffer was never called", api);
        if (bounded_ && i + n > size_)
            kgen::warn("gm-view-overrun", "%s %s elements [%llu, %llu) of a GlobalTensor of %llu elements (SetGlobalBuffer size): "
                       "the hardware does not check views, so this %s whatever lies beyond it", api,
                       acc == kgen::GmAccess::Read ? "reads" : "writes", (unsigned long long)i, (unsigned long long)(i + n),
                       (unsigned long long)size_, acc == kgen::GmAccess::Read ? "reads" : "overwrites");
        kgen::check_gm_allocation(at(i), kgen::is_int4_v<T> ? (i + n + 1) / 2 - i / 2 : n * sizeof(T), api, acc);
    }
    /// A read: lenient where the hardware is silent and nothing is corrupted (see the policy).
    void check_read(uint64_t i, uint64_t n, const char* api) const { check(i, n, api, kgen::GmAccess::Read); }

private:
    /// Address of element i (int4b_t: the byte holding it).
    T* at(uint64_t i) const {
        if constexpr (kgen::is_int4_v<T>) return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(ptr_) + i / 2);
        else return ptr_ + i;
    }
    T* ptr_ = nullptr;
    uint64_t size_ = 0;
    bool bounded_ = false;
    ShapeInfo shape_;
};

}  // namespace AscendC
