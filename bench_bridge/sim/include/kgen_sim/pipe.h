// kgen AscendC CPU emulator -- memory management: TPipe, TQue, TQueBind, TBuf, TBufPool.
//
// Documented rules followed:
//  * TPipe::InitBuffer(que, num, len) reserves `num` buffers of `len` bytes in the memory of the
//    queue's position (each rounded up to 32 bytes: the rounded length is the buffer, so a 32-byte
//    DataCopy into a 4-byte buffer is in bounds; TBuf lengths likewise, and a TBuf of 0 bytes is an empty
//    buffer). The total should fit in UB: the hardware does not check it, so a layout past UB is a warning
//    (`ub-overflow`) and the first access to bytes past UB is the error (`ub-overflow-access`).
//    Cube positions have their own memories (tensor.h mem_of): A1/B1/C1 in L1 (512 KB,
//    `l1-overflow`), A2 in L0A and B2 in L0B (64 KB each, buffers start on 512-byte fractal
//    boundaries, `l0a-overflow` / `l0b-overflow`), CO1 in L0C (128 KB, `l0c-overflow`), C2 in the
//    bias table (`bt-overflow`); each memory has its own allocation cursor. TSCM<pos, depth> is
//    TQueBind<pos, TSCM, depth>: its buffers are in L1.
//  * AllocTensor takes a free buffer of the queue; asking for more buffers than InitBuffer
//    gave hangs the hardware (`alloc-exhausted`).
//  * EnQue/DeQue pass a tensor between pipeline stages in FIFO order; DeQue on an empty
//    queue waits forever on hardware (`deque-empty`, reported as the deadlock it is).
//  * FreeTensor returns the buffer; any later use of that tensor is `use-after-free`.
//  * TBuf::Get gives scratch space with no queue discipline (on a TBuf InitBuffer never laid out, a
//    tensor of 0 elements and a `queue-uninit` warning: only an access to it is the error; Get(len) longer
//    than the buffer, which CANN asserts only in CPU-debug builds, is a `tbuf-get-too-long` warning and a
//    tensor bounded by the buffer); TBufPool carves a region
//    that queues and buffers can then be initialised in, and Reset reuses it.
//  * TQue / TQueBind / TBuf are copyable, as CANN declares them (no deleted copy; published kernels pass
//    them by value): a copy is a handle to the same buffers. Tensors a copy allocates, gets or frees are
//    those buffers (their in-use state and lifetime are shared); the copy keeps its own list of
//    enqueued tensors and allocation cursor, starting from the original's.
//
// @api TPipe TQue TQueBind TSCM TBuf TBufPool InitBuffer AllocTensor FreeTensor EnQue DeQue TQueConfig
// @api VacantInQue HasTensorInQue GetTensorCountInQue HasIdleBuffer Get GetWithOffset InitBufPool
// @api AllocEventID ReleaseEventID FetchEventID Reset Destroy HardEvent TEventID GetTPipePtr EXTERN_IMPL_BUFPOOL InitBufHandle
// @api TBufHandle
#pragma once
#include <array>
#include <deque>
#include <mutex>
#include <vector>

#include "kgen_sim/tensor.h"

namespace AscendC {

/// Pipe-to-pipe synchronisation events: the producer pipe, then the consumer pipe.
enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
    MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
    S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX,
    FIX_MTE1, FIX_FIX, MAX,
};
using TEventID = int8_t;

}  // namespace AscendC

