// kgen AscendC CPU emulator -- high-level activations: Sigmoid, Silu, Swish, Gelu, FasterGelu,
// SwiGLU, GeGLU (Tanh is in adv/math.h; SoftMax and friends in adv/softmax.h).
//
// Documented rules followed (dav-2201 pages of each API):
//  * Sigmoid<T, isReuseSource>(dst, src[, sharedTmpBuffer][, calCount]): 1 / (1 + e^-x).
//  * Silu<T, isReuseSource>(dst, src, dataSize): x * sigmoid(x). No temporary buffer.
//  * Swish<T, isReuseSource>(dst, src, dataSize, T beta): x * sigmoid(beta * x). No temporary buffer.
//  * Gelu<T, highPrecision, highPerformance>(dst, src[, sharedTmpBuffer], dataSize): the tanh form
//    x * sigmoid(1.5957691 * (x + 0.044715 x^3)) (= x/2 * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))).
//  * FasterGelu<T, highPrecision, highPerformance>(dst, src[, sharedTmpBuffer], dataSize):
//    x * sigmoid(1.702 x).
//  * SwiGLU<T, isReuseSource>(dst, src0, src1, float beta[, sharedTmpBuffer][, calCount]):
//    src0 * Swish(src1, beta) = src0 * src1 * sigmoid(beta * src1). dst is a non-const reference.
//  * GeGLU<T, isReuseSource>(dst, src0, src1[, sharedTmpBuffer][, calCount]): src0 * Gelu(src1).
//  * T: half or float. Sources and destination must not overlap; temporary buffers as in
//    adv/adv_common.h, with these minimum sizes (live nodes x 256 bytes): Sigmoid 1 node,
//    Gelu / FasterGelu 3, SwiGLU 6 for half (none for float), GeGLU 4 for half (none for float).
//
// Precision: the emulator evaluates each formula in double and rounds once to T. The NPU composes
// basic instructions (Muls, Exp, Adds, Div) in T (half inputs: in half for Gelu/Sigmoid, in float
// for GeGLU/SwiGLU): its half results can differ from the correctly rounded value by a few half
// ulp (relative ~1e-3 near the threshold); highPrecision = true makes the NPU compute half in float.
//
// @api Sigmoid Silu Swish Gelu FasterGelu SwiGLU GeGLU
#pragma once
#include <cmath>
#include <cstdint>

#include "kgen_sim/adv/adv_common.h"

namespace kgen {
namespace adv {

inline constexpr LiveNodes kSigmoid{1, 1, 1};
inline constexpr LiveNodes kGelu{3, 3, 3};
inline constexpr LiveNodes kSwiGLU{6, 0, 0};
inline constexpr LiveNodes kGeGLU{4, 0, 0};

inline double d_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double d_gelu(double x) { return x * d_sigmoid(1.5957691216057308 * (x + 0.044715 * x * x * x)); }
inline double d_faster_gelu(double x) { return x * d_sigmoid(1.702 * x); }

template <class T, class F>
inline void act1(const char* api, const LiveNodes& nodes, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n, F f) {
    static_assert(hf_v<T>, "this activation supports half and float only on dav-2201");
    Tmp t{tmp, min_tmp(nodes, sizeof(T), false), max_tmp(nodes, sizeof(T), false, n)};
    unary_elementwise(api, dst, src, n, t, false, nodes.of(sizeof(T), false) + 3, [&](T x) { return apply_d(x, f); });
}

template <class T, class F>
inline void glu(const char* api, const LiveNodes& nodes, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>* tmp,
                uint32_t n, F f) {
    static_assert(hf_v<T>, "this activation supports half and float only on dav-2201");
    Tmp t{tmp, min_tmp(nodes, sizeof(T), false), max_tmp(nodes, sizeof(T), false, n)};
    binary_elementwise(api, dst, a, b, n, t, 6, [&](T x, T y) {
        return T(static_cast<float>(f(static_cast<double>(static_cast<float>(x)), static_cast<double>(static_cast<float>(y)))));
    });
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

// ---- Sigmoid ------------------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const uint32_t calCount) {
    kgen::adv::act1("Sigmoid", kgen::adv::kSigmoid, dstTensor, srcTensor, &sharedTmpBuffer, calCount, kgen::adv::d_sigmoid);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    kgen::adv::act1("Sigmoid", kgen::adv::kSigmoid, dstTensor, srcTensor, nullptr, calCount, kgen::adv::d_sigmoid);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

// ---- Silu, Swish ------------------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
    kgen::adv::act1("Silu", kgen::adv::kNone, dstLocal, srcLocal, nullptr, dataSize,
                    [](double x) { return x * kgen::adv::d_sigmoid(x); });
}
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, const T scalarValue) {
    double beta = static_cast<float>(scalarValue);
    kgen::adv::act1("Swish", kgen::adv::kNone, dstLocal, srcLocal, nullptr, dataSize,
                    [beta](double x) { return x * kgen::adv::d_sigmoid(beta * x); });
}

// ---- Gelu, FasterGelu -----------------------------------------------------------------------------
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t dataSize) {
    kgen::adv::act1("Gelu", kgen::adv::kGelu, dstLocal, srcLocal, &sharedTmpBuffer, dataSize, kgen::adv::d_gelu);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
    kgen::adv::act1("Gelu", kgen::adv::kGelu, dstLocal, srcLocal, nullptr, dataSize, kgen::adv::d_gelu);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
    kgen::adv::act1("FasterGelu", kgen::adv::kGelu, dstLocal, srcLocal, &sharedTmpBuffer, dataSize, kgen::adv::d_faster_gelu);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
    kgen::adv::act1("FasterGelu", kgen::adv::kGelu, dstLocal, srcLocal, nullptr, dataSize, kgen::adv::d_faster_gelu);
}

// ---- SwiGLU ---------------------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    double beta = scalarValue;
    kgen::adv::glu("SwiGLU", kgen::adv::kSwiGLU, dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount,
                   [beta](double a, double b) { return a * b * kgen::adv::d_sigmoid(beta * b); });
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const uint32_t calCount) {
    double beta = scalarValue;
    kgen::adv::glu("SwiGLU", kgen::adv::kSwiGLU, dstTensor, srcTensor0, srcTensor1, nullptr, calCount,
                   [beta](double a, double b) { return a * b * kgen::adv::d_sigmoid(beta * b); });
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1, const float& scalarValue) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize());
}

// ---- GeGLU ----------------------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    kgen::adv::glu("GeGLU", kgen::adv::kGeGLU, dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount,
                   [](double a, double b) { return a * kgen::adv::d_gelu(b); });
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  uint32_t calCount) {
    kgen::adv::glu("GeGLU", kgen::adv::kGeGLU, dstTensor, srcTensor0, srcTensor1, nullptr, calCount,
                   [](double a, double b) { return a * kgen::adv::d_gelu(b); });
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize());
}

}  // namespace AscendC
