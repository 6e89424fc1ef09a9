// kgen AscendC CPU emulator -- synchronisation between blocks through GM, task-level sync, scalar GM
// atomics and scalar GM accesses that bypass the data cache.
//
// Documented rules followed (dav-2201 pages of IBSet/IBWait, InitDetermineComputeWorkspace/WaitPreBlock/
// NotifyNextBlock, SetNextTaskStart/WaitPreTaskEnd, AtomicAdd/Max/Min/Cas/Exch, Read/WriteGmByPassDCache,
// DataSyncBarrier):
//  * IBSet(gm, ub, blockIdx, eventID) / IBWait(same): a flag of 32 bytes per (event, block) in gm, at
//    int32 index (cores * eventID + blockIdx) * 8, where cores = GetBlockNum() (twice that for
//    isAIVOnly = false); gm must start zeroed. IBSet waits until the flag is 0, then writes 1; IBWait
//    waits until it is 1, then writes 0 back. ub is a 32-byte staging buffer. A wait that nobody can end
//    (every other block has returned) hangs the hardware: `blocksync-deadlock`.
//  * InitDetermineComputeWorkspace(gm, ub) prepares a sequence in which blocks pass WaitPreBlock strictly
//    in blockIdx order, round after round: block b's n-th WaitPreBlock returns once every block before it
//    has called NotifyNextBlock n+1 times and every block after it n times (the turn n * blocks + b). gm needs GetBlockNum() * 32 bytes, ub GetBlockNum() * 32 + 32 bytes;
//    gm need not be zeroed. A WaitPreBlock before InitDetermineComputeWorkspace is `blocksync-uninit`.
//  * SetNextTaskStart / WaitPreTaskEnd let consecutive kernels of a SuperKernel overlap; kernels run one
//    after another on the emulator, so both only mark the trace.
//  * Scalar atomics on one GM element, atomic across all cores, returning the old value: AtomicAdd / AtomicMax
//    / AtomicMin (int32, uint32, float, int64, uint64), AtomicCas (old == value1 ? value2 : old) and
//    AtomicExch (uint32, uint64). Other types do not compile.
//  * ReadGmByPassDCache / WriteGmByPassDCache read / write one GM element directly (integer types of 1-8
//    bytes). The emulator has no data cache (see data_cache.h), so they are plain, atomic, accesses;
//    DataSyncBarrier<MemDsbT> orders memory accesses: a full fence here.
//
// @api IBSet IBWait InitDetermineComputeWorkspace WaitPreBlock NotifyNextBlock SetNextTaskStart WaitPreTaskEnd
// @api AtomicAdd AtomicMax AtomicMin AtomicCas AtomicExch ReadGmByPassDCache WriteGmByPassDCache
//  * GroupBarrier<PipeMode>(workspace, arriveSize, waitSize): blocks of an "arrive" group call Arrive(i)
//    (0 <= i < arriveSize) when their part is done; blocks of a "wait" group call Wait(j) (0 <= j < waitSize)
//    and return once every arrive-group member has arrived at least as often as this waiter has waited
//    (loops work round by round). The GM workspace takes waitSize * 512 bytes (GetWorkspaceLen), zeroed by the user.
//    Outside those ranges: `blocksync-params`; a Wait no block can end: `blocksync-deadlock`. (The NPU
//    also keeps the last 1600 bytes of UB for it; the emulator does not model that.)
//
// @api DataSyncBarrier MemDsbT GroupBarrier PipeMode
#pragma once
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "kgen_sim/launch.h"
#include "kgen_sim/sync.h"