namespace kgen {

/// Bump allocator over one core's UB (or a TBufPool region of it), or over one cube memory.
/// Buffer slots (a buffer's UB offset, length and generation) live in a process-wide pool that is never
/// freed while the program runs, not inside the TBuf/TQue object: on hardware a LocalTensor is an
/// address into UB, so a tensor taken from a TBuf or queue stays usable after that object is destroyed
/// (Catlass keeps the tensor and drops a local TBuf). FreeTensor still bumps the generation, so a use
/// after FreeTensor is still `use-after-free`.
template <size_t N>
inline BufferSlot* pooled_slots() {
    static std::mutex mu;
    static std::deque<std::array<BufferSlot, N>> pool;
    std::lock_guard<std::mutex> lock(mu);
    pool.emplace_back();
    return pool.back().data();
}

/// InitBuffer's length rule: a buffer of `len` bytes occupies (and may be accessed up to) `len` rounded up
/// to a multiple of 32 bytes (one data block), so a 4-byte buffer holds a full 32-byte DataCopy.
inline constexpr uint32_t round_len32(uint32_t len) { return (len + 31u) / 32u * 32u; }

struct UbArena {
    uint32_t base = 0;
    uint32_t limit = UB_USABLE;
    uint32_t cursor = 0;
    const char* name = "TPipe";
    Mem mem = Mem::UB;

    uint32_t take(uint32_t bytes, const char* what) {
        const uint32_t align = mem_align(mem);
        uint32_t rounded = (bytes + align - 1) / align * align;
        if (uint64_t(base) + cursor + rounded > uint64_t(base) + limit) {
            // TPipe's own layout past the end of UB: the hardware does not check it, so a warning; the buffer
            // lies in the shadow behind UB and its first access is the error (LocalTensor::check)
            if (mem == Mem::UB && base == 0 && limit == UB_USABLE && uint64_t(cursor) + rounded <= uint64_t(UB_SIZE) + UB_SHADOW) {
                warn("ub-overflow", "%s: %s of %u bytes does not fit: %u of %u bytes already in use (Unified Buffer %u B); "
                     "the hardware does not check this, so the run goes on and stops only if the kernel touches bytes past "
                     "the Unified Buffer", name, what, bytes, cursor, limit, UB_SIZE);
                uint32_t off = cursor;
                cursor += rounded;
                if (off + rounded > core().ub_used) core().ub_used = off + rounded;
                return off;
            }
            if (mem == Mem::UB)
                fail("ub-overflow", "%s: %s of %u bytes does not fit: %u of %u bytes already in use (Unified Buffer %u B)",
                     name, what, bytes, cursor, limit, UB_SIZE);
            fail(mem_overflow_code(mem), "%s: %s of %u bytes does not fit in %s: %u of %u bytes already in use (%s %u B)", name, what,
                 bytes, mem_name(mem), cursor, limit, mem_name(mem), mem_size(mem));
        }
        uint32_t off = base + cursor;
        cursor += rounded;
        if (mem == Mem::UB && off + rounded > core().ub_used) core().ub_used = off + rounded;
        return off;
    }
};

}  // namespace kgen

namespace AscendC {

class TPipe;
template <TPosition pos, uint32_t bufIDSize> class TBufPool;

/// The static configuration a TQue / TQueBind may take instead of an int `mask` (its third template
/// argument is then a `const TQueConfig*`), with the documented fields. bufferLen / bufferNumber only let
/// the device compiler lay the queue out ahead of InitBuffer (0: at InitBuffer) and the others are
/// reserved or format conversions dav-2201 does not support: the emulator takes the queue's buffers
/// from InitBuffer in every case.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

/// A handle to one buffer of a queue (CANN's TBufHandle: an opaque pointer).
using TBufHandle = uint8_t*;

/// A queue of UB buffers binding a source and destination position.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    /// The memory holding this queue's buffers (tensor.h mem_of).
    static constexpr kgen::Mem kMem = mem_of(src, dst);
    TQueBind() = default;
    TQueBind(const TQueBind&) = default;              // a handle to the same buffers (file rules)
    TQueBind& operator=(const TQueBind&) = default;

