// kgen AscendC CPU emulator -- what every high-level (adv) vector API shares: operand checks,
// temporary-buffer rules, and the element loops.
//
// Documented rules followed (dav-2201, "general constraints" of the high-level APIs):
//  * Operands are LocalTensors in VECIN / VECCALC / VECOUT at 32-byte aligned UB addresses
//    (`ub-misaligned`); calCount must not exceed any operand (`ub-out-of-bounds`).
//  * Most APIs forbid the source and destination to overlap (the NPU reads the source again
//    after writing parts of the destination): `operand-overlap` error. The API's header says
//    which ones allow it.
//  * The temporary buffer is either passed in (sharedTmpBuffer, a LocalTensor<uint8_t>) or
//    taken by the API itself from the Unified Buffer space TPipe has not handed out. A passed
//    buffer smaller than the documented minimum (GetXxxMaxMinTmpSize's minValue) makes the
//    NPU compute garbage: `adv-tmp-too-small` error. When the API takes its own buffer and
//    the free UB is smaller than that minimum: `adv-tmp-no-room` error. The temporary buffer
//    must not overlap the source or destination: `operand-overlap` error.
//  * After a call the temporary buffer's contents are unspecified: the emulator overwrites
//    the part the API would use with a fill pattern (0xA5), so code that reads it back fails
//    visibly instead of working by luck.
//
// (No public API: helpers for the headers of kgen_sim/adv/.)
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kgen_sim/adv/tmp_rules.h"
#include "kgen_sim/vec_engine.h"
#include "kgen_sim/vec_forms.h"