namespace kgen {
namespace blocksync {

/// True when every block of the launch but the caller has returned from the kernel: nobody is left to end
/// a wait.
inline bool nobody_left() {
    CoreContext& c = core();
    if (!c.launch) return true;
    std::lock_guard<std::mutex> g(c.launch->mu);
    return c.launch->finished + 1 >= c.launch->block_num;
}

/// Spin (then sleep) until ready(); a wait nobody can end is the hang it would be on hardware.
template <class F>
inline void wait_until(F ready, const char* what) {
    for (uint32_t spins = 0; !ready(); ++spins) {
        if (spins % 64 == 63 && nobody_left() && !ready())
            fail("blocksync-deadlock", "%s: every other block has returned from the kernel, so nothing can end this wait "
                 "(the hardware would hang here)", what);
        if (spins > 64) std::this_thread::sleep_for(std::chrono::microseconds(50));
        else std::this_thread::yield();
    }
}

/// The WaitPreBlock / NotifyNextBlock state of one launch and workspace: counts per block.
struct Sequence {
    std::atomic<int64_t> turn{0};  // NotifyNextBlock calls so far, all blocks together
    std::vector<int64_t> waited;   // each block touches only its own entry
    std::vector<uint8_t> inited;
    explicit Sequence(size_t n) : waited(n, 0), inited(n, 0) {}
};
inline std::shared_ptr<Sequence> sequence(const void* gm, uint32_t blocks) {
    static std::mutex mu;
    static std::map<std::pair<const void*, const void*>, std::shared_ptr<Sequence>> all;
    std::lock_guard<std::mutex> g(mu);
    auto& s = all[{static_cast<const void*>(core().launch), gm}];
    if (!s || s->waited.size() != blocks) s = std::make_shared<Sequence>(blocks);
    return s;
}

template <class T, class... A>
inline constexpr bool any_of_v = (std::is_same_v<T, A> || ...);
template <class T>
inline constexpr bool atomic_arith_v = any_of_v<T, int32_t, uint32_t, float, int64_t, uint64_t>;
template <class T>
inline constexpr bool atomic_swap_v = any_of_v<T, uint32_t, uint64_t>;
template <class T>
inline constexpr bool bypass_v = std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 8;

/// A read-modify-write of one GM element, atomic across cores (a CAS loop; floats compared bitwise).
template <class T, class F>
inline T rmw(T* p, F f, const char* api) {
    check_gm_allocation(p, sizeof(T), api, GmAccess::Write);
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    U* u = reinterpret_cast<U*>(p);
    U old = __atomic_load_n(u, __ATOMIC_SEQ_CST);
    for (;;) {
        T ov;
        std::memcpy(&ov, &old, sizeof(T));
        T nv = f(ov);
        U nu;
        std::memcpy(&nu, &nv, sizeof(T));
        if (__atomic_compare_exchange_n(u, &old, nu, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            trace(api, Pipe::S, sizeof(T));
            return ov;
        }
    }
}

}  // namespace blocksync
}  // namespace kgen

namespace AscendC {

// ---- IBSet / IBWait ------------------------------------------------------------------------------
namespace kgen_ib {
template <bool isAIVOnly>
inline int32_t* flag(const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub, int32_t blockIdx, int32_t eventID,
                     const char* api) {
    const int64_t cores = kgen::core().block_num * (isAIVOnly ? 1 : 2);
    if (blockIdx < 0 || blockIdx >= cores || eventID < 0)
        kgen::fail("blocksync-params", "%s(blockIdx %d, eventID %d): blockIdx must be in [0, %lld) and eventID >= 0", api, blockIdx,
                   eventID, (long long)cores);
    const uint64_t at = (uint64_t(cores) * eventID + blockIdx) * 8;
    gm.check(at, 8, api);
    ub.check(0, 8, api);
    return gm.raw() + at;
}
}  // namespace kgen_ib

template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID) {
    int32_t* f = kgen_ib::flag<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, "IBSet");
    kgen::trace("IBSet", kgen::Pipe::ALL, 32, 0, 3);
    kgen::blocksync::wait_until([&] {
        int32_t zero = 0;
        return __atomic_compare_exchange_n(f, &zero, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }, "IBSet waits for its flag to be cleared by an IBWait");
    ubWorkspace.raw()[0] = 1;
}

template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                   int32_t eventID) {
    int32_t* f = kgen_ib::flag<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, "IBWait");
    kgen::trace("IBWait", kgen::Pipe::ALL, 32, 0, 3);
    kgen::blocksync::wait_until([&] {
        int32_t one = 1;
        return __atomic_compare_exchange_n(f, &one, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }, "IBWait waits for an IBSet of its (blockIdx, eventID) flag");
    ubWorkspace.raw()[0] = 0;
}

