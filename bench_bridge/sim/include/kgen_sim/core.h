// kgen AscendC CPU emulator -- the runtime layer every API family calls.
//
// One place for: the qualifiers (empty on the CPU, as in CANN's own CPU debug mode),
// the hardware constants of dav-2201, the per-core context (block index, Unified Buffer),
// diagnostics that name the kernel source line, the registry of device (GM) allocations
// used for bounds checks, and the per-core instruction trace for the performance model.
#pragma once
#include <atomic>
#include <execinfo.h>
#include <string>
#include <unordered_map>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <map>
#include <string>
#include <vector>

#include "kgen_sim/half.h"
#include "kgen_sim/soc_table.h"

// ---- qualifiers: empty on the CPU -------------------------------------------------------
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __vector__
#define __vector__
#endif
// Kernel-entry qualifiers that fix the core type of a kernel-launch program (launch.h reads them back):
// a `__cube__` entry runs on cube cores (AIC) only, `__mix__(c, v)` on c AIC + v AIV per block. Each puts
// the entry in a named section the launcher recognises.
#undef __cube__
#define __cube__ __attribute__((section("kgen_cube_kernels")))
#undef __mix__
#define __mix__(cube, vec) __attribute__((section("kgen_mix_" #cube "_" #vec)))
#define __gm__
#define __ubuf__
#define __ca__
#define __cb__
#define __cc__
#define __cbuf__
#define __fbuf__
#define __sync_alias__
#define __sync_noalias__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#ifndef __forceinline__
#define __forceinline__ inline
#endif
#define GM_ADDR uint8_t*

