// kgen AscendC CPU emulator -- small utilities and spellings kernels use.
//
// Documented behaviour followed: `float16_t` / `float32_t` name the 16- and 32-bit float types;
// AscendC::ToFloat / ToBfloat16 convert scalars between bfloat16_t and float (round to nearest
// even); AscendC::DivCeil(a, b) = ceil(a / b) for integers (also the Matmul library's Ceil / CeilAlign); KERNEL_ERROR / KERNEL_LOG print a
// message from the kernel (no effect on the computation).
// The device compiler also provides scalar min(a, b) / max(a, b) for integers and float at global
// scope (official examples call them unqualified in kernel code); the emulator declares them as plain
// overloads, so code that also sees std::min/std::max still picks one without ambiguity.
//
// The device toolchain's branch hints `likely(x)` / `unlikely(x)` are macros every kernel source sees
// (NPUKernelBench's RmsNorm family calls them unqualified): the condition's truth value, with the hint
// passed to the C++ compiler. A source that defines its own (with the same meaning) keeps it.
//
// @api float16_t float32_t ToFloat ToBfloat16 DivCeil AlignUp Ceil CeilAlign KERNEL_ERROR KERNEL_LOG likely unlikely
#pragma once
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "kgen_sim/half.h"

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

using float16_t = half;
using float32_t = float;

namespace AscendC {
inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
inline float ToFloat(const half& v) { return static_cast<float>(v); }
inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }
template <typename T, typename U>
constexpr auto DivCeil(T a, U b) { return (a + b - 1) / b; }
template <typename T, typename U>
constexpr auto AlignUp(T a, U b) { return (a + b - 1) / b * b; }
/// The Matmul library's integer helpers: Ceil(a, b) = ceil(a / b), CeilAlign(a, b) = Ceil(a, b) * b (b > 0).
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
constexpr T Ceil(T num1, T num2) { return (num1 + num2 - 1) / num2; }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
constexpr T CeilAlign(T num1, T num2) { return Ceil(num1, num2) * num2; }
}  // namespace AscendC

#define KGEN_SCALAR_MIN_MAX(T)                                  \
    inline T min(T a, T b) { return b < a ? b : a; }            \
    inline T max(T a, T b) { return a < b ? b : a; }
KGEN_SCALAR_MIN_MAX(int32_t)
KGEN_SCALAR_MIN_MAX(uint32_t)
KGEN_SCALAR_MIN_MAX(int64_t)
KGEN_SCALAR_MIN_MAX(uint64_t)
KGEN_SCALAR_MIN_MAX(float)
#undef KGEN_SCALAR_MIN_MAX

#define KERNEL_ERROR(fmt, ...) std::fprintf(stderr, "[KERNEL_ERROR] " fmt "\n", ##__VA_ARGS__)
#define KERNEL_LOG(level, fmt, ...) std::fprintf(stderr, "[KERNEL_LOG] " fmt "\n", ##__VA_ARGS__)