// ---- sequential blocks: InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock ----------------
namespace kgen_seq {
inline std::shared_ptr<kgen::blocksync::Sequence> state(GlobalTensor<int32_t>& gm, LocalTensor<int32_t>& ub, const char* api) {
    const uint32_t blocks = static_cast<uint32_t>(kgen::core().block_num);
    gm.check(0, uint64_t(blocks) * 8, api);
    ub.check(0, uint64_t(blocks) * 8 + 8, api);
    return kgen::blocksync::sequence(gm.raw(), blocks);
}
}  // namespace kgen_seq

inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
    auto s = kgen_seq::state(gmWorkspace, ubWorkspace, "InitDetermineComputeWorkspace");
    const uint32_t me = static_cast<uint32_t>(kgen::core().block_idx);
    s->inited[me] = 1;
    __atomic_store_n(&gmWorkspace.raw()[uint64_t(me) * 8], 0, __ATOMIC_SEQ_CST);
    kgen::trace("InitDetermineComputeWorkspace", kgen::Pipe::ALL, 32, 0, 3);
}

inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
    auto s = kgen_seq::state(gmWorkspace, ubWorkspace, "WaitPreBlock");
    const uint32_t me = static_cast<uint32_t>(kgen::core().block_idx);
    if (!s->inited[me])
        kgen::fail("blocksync-uninit", "WaitPreBlock before InitDetermineComputeWorkspace on this block (the workspace holds "
                   "no sequence state)");
    const int64_t mine = s->waited[me]++ * int64_t(s->waited.size()) + me;   // this block's turn
    kgen::trace("WaitPreBlock", kgen::Pipe::ALL, 32, 0, 3);
    kgen::blocksync::wait_until([&] { return s->turn.load() >= mine; },
                                "WaitPreBlock waits for the NotifyNextBlock of the block before it");
}

inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
    auto s = kgen_seq::state(gmWorkspace, ubWorkspace, "NotifyNextBlock");
    const uint32_t me = static_cast<uint32_t>(kgen::core().block_idx);
    const int64_t n = ++s->turn;
    __atomic_store_n(&gmWorkspace.raw()[uint64_t(me) * 8], static_cast<int32_t>(n), __ATOMIC_SEQ_CST);
    kgen::trace("NotifyNextBlock", kgen::Pipe::ALL, 32, 0, 3);
}

// ---- task sync (SuperKernel early start): kernels run one after another here ------------------------
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
inline void SetNextTaskStart() { kgen::trace("SetNextTaskStart", kgen::Pipe::S, 0); }
template <bool FORCE = false>
inline void WaitPreTaskEnd() { kgen::trace("WaitPreTaskEnd", kgen::Pipe::S, 0); }

// ---- scalar GM atomics ----------------------------------------------------------------------------
template <typename T>
inline T AtomicAdd(__gm__ T* address, T value) {
    static_assert(kgen::blocksync::atomic_arith_v<T>, "AtomicAdd supports int32_t, uint32_t, float, int64_t and uint64_t");
    return kgen::blocksync::rmw(address, [&](T o) { return static_cast<T>(o + value); }, "AtomicAdd");
}
template <typename T>
inline T AtomicMax(__gm__ T* address, T value) {
    static_assert(kgen::blocksync::atomic_arith_v<T>, "AtomicMax supports int32_t, uint32_t, float, int64_t and uint64_t");
    return kgen::blocksync::rmw(address, [&](T o) { return o < value ? value : o; }, "AtomicMax");
}
template <typename T>
inline T AtomicMin(__gm__ T* address, T value) {
    static_assert(kgen::blocksync::atomic_arith_v<T>, "AtomicMin supports int32_t, uint32_t, float, int64_t and uint64_t");
    return kgen::blocksync::rmw(address, [&](T o) { return value < o ? value : o; }, "AtomicMin");
}
template <typename T>
inline T AtomicCas(__gm__ T* address, T value1, T value2) {
    static_assert(kgen::blocksync::atomic_swap_v<T>, "AtomicCas supports uint32_t and uint64_t");
    return kgen::blocksync::rmw(address, [&](T o) { return o == value1 ? value2 : o; }, "AtomicCas");
}
template <typename T>
inline T AtomicExch(__gm__ T* address, T value) {
    static_assert(kgen::blocksync::atomic_swap_v<T>, "AtomicExch supports uint32_t and uint64_t");
    return kgen::blocksync::rmw(address, [&](T) { return value; }, "AtomicExch");
}