namespace kgen {

// ---- dav-2201 (Atlas A2 / 910B) constants -----------------------------------------------
// The memory sizes come from the SoC table (bench_bridge/soc.toml -> the generated soc_table.h).
inline constexpr uint32_t UB_SIZE = soc::SOC_UB_BYTES;     // Unified Buffer bytes per vector core
// TPipe may hand out the whole Unified Buffer: NPUKernelBench golden answers that run on 910B
// allocate the whole UB (196,608 bytes) through TPipe (e.g. level1 CosMath), so the 256-byte reservation the
// hardware docs mention is not taken from TPipe's budget.
inline constexpr uint32_t UB_RESERVED = 0;
inline constexpr uint32_t UB_USABLE = UB_SIZE - UB_RESERVED;  // bytes TPipe may hand out
// Room behind each core's Unified Buffer for buffers TPipe::InitBuffer lays out past its end. The hardware
// does not check an InitBuffer total (NPUKernelBench answers that pass on an NPU allocate temporary buffers
// past 192 KB on paths that never touch them), so such an allocation is a warning and the first access to
// bytes past UB is the error (`ub-overflow-access`, LocalTensor::check). The shadow keeps the emulator's own
// memory intact for any unchecked access; an allocation past UB_SIZE + UB_SHADOW is still an error.
inline constexpr uint32_t UB_SHADOW = UB_SIZE;
inline constexpr uint32_t ONE_BLK = 32;         // bytes per data block
inline constexpr uint32_t ONE_REP = 256;        // bytes per vector repeat (8 blocks)
inline constexpr uint32_t BLK_PER_REP = 8;
inline constexpr uint32_t MAX_REPEAT = 255;     // repeatTimes is a uint8_t

// Local memories of the cube unit (AI core) on dav-2201, bytes per core (L1, L0A, L0B, L0C, BT: the bias
// table, C2; FB: the fixpipe buffer, C2PIPE2GM), from the SoC table with their sources.
inline constexpr uint32_t L1_SIZE = soc::SOC_L1_BYTES;
inline constexpr uint32_t L0A_SIZE = soc::SOC_L0A_BYTES;
inline constexpr uint32_t L0B_SIZE = soc::SOC_L0B_BYTES;
inline constexpr uint32_t L0C_SIZE = soc::SOC_L0C_BYTES;
inline constexpr uint32_t BT_SIZE = soc::SOC_BT_BYTES;
inline constexpr uint32_t FB_SIZE = soc::SOC_FB_BYTES;

/// The physical memories a LocalTensor can live in. TPosition -> memory is in tensor.h (mem_of).
enum class Mem : uint8_t { UB, L1, L0A, L0B, L0C, BT, FB, COUNT };
inline constexpr int MEM_COUNT = static_cast<int>(Mem::COUNT);
inline const char* mem_name(Mem m) {
    static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
    return names[static_cast<int>(m)];
}
inline constexpr uint32_t mem_size(Mem m) {
    return m == Mem::UB ? UB_SIZE : m == Mem::L1 ? L1_SIZE : m == Mem::L0A ? L0A_SIZE : m == Mem::L0B ? L0B_SIZE
         : m == Mem::L0C ? L0C_SIZE : m == Mem::BT ? BT_SIZE : FB_SIZE;
}
/// Start-address alignment InitBuffer keeps in each memory: 32 B (one data block) in UB and L1;
/// one 512-byte fractal in L0A/L0B (LoadData/Mmad address whole fractals); 64 B in L0C, BT and FB
/// (assumption: the smallest unit Mmad/Fixpipe address there).
inline constexpr uint32_t mem_align(Mem m) {
    return (m == Mem::L0A || m == Mem::L0B) ? 512u : (m == Mem::L0C || m == Mem::BT || m == Mem::FB) ? 64u : 32u;
}
/// Diagnostic code for running out of a memory: ub-overflow, l1-overflow, l0a-overflow, ...
inline const char* mem_overflow_code(Mem m) {
    static const char* codes[] = {"ub-overflow", "l1-overflow", "l0a-overflow", "l0b-overflow", "l0c-overflow", "bt-overflow",
                                  "fb-overflow"};
    return codes[static_cast<int>(m)];
}

/// Number of cores a launch may occupy at once (the runner sets KGEN_SIM_VECTOR_CORES for the chosen SoC;
/// without it, the SoC table's default SoC: 910B2, 48 vector cores).
inline uint32_t vector_core_num() {
    const char* s = std::getenv("KGEN_SIM_VECTOR_CORES");
    return s ? static_cast<uint32_t>(std::atoi(s)) : soc::SOCS[soc::DEFAULT_SOC].aiv;
}

// ---- diagnostics ------------------------------------------------------------------------
enum class Severity { Warning, Error };

/// Thrown by an error diagnostic inside a kernel; the launcher stops the program.
struct KernelAbort { };

/// Report a diagnostic at the innermost user-source frame. Defined in diag.h.
void report(Severity sev, const char* code, const std::string& message);

inline std::string vformat(const char* fmt, va_list ap) {
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return buf;
}
[[noreturn]] inline void fail(const char* code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    report(Severity::Error, code, msg);
    throw KernelAbort{};
}
inline void warn(const char* code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    report(Severity::Warning, code, msg);
}

// ---- trace --------------------------------------------------------------------------------
/// Hardware pipes an instruction is issued to.
enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, ALL };
inline const char* pipe_name(Pipe p) {
    static const char* names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
    return names[static_cast<int>(p)];
}

/// One emulated instruction as the performance model sees it.
struct TraceEvent {
    const char* api;    // API name, e.g. "DataCopy"
    Pipe pipe;
    uint64_t bytes;     // bytes moved (data movement) or touched (vector)
    uint32_t repeats;   // 256-byte vector repeats issued
    int32_t sync;       // 0 none, 1 set-flag, 2 wait-flag, 3 barrier, 4 enque, 5 deque, 6 sync-all
    int32_t arg;        // event id / queue id for sync events
    // Added for the performance model (written after the fields above, so older readers still work):
    uint16_t elem = 0;  // element bytes of a vector instruction (widest operand), 0 = unknown
    int32_t buf = -1;   // queue buffer touched by AllocTensor/FreeTensor/EnQue/DeQue: queue id * 64 + slot
    int16_t qpos = -1;  // queue positions for queue events: src TPosition * 32 + dst TPosition, -1 = unknown
    int32_t site = -1;  // index into CoreContext::sites: the call stack this instruction was issued from
};
inline constexpr int SITE_FRAMES = 10;
struct TraceSite { void* frames[SITE_FRAMES]; int n = 0; };

// ---- per-core context ---------------------------------------------------------------------
struct LaunchShared;  // launch.h: what the blocks of one launch share (SyncAll barrier)