// ASCENDC_ASSERT(cond, {action}): the assertion CANN's high-level library and its official examples
// use (the action is a braced block that may contain commas, hence the variadic form). Like ASSERT it
// is compiled away in a normal kernel build and checked with -DASCENDC_DEBUG / -DKGEN_ASSERT.
#ifndef ASCENDC_ASSERT
#if defined(ASCENDC_DEBUG) || defined(KGEN_ASSERT)
#define ASCENDC_ASSERT(cond, ...)                                                             \
    do {                                                                                      \
        if (!(cond)) kgen::fail("assert-failed", "ASCENDC_ASSERT(%s) failed", #cond);         \
    } while (0)
#else
#define ASCENDC_ASSERT(cond, ...) do { } while (0)
#endif
#endif

namespace kgen {
namespace adv {

using AscendC::LocalTensor;

template <class T> inline constexpr bool hf_v = one_of_v<T, half, float>;

/// Byte range of the first n elements of a tensor.
template <class T> inline uintptr_t lo_of(const LocalTensor<T>& t) { return reinterpret_cast<uintptr_t>(t.raw()); }
template <class T> inline uintptr_t hi_of(const LocalTensor<T>& t, uint64_t n) { return lo_of(t) + n * sizeof(T); }

/// A calCount-sized operand: live, aligned, long enough.
template <class T>
inline void operand(const char* api, const LocalTensor<T>& t, uint64_t n) {
    t.check_aligned(api);
    t.check(0, n, api);
}

/// Fail when the first na elements of a and nb elements of b share bytes.
template <class A, class B>
inline void no_overlap(const char* api, const LocalTensor<A>& a, uint64_t na, const LocalTensor<B>& b, uint64_t nb,
                       const char* what) {
    if (na == 0 || nb == 0) return;
    // exactly in place (same start): documented as not allowed, but NPUKernelBench golden answers that
    // pass on hardware do it for element-wise APIs, so it is a located warning rather than an error
    if (lo_of(a) == lo_of(b)) {
        warn("operand-in-place", "%s: %s are the same tensor; the documentation does not allow it (the NPU result is "
             "unspecified)", api, what);
        return;
    }
    if (lo_of(a) < hi_of(b, nb) && lo_of(b) < hi_of(a, na))
        fail("operand-overlap", "%s: %s must not overlap (documented restriction; the NPU result would be wrong)", api, what);
}

/// The temporary buffer of one call: passed in (tmp != nullptr) or taken from free UB.
struct Tmp {
    const LocalTensor<uint8_t>* tmp = nullptr;
    uint32_t min_bytes = 0;   // documented minimum
    uint32_t use_bytes = 0;   // what the API would use for this call (<= the maximum)
};

/// Check the temporary-buffer rules before a call; `ops` lists the operands' byte ranges.
inline void check_tmp(const char* api, const Tmp& t, std::initializer_list<std::pair<uintptr_t, uintptr_t>> ops) {
    if (t.tmp) {
        const LocalTensor<uint8_t>& b = *t.tmp;
        b.check_aligned(api);
        if (b.GetSize() < t.min_bytes)
            fail("adv-tmp-too-small",
                 "%s: sharedTmpBuffer has %u bytes but the API needs at least %u (see Get%sMaxMinTmpSize's minValue)", api,
                 b.GetSize(), t.min_bytes, api);
        uintptr_t lo = lo_of(b), hi = lo + b.GetSize();
        for (auto& r : ops)
            if (r.first < r.second && lo < r.second && r.first < hi)
                fail("operand-overlap", "%s: sharedTmpBuffer must not overlap the source or destination tensors", api);
    } else if (t.min_bytes) {
        uint32_t used = core().ub_used;
        uint32_t free_bytes = used < UB_USABLE ? UB_USABLE - used : 0;
        if (free_bytes < t.min_bytes)
            fail("adv-tmp-no-room",
                 "%s takes its temporary buffer (at least %u bytes) from UB that TPipe has not handed out, but only %u bytes "
                 "are free: pass a sharedTmpBuffer or reserve the space (see Get%sMaxMinTmpSize)",
                 api, t.min_bytes, free_bytes, api);
    }
}

/// After the call: the part of a passed buffer the API used holds no meaningful data.
inline void clobber_tmp(const Tmp& t) {
    if (!t.tmp) return;
    uint32_t n = std::min<uint32_t>(t.tmp->GetSize(), std::max(t.use_bytes, t.min_bytes));
    std::memset(t.tmp->raw(), 0xA5, n);
}

/// Record one high-level call for the performance model: `nodes` passes over the data.
inline void trace_call(const char* api, uint64_t bytes, uint32_t passes) {
    uint32_t reps = repeats_for(bytes);
    trace(api, Pipe::V, bytes * std::max<uint32_t>(passes, 1), reps * std::max<uint32_t>(passes, 1));
}

/// A double-precision function applied to a half/float element, rounded once to float then to T.
template <class T, class F> inline T apply_d(T x, F f) {
    return T(static_cast<float>(f(static_cast<double>(static_cast<float>(x)))));
}

/// dst[i] = f(src[i]) for i < n with the checks above. f(T) -> T.
template <class T, class F>
inline void unary_elementwise(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n, const Tmp& tmp,
                              bool overlap_ok, uint32_t passes, F f) {
    if (n == 0) return;
    operand(api, dst, n);
    operand(api, src, n);
    if (!overlap_ok) no_overlap(api, dst, n, src, n, "the source and destination tensors");
    check_tmp(api, tmp, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}});
    T* d = dst.raw();
    const T* s = src.raw();
    for (uint32_t i = 0; i < n; ++i) d[i] = f(s[i]);
    clobber_tmp(tmp);
    trace_call(api, uint64_t(n) * sizeof(T), passes);
}

/// dst[i] = f(a[i], b[i]) for i < n; neither source may overlap the destination.
template <class T, class F>
inline void binary_elementwise(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                               uint32_t n, const Tmp& tmp, uint32_t passes, F f) {
    if (n == 0) return;
    operand(api, dst, n);
    operand(api, a, n);
    operand(api, b, n);
    no_overlap(api, dst, n, a, n, "the first source and the destination tensors");
    no_overlap(api, dst, n, b, n, "the second source and the destination tensors");
    check_tmp(api, tmp, {{lo_of(dst), hi_of(dst, n)}, {lo_of(a), hi_of(a, n)}, {lo_of(b), hi_of(b, n)}});
    T* d = dst.raw();
    const T* x = a.raw();
    const T* y = b.raw();
    for (uint32_t i = 0; i < n; ++i) d[i] = f(x[i], y[i]);
    clobber_tmp(tmp);
    trace_call(api, uint64_t(n) * sizeof(T), passes);
}

/// Warn once per call site when an input lies outside the documented domain.
inline void domain_note(const char* api, bool bad, const char* what) {
    if (bad) warn("adv-domain", "%s: %s; the NPU result is unspecified there (the emulator returns the IEEE value)", api, what);
}

}  // namespace adv
}  // namespace kgen
