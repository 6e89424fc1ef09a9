// kgen AscendC CPU emulator -- debugging aids: printf, DumpTensor, ASSERT.
//
// Documented rules followed: AscendC::printf / PRINTF print from the kernel with printf
// formatting; DumpTensor(tensor, desc, dumpSize) prints the first dumpSize elements with the
// block index and a user tag; ASSERT(cond) stops the kernel when cond is false (checked only in
// debug builds: -DASCENDC_DEBUG; the NPU's normal build drops it). On the
// emulator every line is printed at once (no device buffer), prefixed by the block index.
//
// @api printf PRINTF DumpTensor ASSERT Trap
#pragma once
#include <cstdio>
#include <mutex>

#include "kgen_sim/diag.h"
#include "kgen_sim/tensor.h"

namespace kgen {
inline std::mutex& print_mutex() { static std::mutex m; return m; }

template <typename T>
inline void print_value(T v) {
    if constexpr (is_f16<T>::value || std::is_floating_point_v<T>) std::printf("%g", static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_signed_v<T>) std::printf("%lld", static_cast<long long>(v));
    else std::printf("%llu", static_cast<unsigned long long>(v));
}
template <typename T>
inline void dump_values(const char* kind, const T* p, uint32_t n, uint32_t desc) {
    std::lock_guard<std::mutex> g(print_mutex());
    std::printf("DumpTensor: block=%lld desc=%u %s size=%u data=[", (long long)core().block_idx, desc, kind, n);
    for (uint32_t i = 0; i < n; ++i) {
        if (i) std::printf(", ");
        print_value(p[i]);
    }
    std::printf("]\n");
    std::fflush(stdout);
}
}  // namespace kgen

namespace AscendC {

template <typename... Args>
inline void printf(const char* fmt, Args... args) {
    std::lock_guard<std::mutex> g(kgen::print_mutex());
    if constexpr (sizeof...(Args) == 0) std::fputs(fmt, stdout);
    else std::printf(fmt, args...);
    std::fflush(stdout);
}

template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
    t.check(0, dumpSize, "DumpTensor");
    kgen::dump_values("UB", t.raw(), dumpSize, desc);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
    t.check_read(0, dumpSize, "DumpTensor");
    kgen::dump_values("GM", t.raw(), dumpSize, desc);
}
template <typename T, typename S>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const S&) { DumpTensor(t, desc, dumpSize); }
template <typename T, typename S>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const S&) { DumpTensor(t, desc, dumpSize); }

inline void Trap() { kgen::fail("trap", "Trap() called: the kernel stopped itself"); }

}  // namespace AscendC

#define PRINTF AscendC::printf
// ASSERT is compiled away in a normal kernel build, as on the NPU (kernels that rely on that
// compile unchanged); build with -DASCENDC_DEBUG (or -DKGEN_ASSERT) to have it checked.
#if defined(ASCENDC_DEBUG) || defined(KGEN_ASSERT)
#define ASSERT(cond, ...)                                                                    \
    do {                                                                                     \
        if (!(cond)) kgen::fail("assert-failed", "ASSERT(%s) failed", #cond);                \
    } while (0)
#else
#define ASSERT(...)
#endif