    template <typename T>
    LocalTensor<T> AllocTensor() {
        require_init("AllocTensor");
        // Buffers are handed out round-robin (the next one after the last allocated), so that
        // BUFFER_NUM = 2 alternates between two buffers as double buffering expects.
        for (size_t k = 0; k < slots_.size(); ++k) {
            kgen::BufferSlot& s = slots_[(cursor_ + k) % slots_.size()];
            if (!s.in_use) {
                cursor_ = static_cast<uint8_t>(((cursor_ + k) + 1) % slots_.size());
                s.in_use = true;
                kgen::trace("AllocTensor", kgen::Pipe::S, 0, 0, 0, id_, 0, buf_id(&s), qpos());
                return LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(kMem) + s.offset),
                                            static_cast<uint32_t>(kgen::elems_in<T>(s.bytes)), &s, src, kMem);
            }
        }
        kgen::fail("alloc-exhausted", "AllocTensor on a queue whose %zu buffer(s) are all in use: FreeTensor is missing or "
                   "InitBuffer gave too few buffers (the hardware would wait forever)", slots_.size());
    }
    template <typename T>
    void AllocTensor(LocalTensor<T>& t) { t = AllocTensor<T>(); }

    /// FreeTensor frees the tensor's buffer. A buffer of another queue with the same positions is freed too,
    /// with a `foreign-tensor` warning: on the NPU FreeTensor marks the buffer its handle names free and sets
    /// this queue's release event, which is the owner's event when both queues bind the same positions (CANN
    /// asserts the ownership only in CPU-debug builds; NPUKernelBench's DeepNormGrad frees its mean and rstd
    /// tensors each on the other's queue). Any other queue's buffer stays the error.
    template <typename T>
    void FreeTensor(LocalTensor<T>& t) {
        kgen::BufferSlot* s = own(t, "FreeTensor", /*same_kind_ok=*/true);
        if (!s->in_use || s->generation != t.generation())
            kgen::fail("double-free", "FreeTensor of a tensor whose buffer was already freed");
        for (auto& q : fifo_)
            if (q.slot == s) kgen::fail("free-enqueued", "FreeTensor of a tensor that is still in the queue (EnQue without DeQue)");
        s->in_use = false;
        ++s->generation;
        s->freed_generation = s->generation;
        kgen::trace("FreeTensor", kgen::Pipe::S, 0, 0, 0, s->queue_id, 0, s->trace_buf, qpos());
    }

    template <typename T>
    bool EnQue(const LocalTensor<T>& t) {
        kgen::BufferSlot* s = own(t, "EnQue");
        t.live("EnQue");
        fifo_.push_back(Entry{s, static_cast<uint32_t>(reinterpret_cast<uint8_t*>(t.raw()) - (kgen::core().mem_base(kMem) + s->offset)),
                              static_cast<uint32_t>(t.GetLength())});
        kgen::trace("EnQue", kgen::Pipe::S, 0, 0, 4, id_, 0, buf_id(s), qpos());
        return true;
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T>& t) { return EnQue(t); }

    template <typename T>
    LocalTensor<T> DeQue() {
        Entry e = pop_front("DeQue");
        return LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(kMem) + e.slot->offset + e.byte_offset),
                                    static_cast<uint32_t>(kgen::elems_in<T>(e.bytes)), e.slot, dst, kMem);
    }
    template <typename T>
    void DeQue(LocalTensor<T>& t) { t = DeQue<T>(); }
    /// DeQue without a type (CANN's TBufHandle form): takes the front tensor off the queue and returns a
    /// handle to its buffer (RmsNorm dequeues and drops it, then keeps using the tensor it enqueued).
    TBufHandle DeQue() {
        Entry e = pop_front("DeQue");
        return reinterpret_cast<TBufHandle>(e.slot);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue() { return DeQue<T>(); }

    bool VacantInQue() const { return fifo_.size() < static_cast<size_t>(depth > 0 ? depth : 1) ; }
    bool HasTensorInQue() const { return !fifo_.empty(); }
    int32_t GetTensorCountInQue() const { return static_cast<int32_t>(fifo_.size()); }
    bool HasIdleBuffer() const {
        for (auto& s : slots_) if (!s.in_use) return true;
        return false;
    }
    void FreeAllEvent() {}
    void InitStartBufHandle(...) {}
    /// How a user-defined TBufPool (EXTERN_IMPL_BUFPOOL) lays a queue out: InitStartBufHandle(handle, num, len),
    /// then InitBufHandle(pool, i, handle, address, len) for buffers i = 0 .. num - 1 at UB byte addresses the pool
    /// hands out, one after another (the emulator lays the queue out when the last one arrives).
    template <class H>
    void InitStartBufHandle(H, uint8_t num, uint32_t len) { ext_num_ = num; ext_len_ = len; }
    template <class P, class H>
    void InitBufHandle(P*, uint8_t i, H, uint32_t addr, uint32_t len) {
        const uint32_t align = kgen::mem_align(kMem), rounded = (len + align - 1) / align * align;
        if (i == 0) ext_first_ = addr;
        else if (addr != ext_first_ + i * rounded)
            kgen::fail("bad-initbuffer", "InitBufHandle: buffer %u of the queue at UB byte %u, not right after buffer %u (byte %u): "
                       "a queue's buffers laid out apart are not emulated", i, addr, i - 1, ext_first_ + (i - 1) * rounded);
        if (len != ext_len_ && ext_len_)
            kgen::fail("bad-initbuffer", "InitBufHandle: buffer %u has %u bytes, InitStartBufHandle said %u", i, len, ext_len_);
        if (i + 1u == ext_num_) init(ext_first_, ext_num_, len);
    }

    // ---- emulator-internal ----
    void init(uint32_t first_offset, uint8_t num, uint32_t len) {
        if (num > kMaxBuffers) kgen::fail("bad-initbuffer", "InitBuffer(queue, num=%u): at most %u buffers per queue", num, kMaxBuffers);
        for (auto& s : slots_) {
            if (s.in_use) kgen::fail("queue-reinit", "InitBuffer on a queue that still holds an allocated tensor");
            ++s.generation;  // tensors of an earlier layout are dead
        }
        fifo_.clear();
        cursor_ = 0;
        const uint32_t align = kgen::mem_align(kMem);
        uint32_t rounded = (len + align - 1) / align * align;
        slots_ = Slots(storage_, num);
        for (uint8_t i = 0; i < num; ++i) {
            slots_[i].offset = first_offset + i * rounded;
            slots_[i].bytes = kgen::round_len32(len);   // the buffer is len rounded up to 32 bytes, as on hardware
            slots_[i].owner = "TQue";
            slots_[i].in_use = false;
        }
        id_ = kgen::next_queue_id();
        for (auto& s : slots_) {
            s.queue_pos = qpos();
            s.queue_id = id_;
            s.trace_buf = buf_id(&s);
        }
    }

private:
    struct Entry {
        kgen::BufferSlot* slot;
        uint32_t byte_offset;
        uint32_t bytes;
    };
    /// The front entry taken off the queue (the DeQue forms share it); an empty queue is `deque-empty`.
    Entry pop_front(const char* api) {
        require_init(api);
        if (fifo_.empty())
            kgen::fail("deque-empty", "DeQue on an empty queue: nothing was EnQue'd, so the hardware would wait forever (deadlock)");
        Entry e = fifo_.front();
        fifo_.pop_front();
        kgen::trace("DeQue", kgen::Pipe::S, 0, 0, 5, id_, 0, buf_id(e.slot), qpos());
        return e;
    }
    void require_init(const char* api) const {
        if (slots_.empty()) kgen::fail("queue-uninit", "%s on a queue that TPipe::InitBuffer never initialised", api);
    }
    /// Trace identity of a buffer (performance model): queue id * 64 + slot index.
    int32_t buf_id(const kgen::BufferSlot* s) const { return id_ * 64 + static_cast<int32_t>(s - slots_.data()); }
    static constexpr int16_t qpos() { return static_cast<int16_t>(static_cast<int>(src) * 32 + static_cast<int>(dst)); }
    /// The tensor's buffer, which must be one of this queue's (`foreign-tensor`); with `same_kind_ok`, a buffer
    /// of another queue binding the same positions is a warning (FreeTensor above).
    template <typename T>
    kgen::BufferSlot* own(const LocalTensor<T>& t, const char* api, bool same_kind_ok = false) {
        require_init(api);
        kgen::BufferSlot* s = t.slot();
        if (!t.valid()) kgen::fail("tensor-unallocated", "%s of a LocalTensor that was never allocated", api);
        if (!s || s < slots_.data() || s >= slots_.data() + slots_.size()) {
            if (!(same_kind_ok && s && s->queue_pos == qpos()))
                kgen::fail("foreign-tensor", "%s of a tensor that does not belong to this queue", api);
            kgen::warn("foreign-tensor", "%s of a tensor of another queue with the same positions: the NPU frees that "
                       "buffer (CANN checks the owner only in CPU-debug builds), and so does the emulator", api);
        }
        return s;
    }
    static constexpr uint32_t kMaxBuffers = 32;
    uint8_t ext_num_ = 0;        // InitStartBufHandle (user-defined TBufPool)
    uint32_t ext_len_ = 0, ext_first_ = 0;
    /// Fixed storage so LocalTensors can point at their slot for the queue's whole life.
    struct Slots {
        kgen::BufferSlot* p = nullptr;
        size_t n = 0;
        Slots() = default;
        Slots(kgen::BufferSlot* p_, size_t n_) : p(p_), n(n_) {}
        kgen::BufferSlot* begin() const { return p; }
        kgen::BufferSlot* end() const { return p + n; }
        kgen::BufferSlot& operator[](size_t i) const { return p[i]; }
        size_t size() const { return n; }
        bool empty() const { return n == 0; }
        kgen::BufferSlot* data() const { return p; }
    };
    kgen::BufferSlot* storage_ = kgen::pooled_slots<kMaxBuffers>();   // outlives the queue (see pooled_slots)
    Slots slots_;
    std::deque<Entry> fifo_;
    int id_ = 0;
    uint8_t cursor_ = 0;  // next buffer AllocTensor tries first
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

/// A queue into the TSCM position (L1 of the cube core, fed from GM or VECIN): the documented alias
/// TQueBind<pos, TPosition::TSCM, depth, mask>.
template <TPosition pos, int32_t depth, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

/// Scratch buffer: one UB region, no queue discipline.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    static constexpr kgen::Mem kMem = mem_of(pos);
    TBuf() = default;
    TBuf(const TBuf&) = default;              // a handle to the same buffer (file rules)
    TBuf& operator=(const TBuf&) = default;

    template <typename T>
    LocalTensor<T> Get() {
        if (!inited_) return uninit_view<T>("Get");
        return LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(kMem) + slot_->offset), static_cast<uint32_t>(kgen::elems_in<T>(slot_->bytes)), slot_, pos);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t len) {
        if (!inited_) return uninit_view<T>("Get");
        if (kgen::bytes_of<T>(len) > slot_->bytes) {
            // CANN checks this only in CPU-debug builds; on the NPU Get records the length and nothing happens
            // until an access: a warning, and a tensor bounded by its buffer (an access past it is the error)
            const uint32_t whole = static_cast<uint32_t>(kgen::elems_in<T>(slot_->bytes));
            kgen::warn("tbuf-get-too-long", "TBuf::Get<%zu-byte type>(%u) asks for %llu bytes of a %u-byte buffer: the NPU "
                       "does not check it; the emulator bounds the tensor by its buffer (%u elements, which GetSize() "
                       "reports) and stops at an access past it", sizeof(T), len, (unsigned long long)kgen::bytes_of<T>(len),
                       slot_->bytes, whole);
            len = whole;
        }
        return LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(kMem) + slot_->offset), len, slot_, pos);
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
        require_init("GetWithOffset");
        if (uint64_t(bufOffset) + kgen::bytes_of<T>(size) > slot_->bytes)
            kgen::fail("ub-out-of-bounds", "TBuf::GetWithOffset(%u elements, %u bytes) runs past the %u-byte buffer", size, bufOffset,
                       slot_->bytes);
        slot_->carved = true;   // views of this buffer now have neighbours: each is bounded by its own length
        return LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(kMem) + slot_->offset + bufOffset), size, slot_, pos);
    }
    template <typename T>
    LocalTensor<T> AllocTensor() { return Get<T>(); }
    template <typename T>
    void FreeTensor(LocalTensor<T>&) {}
    template <typename T>
    bool EnQue(const LocalTensor<T>&) { return true; }
    template <typename T>
    LocalTensor<T> DeQue() { return Get<T>(); }

    /// A user-defined TBufPool (EXTERN_IMPL_BUFPOOL) lays the buffer out at UB byte `addr` (len rounded up to 32).
    template <class H>
    void InitStartBufHandle(H, uint8_t, uint32_t) {}
    template <class P, class H>
    void InitBufHandle(P*, uint8_t, H, uint32_t addr, uint32_t len) { init(addr, kgen::round_len32(len)); }

    // ---- emulator-internal ----
    void init(uint32_t offset, uint32_t len) {
        ++slot_->generation;  // tensors of an earlier layout are dead
        slot_->offset = offset;
        slot_->bytes = len;
        slot_->owner = "TBuf";
        slot_->in_use = true;
        slot_->scratch = true;
        slot_->carved = false;
        inited_ = true;
    }