struct CoreContext {
    LaunchShared* launch = nullptr;
    int64_t block_idx = 0;
    int64_t block_num = 1;
    int64_t sub_block_idx = 0;
    alignas(64) uint8_t ub[UB_SIZE + UB_SHADOW];   // the Unified Buffer, then the shadow (see UB_SHADOW)
    uint32_t ub_used = 0;             // bytes handed out by TPipe::InitBuffer
    int atomic_mode = 0;              // 0 none, 1 add, 2 max, 3 min
    int atomic_dtype = 0;             // sizeof of the atomic element type, 0 = from the copy
    std::vector<TraceEvent> trace;
    std::vector<TraceSite> sites;                          // distinct call stacks of the traced instructions
    std::unordered_map<std::string, int32_t> site_index;   // call stack bytes -> index in sites
    uint64_t mask[2] = {~0ull, ~0ull};  // vector mask register (SetVectorMask)
    bool mask_counter_mode = false;
    // Cube-unit memories (L1, L0A, L0B, L0C, BT, FB), allocated on first use so vector-only
    // launches do not pay for them. The Unified Buffer stays the fixed `ub` array above.
    std::vector<uint8_t> cube_mem[MEM_COUNT];
    /// Base address of memory `m` of this core.
    uint8_t* mem_base(Mem m) {
        if (m == Mem::UB) return ub;
        std::vector<uint8_t>& v = cube_mem[static_cast<int>(m)];
        if (v.empty()) v.assign(mem_size(m), 0);
        return v.data();
    }
};

inline thread_local CoreContext* tls_core = nullptr;

/// The calling core. Kernel-side APIs called from host code get a standalone core 0.
inline CoreContext& core() {
    if (!tls_core) {
        static thread_local CoreContext* host_core = new CoreContext();
        tls_core = host_core;
    }
    return *tls_core;
}

inline bool tracing_enabled() {
    static const bool on = std::getenv("KGEN_TRACE_FILE") != nullptr;
    return on;
}
/// Record one instruction. For data movement `repeats` counts the bursts (contiguous blocks) moved.
inline void trace(const char* api, Pipe pipe, uint64_t bytes, uint32_t repeats = 0, int32_t sync = 0, int32_t arg = 0,
                  uint16_t elem = 0, int32_t buf = -1, int16_t qpos = -1) {
    if (!tracing_enabled()) return;
    CoreContext& c = core();
    TraceSite st;
    st.n = backtrace(st.frames, SITE_FRAMES);
    std::string key(reinterpret_cast<const char*>(st.frames), sizeof(void*) * st.n);
    auto it = c.site_index.find(key);
    int32_t id;
    if (it == c.site_index.end()) { id = (int32_t)c.sites.size(); c.sites.push_back(st); c.site_index.emplace(key, id); }
    else id = it->second;
    c.trace.push_back(TraceEvent{api, pipe, bytes, repeats, sync, arg, elem, buf, qpos, id});
}
/// A unique id per queue object (shared by all queue types and cores).
inline int next_queue_id() {
    static std::atomic<int> next{0};
    return ++next;
}

// ---- device (GM) allocations ----------------------------------------------------------------
struct GmRegistry {
    std::mutex mu;
    std::map<uintptr_t, size_t> blocks;  // start -> bytes
    void add(const void* p, size_t n) { std::lock_guard<std::mutex> g(mu); blocks[reinterpret_cast<uintptr_t>(p)] = n; }
    void remove(const void* p) { std::lock_guard<std::mutex> g(mu); blocks.erase(reinterpret_cast<uintptr_t>(p)); }
    bool empty() { std::lock_guard<std::mutex> g(mu); return blocks.empty(); }
    /// The allocation holding [p, p+n), or false when it spills out of every allocation.
    bool contains(const void* p, size_t n, uintptr_t* start = nullptr, size_t* size = nullptr) {
        std::lock_guard<std::mutex> g(mu);
        uintptr_t a = reinterpret_cast<uintptr_t>(p);
        auto it = blocks.upper_bound(a);
        if (it == blocks.begin()) return false;
        --it;
        if (start) *start = it->first;
        if (size) *size = it->second;
        return a + n <= it->first + it->second;
    }
};
inline GmRegistry& gm_registry() { static GmRegistry r; return r; }

}  // namespace kgen
