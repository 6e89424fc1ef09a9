// kgen AscendC CPU emulator -- CumSum's types and its temporary-buffer rule (shared by the kernel API,
// adv/cumsum.h, and the host helper GetCumSumMaxMinTmpSize, adv/host_cumsum_tiling.h).
//
// Documented (CumSum page): CumSumConfig{isLastAxis = true, isReuseSource = false, outputLastRow =
// false, algorithm = CUMSUM_ALGORITHM_LINEBYLINE}, CumSumAlgorithm {LINEBYLINE = 0, SKLANSKY = 1},
// CumSumInfo{outter, inner}, defaultCumSumConfig = {true, false, true}.
// Not documented: a formula for the temporary size (GetCumSumMaxMinTmpSize's page gives none). The
// emulator's rule, chosen to cover what the documented algorithm has to keep (float working rows, and
// for the last axis the 16 x 16 transposes of the whole tile):
//   first axis: min = max = inner * 4 * (half ? 2 : 1) bytes (one float row, plus the converted source
//               row for half);
//   last axis:  min = max = align16(outter) * align16(inner) * 4 * (half ? 2 : 1) bytes.
//
// (No public API of its own: the types are listed with CumSum.)
#pragma once
#include <cstdint>

namespace AscendC {
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};
}  // namespace AscendC

namespace kgen {
namespace adv {
inline uint32_t cumsum_tmp_bytes(uint64_t outter, uint64_t inner, uint32_t typeSize, bool lastAxis) {
    const uint64_t k = typeSize == 2 ? 2 : 1;
    auto a16 = [](uint64_t v) { return (v + 15) / 16 * 16; };
    uint64_t b = lastAxis ? a16(outter) * a16(inner) * 4 * k : inner * 4 * k;
    return static_cast<uint32_t>(b);
}
}  // namespace adv
}  // namespace kgen
