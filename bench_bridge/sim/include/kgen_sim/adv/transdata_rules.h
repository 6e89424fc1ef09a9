// kgen AscendC CPU emulator -- TransData's shared rules: TransDataConfig / TransDataParams, the
// conversion kinds and the documented temporary size (GetTransDataMaxMinTmpSize), used by the kernel
// side (adv/transdata.h) and the host helper (adv/host_transpose_tiling.h). The rules are listed in
// adv/transdata.h.
//
// (No public API of its own: see adv/transdata.h.)
#pragma once
#include <algorithm>
#include <cstdint>

#include "kgen_sim/adv/data_format.h"

namespace AscendC {
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif
template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};
}  // namespace AscendC

namespace kgen {
namespace adv {

/// N, C, D, H, W of one TransData call and the derived sizes.
struct TdDims {
    int64_t n = 0, c = 0, d = 0, h = 0, w = 0;
    int64_t c1() const { return (c + 15) / 16; }
    int64_t n1() const { return (n + 15) / 16; }
    int64_t hw() const { return h * w; }
    int64_t pad_hw() const { return (h * w + 15) / 16 * 16; }
};

enum class TdKind { ToNdc1hwc0, FromNdc1hwc0, ToFz3d, FromFz3d, None };

constexpr TdKind td_kind(AscendC::DataFormat s, AscendC::DataFormat d) {
    using F = AscendC::DataFormat;
    return s == F::NCDHW && d == F::NDC1HWC0       ? TdKind::ToNdc1hwc0
           : s == F::NDC1HWC0 && d == F::NCDHW     ? TdKind::FromNdc1hwc0
           : s == F::NCDHW && d == F::FRACTAL_Z_3D ? TdKind::ToFz3d
           : s == F::FRACTAL_Z_3D && d == F::NCDHW ? TdKind::FromFz3d
                                                   : TdKind::None;
}

/// The documented temporary size in bytes (min = max).
inline uint32_t transdata_tmp_bytes(TdKind k, const TdDims& t) {
    const int64_t P = t.pad_hw(), C1 = t.c1(), N1 = t.n1();
    switch (k) {
        case TdKind::ToNdc1hwc0: return uint32_t((t.d * P + t.d * C1 * 16 * P) * 2);
        case TdKind::FromNdc1hwc0: return uint32_t(t.d * C1 * 16 * P * 2 + 512);
        case TdKind::ToFz3d: {
            const int64_t dup = std::max(t.c * t.d * P * 2, t.d * t.hw() * N1 * 16 * 2);
            return uint32_t(dup + N1 * 16 * t.d * C1 * 16 * P * 2);
        }
        case TdKind::FromFz3d: {
            const int64_t one = N1 * 16 * C1 * 16 * t.d * P * 2;
            return uint32_t(t.n == N1 * 16 && t.c == C1 * 16 ? one : 2 * one);
        }
        default: return 0;
    }
}

}  // namespace adv
}  // namespace kgen
