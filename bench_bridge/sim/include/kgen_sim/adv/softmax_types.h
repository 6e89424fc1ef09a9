// kgen AscendC CPU emulator -- the data types SoftMax's kernel and host sides share.
//
// Documented rules followed:
//  * SoftMaxTiling (kernel side: a plain struct at global scope, also reachable as
//    AscendC::tiling::SoftMaxTiling) has 16 uint32_t fields in this order: srcM, srcK, srcSize,
//    outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize, reduceM, reduceK, reduceSize,
//    rangeM, tailM, tailSplitSize, tailReduceSize. The host class optiling::SoftMaxTiling
//    (a tiling-data class) has the same fields, so its SaveToBuffer bytes are this struct.
//  * SoftMaxShapeInfo {srcM, srcK, oriSrcM, oriSrcK}: the shape as laid out in UB (srcK 32-byte
//    aligned) and the original (valid) shape. All zero: the shape of the tiling.
//  * SoftmaxConfig {isCheckTiling, oriSrcM, oriSrcK, mode}; SOFTMAX_DEFAULT_CFG = {true, 0, 0,
//    SOFTMAX_NORMAL}. SOFTMAX_OUTPUT_WITHOUT_BRC writes one max/sum value per row instead of a
//    32-byte block per row.
//
// @api SoftMaxTiling SoftMaxShapeInfo SoftmaxConfig SoftmaxMode SOFTMAX_DEFAULT_CFG
#pragma once
#include <cstdint>

// SoftMaxTiling's 16 fields, in order: the one list the kernel structs (SoftMaxTiling, LogSoftMaxTiling)
// and the host tiling-data classes (adv/host_softmax_tiling.h, host_softmax_ext_tiling.h) expand, so
// their layouts cannot drift apart. X(type, name) is called once per field.
#define KGEN_SOFTMAX_TILING_FIELDS(X)                                                                  \
    X(uint32_t, srcM) X(uint32_t, srcK) X(uint32_t, srcSize) X(uint32_t, outMaxM) X(uint32_t, outMaxK) \
    X(uint32_t, outMaxSize) X(uint32_t, splitM) X(uint32_t, splitK) X(uint32_t, splitSize)             \
    X(uint32_t, reduceM) X(uint32_t, reduceK) X(uint32_t, reduceSize) X(uint32_t, rangeM)              \
    X(uint32_t, tailM) X(uint32_t, tailSplitSize) X(uint32_t, tailReduceSize)
// One zero-initialised data member of a kernel-side tiling struct.
#ifndef KGEN_KERNEL_TILING_FIELD
#define KGEN_KERNEL_TILING_FIELD(type, name) type name = 0;
#endif

struct SoftMaxTiling {
    KGEN_SOFTMAX_TILING_FIELDS(KGEN_KERNEL_TILING_FIELD)
};

namespace AscendC {
namespace tiling {
using SoftMaxTiling = ::SoftMaxTiling;
}  // namespace tiling

struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
    constexpr SoftmaxConfig() = default;
    constexpr SoftmaxConfig(bool check) : isCheckTiling(check) {}
    constexpr SoftmaxConfig(bool check, uint32_t m, uint32_t k) : isCheckTiling(check), oriSrcM(m), oriSrcK(k) {}
    constexpr SoftmaxConfig(bool check, uint32_t m, uint32_t k, SoftmaxMode md)
        : isCheckTiling(check), oriSrcM(m), oriSrcK(k), mode(md) {}
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC

namespace kgen {
namespace adv {
/// SoftMax's documented temporary need per row: (elements per block + srcK + 64) floats.
inline uint32_t softmax_row_tmp_bytes(uint32_t srcK, uint32_t typeSize) { return (32 / typeSize + srcK + 64) * 4; }
}  // namespace adv
}  // namespace kgen