// ---- GM accesses that bypass the data cache --------------------------------------------------------
template <typename T>
inline T ReadGmByPassDCache(__gm__ T* addr) {
    static_assert(kgen::blocksync::bypass_v<T>, "ReadGmByPassDCache supports 1- to 8-byte integer types");
    kgen::check_gm_allocation(addr, sizeof(T), "ReadGmByPassDCache", kgen::GmAccess::Read);
    kgen::trace("ReadGmByPassDCache", kgen::Pipe::S, sizeof(T));
    return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}
template <typename T>
inline void WriteGmByPassDCache(__gm__ T* addr, T value) {
    static_assert(kgen::blocksync::bypass_v<T>, "WriteGmByPassDCache supports 1- to 8-byte integer types");
    kgen::check_gm_allocation(addr, sizeof(T), "WriteGmByPassDCache", kgen::GmAccess::Write);
    kgen::trace("WriteGmByPassDCache", kgen::Pipe::S, sizeof(T));
    __atomic_store_n(addr, value, __ATOMIC_SEQ_CST);
}

// ---- GroupBarrier ----------------------------------------------------------------------------------
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

namespace kgen_gb {
struct State {
    std::vector<std::atomic<int64_t>> arrived;   // Arrive calls of each arrive-group member
    std::vector<int64_t> waits;                  // rounds each waiter has passed
    explicit State(uint32_t a) : arrived(a) {}
};
inline std::shared_ptr<State> state(const void* ws, uint32_t arrivers, uint32_t waiters) {
    static std::mutex mu;
    static std::map<std::pair<const void*, const void*>, std::shared_ptr<State>> all;
    std::lock_guard<std::mutex> g(mu);
    auto& s = all[{static_cast<const void*>(kgen::core().launch), ws}];
    if (!s || s->waits.size() != waiters || s->arrived.size() != arrivers) {
        s = std::make_shared<State>(arrivers);
        s->waits.assign(waiters, 0);
    }
    return s;
}
}  // namespace kgen_gb

template <PipeMode pipeMode>
class GroupBarrier {
public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : ws_(groupWorkspace), arrive_(arriveSizeIn), wait_(waitSizeIn) {
        if (!arriveSizeIn || !waitSizeIn)
            kgen::fail("blocksync-params", "GroupBarrier(arriveSize %u, waitSize %u): both must be positive", arriveSizeIn, waitSizeIn);
        kgen::check_gm_allocation(groupWorkspace, GetWorkspaceLen(), "GroupBarrier (workspace: waitSize * 512 bytes)",
                                  kgen::GmAccess::Write);
        st_ = kgen_gb::state(groupWorkspace, arriveSizeIn, waitSizeIn);
    }
    void Arrive(uint32_t arriveIndex) {
        if (arriveIndex >= arrive_)
            kgen::fail("blocksync-params", "GroupBarrier::Arrive(%u): the arrive group has %u members", arriveIndex, arrive_);
        kgen::trace("GroupBarrier::Arrive", kgen::Pipe::ALL, 32, 0, 3);
        ++st_->arrived[arriveIndex];
    }
    void Wait(uint32_t waitIndex) {
        if (waitIndex >= wait_)
            kgen::fail("blocksync-params", "GroupBarrier::Wait(%u): the wait group has %u members", waitIndex, wait_);
        const int64_t need = ++st_->waits[waitIndex];
        kgen::trace("GroupBarrier::Wait", kgen::Pipe::ALL, 32, 0, 3);
        kgen::blocksync::wait_until([&] {
            for (auto& a : st_->arrived)
                if (a.load() < need) return false;
            return true;
        },
                                    "GroupBarrier::Wait waits for every member of the arrive group");
    }
    uint64_t GetWorkspaceLen() { return uint64_t(wait_) * 512; }

private:
    GM_ADDR ws_;
    uint32_t arrive_, wait_;
    std::shared_ptr<kgen_gb::State> st_;
};

/// The memory a DataSyncBarrier waits for: all, DDR (GM) or UB accesses.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
inline void DataSyncBarrier() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    kgen::trace("DataSyncBarrier", kgen::Pipe::ALL, 0, 0, 3);
}

}  // namespace AscendC