private:
    /// TBuf::Get on a buffer InitBuffer never laid out. On hardware the TBuf's address and length are
    /// still 0, so Get hands out a tensor of 0 elements and nothing happens until it is accessed
    /// (TanhMath takes such a tensor on its float32 path and never uses it): a warning, and a tensor of
    /// 0 elements whose first access is `ub-out-of-bounds`.
    template <typename T>
    LocalTensor<T> uninit_view(const char* api) {
        kgen::warn("queue-uninit", "TBuf::%s on a buffer that TPipe::InitBuffer never initialised: a tensor of 0 elements "
                   "(the hardware's address and length of an uninitialised TBuf); accessing it is the error", api);
        return LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(kMem)), 0, nullptr, pos);
    }
    void require_init(const char* api) const {
        if (!inited_) kgen::fail("queue-uninit", "TBuf::%s on a buffer that TPipe::InitBuffer never initialised", api);
    }
    kgen::BufferSlot* slot_ = kgen::pooled_slots<1>();   // outlives the TBuf (see pooled_slots)
    bool inited_ = false;
};

/// Shared allocation logic of TPipe and TBufPool.
class BufferOwner {
public:
    BufferOwner() {
        for (int m = 1; m < kgen::MEM_COUNT; ++m) {
            arenas_[m].mem = static_cast<kgen::Mem>(m);
            arenas_[m].limit = kgen::mem_size(arenas_[m].mem);
        }
    }
    template <TPosition s, TPosition d, int32_t depth, auto mask>
    bool InitBuffer(TQueBind<s, d, depth, mask>& que, uint8_t num, uint32_t len) {
        // len = 0 is accepted, as for a TBuf: CANN asserts len > 0 only in CPU-debug builds, and on the NPU the
        // queue's buffers are empty (AllocTensor gives tensors of 0 elements; AddSigmoidMulReduceSumD lays out
        // such queues on cores that get no rows)
        if (num == 0) kgen::fail("bad-initbuffer", "InitBuffer(queue, num=%u, len=%u): num must be positive", num, len);
        constexpr kgen::Mem mem = TQueBind<s, d, depth, mask>::kMem;
        constexpr uint32_t align = kgen::mem_align(mem);
        uint32_t rounded = (len + align - 1) / align * align;
        uint32_t off = arena(mem).take(rounded * num, "InitBuffer(queue)");
        que.init(off, num, len);
        kgen::trace("InitBuffer", kgen::Pipe::S, 0);
        return true;
    }
    template <TPosition p>
    bool InitBuffer(TBuf<p>& buf, uint32_t len) {
        // len = 0 is accepted, as on hardware: an empty buffer (Get gives a tensor of 0 elements)
        len = kgen::round_len32(len);     // rounded up to 32 bytes, as on hardware (see the file's rules)
        uint32_t off = arena(TBuf<p>::kMem).take(len, "InitBuffer(TBuf)");
        buf.init(off, len);
        return true;
    }
    template <TPosition p, uint32_t n>
    bool InitBufPool(TBufPool<p, n>& pool, uint32_t len);
    /// A user-defined pool (a class with EXTERN_IMPL_BUFPOOL): `len` bytes of its position's memory.
    template <class Pool, std::enable_if_t<Pool::isTbufPool, int> = 0>
    bool InitBufPool(Pool& pool, uint32_t len) {
        constexpr kgen::Mem mem = mem_of(Pool::poolPos);
        const uint32_t rounded = (len + kgen::ONE_BLK - 1) / kgen::ONE_BLK * kgen::ONE_BLK;
        pool.kgen_ext_region(arena(mem).take(rounded, "InitBufPool"), rounded);
        return true;
    }
    template <TPosition p, uint32_t n, TPosition p2, uint32_t n2>
    bool InitBufPool(TBufPool<p, n>& pool, uint32_t len, TBufPool<p2, n2>& shareWith);

protected:
    /// One allocation cursor per memory (index: kgen::Mem).
    kgen::UbArena arenas_[kgen::MEM_COUNT];
    kgen::UbArena& arena(kgen::Mem m) { return arenas_[static_cast<int>(m)]; }
    void reset_all() { for (auto& a : arenas_) a.cursor = 0; }
};

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool : public BufferOwner {
public:
    /// Reuse the whole pool region; queues initialised in it must be initialised again.
    void Reset() { reset_all(); }
    /// Queues and buffers of the pool are laid out in [base, base+len) of memory `mem`; the pool
    /// holds nothing in the other memories.
    /// Start of the pool's region in memory `mem` (InitBufPool with shareWith lays a pool over another's).
    uint32_t region_base(kgen::Mem mem) const { return arenas_[static_cast<int>(mem)].base; }
    void init_region(uint32_t base, uint32_t len, kgen::Mem mem = kgen::Mem::UB) {
        for (auto& a : arenas_) { a.limit = 0; a.cursor = 0; a.name = "TBufPool"; a.base = 0; }
        arena(mem).base = base;
        arena(mem).limit = len;
    }
};

