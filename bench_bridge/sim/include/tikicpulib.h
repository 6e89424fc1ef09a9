// kgen AscendC CPU emulator -- the "CPU twin debug" launch interface of older AscendC programs.
//
// Programs written for CANN's CPU debug mode guard their host code with
// `#ifdef ASCENDC_CPU_DEBUG`, include "tikicpulib.h", allocate shared GM with GmAlloc and start
// the kernel with ICPU_RUN_KF instead of `<<<>>>`. This header gives those programs the same
// meaning on the kgen emulator (build them with -DASCENDC_CPU_DEBUG to take that branch).
// Clean-room: written from the documented behaviour of these interfaces.
//
// Documented rules followed:
//  * ICPU_RUN_KF(func, numBlocks, args...) runs the kernel `func` on numBlocks cores with the
//    given arguments, in the kernel's parameter order; at most 32 arguments (more is a compile
//    error). Here it is the same launch as `<<<numBlocks, ...>>>` (blocks as concurrent cores).
//    `func` may be a kernel function, a template specialisation such as `(kernel<1>)`, or a
//    lambda that forwards to a kernel.
//  * Every pointer argument must point to memory from GmAlloc (shared between the cores): a
//    non-null pointer argument outside every GmAlloc/aclrtMalloc allocation is reported as a
//    warning (`icpu-arg-not-gm`); the emulator can still run it, the CANN CPU model could not.
//  * GmAlloc(size) returns shared GM of `size` bytes, to be released with GmFree. The CANN
//    implementation backs it with a fresh file under /tmp, so the memory starts zeroed; kgen
//    zero-fills it too. GmFree of a pointer GmAlloc did not return is an error (`gmfree-bad-pointer`).
//  * ICPU_SET_TILING_KEY(key) selects the tiling key the next ICPU_RUN_KF runs with (read back by
//    the kernel-side TILING_KEY_IS, see kgen::icpu_tiling_key()); a key <= 0 draws a warning
//    (`tiling-key-nonpositive`) and the run continues, as documented.
//  * SetKernelMode(KernelMode::{MIX_MODE, AIC_MODE, AIV_MODE}) tells the CPU model which core type
//    runs the kernel. The emulator runs vector kernels only, so the mode is recorded (and
//    queryable through kgen::icpu_kernel_mode()) but does not change execution.
//
// @api ICPU_RUN_KF ICPU_SET_TILING_KEY GmAlloc GmFree SetKernelMode KernelMode
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <type_traits>

#include "kernel_operator.h"


/// Core type a CPU-debug launch targets (documented values, in this order).
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

namespace kgen {

struct CpuDebugState {
    std::mutex mu;
    std::set<void*> gm_allocs;     // pointers returned by GmAlloc and not yet freed
    int64_t tiling_key = 0;
    bool tiling_key_set = false;
    KernelMode mode = KernelMode::AIV_MODE;
};
inline CpuDebugState& cpu_debug_state() { static CpuDebugState s; return s; }

/// Tiling key set by ICPU_SET_TILING_KEY (0 when none was set).
inline int64_t icpu_tiling_key() { return cpu_debug_state().tiling_key; }
inline bool icpu_tiling_key_set() { return cpu_debug_state().tiling_key_set; }
inline KernelMode icpu_kernel_mode() { return cpu_debug_state().mode; }

inline void icpu_set_tiling_key(int64_t key) {
    if (key <= 0)
        warn("tiling-key-nonpositive", "ICPU_SET_TILING_KEY(%lld): tiling keys should be positive; %s",
             (long long)key, key == 0 ? "the branch for key 0 runs" : "a negative key is undefined behaviour");
    cpu_debug_state().tiling_key = key;
    cpu_debug_state().tiling_key_set = true;
}

/// Host-side misuse: report it at the caller's line and stop, as the CPU model would.
[[noreturn]] inline void icpu_host_error(const char* code, const std::string& msg) {
    report(Severity::Error, code, msg);
    abort_program();
}

template <typename A>
inline void icpu_check_arg(const char* kernel, int position, const A& a) {
    if constexpr (std::is_pointer_v<std::decay_t<A>>) {
        if (a != nullptr && !gm_registry().contains(reinterpret_cast<const void*>(a), 1))
            warn("icpu-arg-not-gm", "ICPU_RUN_KF(%s): argument %d is a pointer that was not allocated with GmAlloc; "
                 "the CPU debug model shares only GmAlloc memory between cores", kernel, position);
    }
}

/// The callable of the ICPU_RUN_KF in progress (launches run to completion, one at a time).
inline std::function<void()>*& icpu_pending() { static std::function<void()>* p = nullptr; return p; }
inline void icpu_trampoline() { (*icpu_pending())(); }

template <typename F, typename... A>
inline void icpu_run(const char* name, F&& func, int64_t numBlocks, A&&... args) {
    static_assert(sizeof...(A) <= 32, "ICPU_RUN_KF accepts at most 32 kernel arguments");
    if (numBlocks <= 0 || numBlocks > 65535)
        icpu_host_error("bad-launch", "ICPU_RUN_KF(" + std::string(name) + ") with numBlocks = " +
                                          std::to_string(numBlocks) + " (must be 1..65535)");
    int position = 0;
    (icpu_check_arg(name, ++position, args), ...);
    std::function<void()> call = [&]() { func(args...); };
    icpu_pending() = &call;
    launch_named(name, &icpu_trampoline, LaunchCfg(static_cast<uint32_t>(numBlocks)));
    icpu_pending() = nullptr;
}

}  // namespace kgen

namespace AscendC {

using ::KernelMode;

/// Shared GM for CPU-debug launches: zero-filled, 512-byte aligned, bounds-checked like aclrtMalloc memory.
inline void* GmAlloc(size_t size) {
    size_t rounded = (size ? size + 511 : 512) / 512 * 512;
    void* p = std::aligned_alloc(512, rounded);
    if (!p) kgen::icpu_host_error("gmalloc-failed", "GmAlloc(" + std::to_string(size) + "): out of memory");
    std::memset(p, 0, rounded);
    kgen::gm_registry().add(p, size ? size : 1);
    kgen::CpuDebugState& s = kgen::cpu_debug_state();
    std::lock_guard<std::mutex> g(s.mu);
    s.gm_allocs.insert(p);
    return p;
}

inline void GmFree(void* ptr) {
    kgen::CpuDebugState& s = kgen::cpu_debug_state();
    {
        std::lock_guard<std::mutex> g(s.mu);
        if (s.gm_allocs.erase(ptr) == 0) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%p", ptr);
            kgen::icpu_host_error("gmfree-bad-pointer", std::string("GmFree(") + buf +
                                                            "): the pointer was not returned by GmAlloc, or was already freed");
        }
    }
    kgen::gm_registry().remove(ptr);
    std::free(ptr);
}

inline void SetKernelMode(KernelMode mode) { kgen::cpu_debug_state().mode = mode; }

}  // namespace AscendC

#define ICPU_RUN_KF(func, numBlocks, ...) ::kgen::icpu_run(#func, func, (numBlocks), ##__VA_ARGS__)
#define ICPU_SET_TILING_KEY(tilingKey) ::kgen::icpu_set_tiling_key(static_cast<int64_t>(tilingKey))