template <TPosition p, uint32_t n>
bool BufferOwner::InitBufPool(TBufPool<p, n>& pool, uint32_t len) {
    constexpr kgen::Mem mem = mem_of(p);
    uint32_t off = arena(mem).take(len, "InitBufPool");
    pool.init_region(off, (len + kgen::ONE_BLK - 1) / kgen::ONE_BLK * kgen::ONE_BLK, mem);
    return true;
}
template <TPosition p, uint32_t n, TPosition p2, uint32_t n2>
bool BufferOwner::InitBufPool(TBufPool<p, n>& pool, uint32_t len, TBufPool<p2, n2>& shareWith) {
    pool.init_region(shareWith.region_base(mem_of(p2)), len, mem_of(p));  // the same bytes as shareWith
    return true;
}

class TPipe;
/// The pipe the current core constructed last (GetTPipePtr()).
inline thread_local TPipe* tls_current_pipe = nullptr;

class TPipe : public BufferOwner {
public:
    TPipe() { kgen::core().ub_used = 0; tls_current_pipe = this; }
    ~TPipe() { if (tls_current_pipe == this) tls_current_pipe = nullptr; }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;
    /// Release every buffer so InitBuffer can lay UB out again (queues must be re-initialised).
    void Reset() { reset_all(); }
    void Destroy() { reset_all(); }
    void Init() {}
    template <HardEvent evt>
    TEventID AllocEventID() { return next_event_++ & 7; }
    template <HardEvent evt>
    void ReleaseEventID(TEventID) {}
    TEventID FetchEventID(HardEvent) { return next_event_++ & 7; }
    template <HardEvent evt>
    TEventID FetchEventID() { return next_event_++ & 7; }

private:
    TEventID next_event_ = 0;
};

}  // namespace AscendC

/// The TPipe the calling core is using (documented global accessor).
inline AscendC::TPipe* GetTPipePtr() {
    if (!AscendC::tls_current_pipe) kgen::fail("no-tpipe", "GetTPipePtr() before any TPipe was constructed on this core");
    return AscendC::tls_current_pipe;
}
namespace AscendC { using ::GetTPipePtr; }

namespace kgen {
/// The state EXTERN_IMPL_BUFPOOL gives a user-defined TBufPool: its region (from InitBufPool), the address the
/// next buffer takes and how many buffers it handed out.
struct ExtBufPool {
    uint32_t start = 0, len = 0, cur_addr = 0;
    uint8_t cur_bufs = 0;
    uint8_t handles[64] = {};  // GetBufHandle's handles: addresses only, the emulator keeps no state behind them
};
}  // namespace kgen

/// A user-defined TBufPool (EXTERN_IMPL_BUFPOOL page): the class lays queues and buffers out itself in the region
/// InitBufPool gives it, through GetCurAddr / SetCurAddr, GetCurBufSize / SetCurBufSize, GetBufHandle and the
/// queues' InitStartBufHandle / InitBufHandle; Reset hands the whole region out again.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                   \
public:                                                                                                          \
    static constexpr AscendC::TPosition poolPos = POSITION;                                                     \
    static constexpr int32_t bufIDSize = BUFID_SIZE;                                                            \
    static constexpr bool isTbufPool = true;                                                                    \
    void Init() { kgen_ext_ = kgen::ExtBufPool{}; }                                                              \
    void Reset() {                                                                                               \
        kgen_ext_.cur_addr = kgen_ext_.start;                                                                    \
        kgen_ext_.cur_bufs = 0;                                                                                  \
    }                                                                                                            \
    uint8_t* GetBufHandle(uint8_t i) { return kgen_ext_.handles + (i % 64); }                                    \
    uint32_t GetStartAddr() const { return kgen_ext_.start; }                                                   \
    uint32_t GetCurAddr() const { return kgen_ext_.cur_addr; }                                                  \
    void SetCurAddr(uint32_t addr) {                                                                             \
        if (addr > kgen_ext_.start + kgen_ext_.len)                                                              \
            kgen::fail("ub-overflow", #EXT_BUFPOOL ": SetCurAddr(%u) past the end of its InitBufPool region [%u, %u)", \
                       addr, kgen_ext_.start, kgen_ext_.start + kgen_ext_.len);                                  \
        kgen_ext_.cur_addr = addr;                                                                               \
    }                                                                                                            \
    uint8_t GetCurBufSize() const { return kgen_ext_.cur_bufs; }                                                \
    void SetCurBufSize(uint8_t n) { kgen_ext_.cur_bufs = n; }                                                    \
    void kgen_ext_region(uint32_t start, uint32_t len) {                                                         \
        kgen_ext_.start = kgen_ext_.cur_addr = start;                                                            \
        kgen_ext_.len = len;                                                                                     \
        kgen_ext_.cur_bufs = 0;                                                                                  \
    }                                                                                                            \
    kgen::ExtBufPool kgen_ext_

