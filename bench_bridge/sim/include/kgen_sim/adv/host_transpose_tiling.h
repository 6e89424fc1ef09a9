// kgen host-side emulation -- the high-level Transpose's tiling: optiling::ConfusionTransposeTiling,
// GetTransposeMaxMinTmpSize / GetConfusionTransposeMaxMinTmpSize, GetTransposeTilingInfo /
// GetConfusionTransposeTilingInfo, GetConfusionTransposeOnlyTilingInfo.
//
// Documented rules followed (Transpose Tiling page and the public host implementation), with
// e = 32 / typeSize, a16(x) = x rounded up to 16, and transposeTypeIn the TransposeType's value:
//  * 1/2 (NZ2ND_0213, NZ2NZ_0213), srcShape [B, A1, A2, A3]: param0 e, 1 B, 2 A1, 3 alignA3 =
//    a16(A3), 4 alignA2 = a16(A2), 5 A3 blocks, 6 newPopSize = stackBufferSize / typeSize rounded down
//    to 256, 7 newPopSize / 16, 8 needSize = alignA2 * 16, 9 needSize / newPopSize, 10 needSize %
//    newPopSize, 11 alignA2 * alignA3, 12 A1 * alignA2 * alignA3, 13 A1 * alignA3, 14 A1 * 16,
//    15 param7 * param9 * param13. Temporary: min 256 * typeSize, max alignA2 * 16 * typeSize.
//  * 3 (NZ2NZ_012_WITH_N), srcShape [B, N, S, H/N], H = N * H/N: 0 e, 1 B, 2 N, 3 H/N, 4 16 / e,
//    5 H, 6 ceil(H/16), 7 ceil(S/16), 8 a16(H), 9 a16(S), 10 ceil(H/N / 16), 11 a16(H/N), 12 a16(H/N)
//    - H/N, 13 a16(S) * 16, 14 N * param10, 15 N * a16(H/N) * a16(S), 16 a16(H) * a16(S).
//  * 4 (NZ2ND_012_WITH_N): 0 e, 1 B, 2 N, 3 H/N, 4 H, 5 ceil(H/16), 6 ceil(S/16), 7 ceil(H/N / 16),
//    8 a16(H/N), 9 a16(H/N) - H/N, 10 param6 * 256, 11 N * param7, 12 param6 * 16 * a16(H/N),
//    13 a16(H/N) * 16, 14 a16(H/N) * e, 15 N * a16(H/N) * param6 * 16, 16 param5 * param6 * 256, 17 16 / e.
//  * 5/6 (NZ2ND/NZ2NZ_012_WITHOUT_N): 0 e, 1 B, 2 N, 3 H/N, 4 H, 5 ceil(H/16), 6 ceil(S/16),
//    7 ceil(H/N / 16), 8 a16(H), 9 param6 * 256, 10 a16(H) * 16, 11 e * a16(H), 12 N * param7 * 16 *
//    param6 * 16, 13 a16(H) * param6 * 16, 14 16 / e. Temporary for 3-6: 2 * 256 * typeSize (min = max).
//  * 7 (ND2ND_ONLY), srcShape [H, W]: 0 e, 1 H, 2 W, 3 H / 16, 4 H * e * typeSize / 32, 5 W / e.
//    No temporary buffer. GetConfusionTransposeOnlyTilingInfo fills this form whatever the type.
//  * 13-15 (ND2ND_021/102/210, Ascend 950): param0..2 the three dimensions (a 2-D shape for 021 as
//    [1, H, W]); no temporary buffer. Other values leave the tiling and the sizes untouched.
// Emulator: a shape with the wrong rank, a typeSize other than 2 or 4 for scenarios 1-7, or a
// stackBufferSize below 256 * typeSize for scenarios 1/2 (the public host code divides by zero then)
// is reported on stderr (`transpose-tiling`), and the tiling is left as it was.
//
//  * GetTransDataMaxMinTmpSize(platform, srcShape, dstShape, dataType, config, max, min): the shapes
//    of TransData's two layouts; dataType DT_FLOAT16, DT_BF16, DT_UINT16 or DT_INT16; min = max = the
//    documented size (adv/transdata.h). Returns false (and prints `transdata-shape`) for another type,
//    an unsupported format pair or shapes that do not match.
//
// @api GetTransposeMaxMinTmpSize GetConfusionTransposeMaxMinTmpSize GetTransposeTilingInfo
// @api GetConfusionTransposeTilingInfo GetConfusionTransposeOnlyTilingInfo GetTransDataMaxMinTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_math_tiling.h"
#include "kgen_sim/adv/transdata_rules.h"
#include "kgen_sim/adv/transpose_types.h"
#include "tiling/platform/platform_ascendc.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
TILING_DATA_FIELD_DEF(uint32_t, param0);
TILING_DATA_FIELD_DEF(uint32_t, param1);
TILING_DATA_FIELD_DEF(uint32_t, param2);
TILING_DATA_FIELD_DEF(uint32_t, param3);
TILING_DATA_FIELD_DEF(uint32_t, param4);
TILING_DATA_FIELD_DEF(uint32_t, param5);
TILING_DATA_FIELD_DEF(uint32_t, param6);
TILING_DATA_FIELD_DEF(uint32_t, param7);
TILING_DATA_FIELD_DEF(uint32_t, param8);
TILING_DATA_FIELD_DEF(uint32_t, param9);
TILING_DATA_FIELD_DEF(uint32_t, param10);
TILING_DATA_FIELD_DEF(uint32_t, param11);
TILING_DATA_FIELD_DEF(uint32_t, param12);
TILING_DATA_FIELD_DEF(uint32_t, param13);
TILING_DATA_FIELD_DEF(uint32_t, param14);
TILING_DATA_FIELD_DEF(uint32_t, param15);
TILING_DATA_FIELD_DEF(uint32_t, param16);
TILING_DATA_FIELD_DEF(uint32_t, param17);
END_TILING_DATA_DEF;
// Not registered on purpose: the kernel-side struct comes from kernel_operator.h (kgen_sim/adv/transpose_types.h).
}  // namespace optiling

namespace AscendC {
namespace kgen_host {

inline constexpr uint32_t CT16 = 16;
inline uint32_t ct_a16(uint64_t x) { return static_cast<uint32_t>((x + 15) / 16 * 16); }
inline uint32_t ct_b16(uint64_t x) { return static_cast<uint32_t>((x + 15) / 16); }

inline bool ct_check(const char* api, const ge::Shape& s, uint32_t typeSize, size_t rank) {
    if (typeSize != 2 && typeSize != 4) {
        ::kgen::host::host_warn("transpose-tiling", "%s: typeSize %u is not supported (2 or 4)", api, typeSize);
        return false;
    }
    if (s.GetDimNum() != rank) {
        ::kgen::host::host_warn("transpose-tiling", "%s: srcShape has %zu dimensions, this TransposeType needs %zu", api,
                     s.GetDimNum(), rank);
        return false;
    }
    return true;
}

/// Fill the 18 parameters of one TransposeType; false when the arguments are rejected.
inline bool ct_params(const char* api, const ge::Shape& s, uint32_t stack, uint32_t ts, uint32_t type, uint32_t (&p)[18]) {
    for (uint32_t& v : p) v = 0;
    auto d = [&](size_t i) { return static_cast<uint32_t>(s.GetDim(i)); };
    if (type == 1 || type == 2) {
        if (!ct_check(api, s, ts, 4)) return false;
        const uint32_t pop = stack / ts / 256 * 256;
        if (pop == 0) {
            ::kgen::host::host_warn("transpose-tiling", "%s: stackBufferSize %u is below the minimum %u (256 * typeSize)",
                         api, stack, 256 * ts);
            return false;
        }
        const uint32_t a2 = ct_a16(d(2)), blocks = ct_b16(d(3)), a3 = blocks * CT16, need = a2 * CT16;
        p[0] = 32 / ts; p[1] = d(0); p[2] = d(1); p[3] = a3; p[4] = a2; p[5] = blocks; p[6] = pop; p[7] = pop / CT16;
        p[8] = need; p[9] = need / pop; p[10] = need % pop; p[11] = a2 * a3; p[12] = d(1) * a2 * a3; p[13] = d(1) * a3;
        p[14] = d(1) * CT16; p[15] = p[7] * p[9] * p[13];
        return true;
    }
    if (type >= 3 && type <= 6) {
        if (!ct_check(api, s, ts, 4)) return false;
        const uint32_t e = 32 / ts, B = d(0), N = d(1), S = d(2), hn = d(3), H = N * hn;
        const uint32_t hb = ct_b16(H), sb = ct_b16(S), hnb = ct_b16(hn), ahn = hnb * CT16;
        p[0] = e; p[1] = B; p[2] = N; p[3] = hn;
        if (type == 3) {
            p[4] = CT16 / e; p[5] = H; p[6] = hb; p[7] = sb; p[8] = hb * CT16; p[9] = sb * CT16; p[10] = hnb; p[11] = ahn;
            p[12] = ahn - hn; p[13] = sb * CT16 * CT16; p[14] = N * hnb; p[15] = N * ahn * sb * CT16; p[16] = hb * CT16 * sb * CT16;
        } else if (type == 4) {
            p[4] = H; p[5] = hb; p[6] = sb; p[7] = hnb; p[8] = ahn; p[9] = ahn - hn; p[10] = sb * 256; p[11] = N * hnb;
            p[12] = sb * CT16 * ahn; p[13] = ahn * CT16; p[14] = ahn * e; p[15] = N * ahn * sb * CT16; p[16] = hb * sb * 256;
            p[17] = CT16 / e;
        } else {
            p[4] = H; p[5] = hb; p[6] = sb; p[7] = hnb; p[8] = hb * CT16; p[9] = sb * 256; p[10] = hb * CT16 * CT16;
            p[11] = e * hb * CT16; p[12] = N * hnb * CT16 * sb * CT16; p[13] = hb * CT16 * sb * CT16; p[14] = CT16 / e;
        }
        return true;
    }
    if (type == 7) {
        if (!ct_check(api, s, ts, 2)) return false;
        const uint32_t e = 32 / ts, H = d(0), W = d(1);
        p[0] = e; p[1] = H; p[2] = W; p[3] = H / CT16; p[4] = H * e * ts / 32; p[5] = W / e;
        return true;
    }
    if (type >= 13 && type <= 15) {
        const size_t r = s.GetDimNum();
        if (!(r == 3 || (type == 13 && r == 2))) {
            ::kgen::host::host_warn("transpose-tiling", "%s: srcShape must be 3-D%s", api, type == 13 ? " or 2-D" : "");
            return false;
        }
        p[0] = r == 3 ? d(0) : 1; p[1] = r == 3 ? d(1) : d(0); p[2] = r == 3 ? d(2) : d(1);
        return true;
    }
    return false;  // other TransposeTypes: nothing to fill
}

template <class Tl>
inline void ct_store(const uint32_t (&p)[18], Tl& t) {
    t.param0 = p[0]; t.param1 = p[1]; t.param2 = p[2]; t.param3 = p[3]; t.param4 = p[4]; t.param5 = p[5];
    t.param6 = p[6]; t.param7 = p[7]; t.param8 = p[8]; t.param9 = p[9]; t.param10 = p[10]; t.param11 = p[11];
    t.param12 = p[12]; t.param13 = p[13]; t.param14 = p[14]; t.param15 = p[15]; t.param16 = p[16]; t.param17 = p[17];
}

template <class Tl>
inline void ct_tiling(const char* api, const ge::Shape& s, uint32_t stack, uint32_t ts, uint32_t type, Tl& t) {
    uint32_t p[18];
    if (ct_params(api, s, stack, ts, type, p)) ct_store(p, t);
}

inline void ct_sizes(const ge::Shape& s, uint32_t ts, uint32_t type, uint32_t& maxValue, uint32_t& minValue) {
    if (type == 1 || type == 2) {
        maxValue = (s.GetDimNum() > 2 ? ct_a16(static_cast<uint64_t>(s.GetDim(2))) : 0) * CT16 * ts;
        minValue = 256 * ts;
    } else if (type >= 3 && type <= 6) {
        maxValue = minValue = 2 * 256 * ts;
    } else if (type == 7 || (type >= 13 && type <= 15)) {
        maxValue = minValue = 0;
    }
}

}  // namespace kgen_host

inline void GetTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                                      uint32_t& maxValue, uint32_t& minValue) {
    kgen_host::ct_sizes(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}
inline void GetConfusionTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
    kgen_host::ct_sizes(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling) {
    kgen_host::ct_tiling("GetTransposeTilingInfo", srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, ::ConfusionTransposeTiling& tiling) {
    kgen_host::ct_tiling("GetTransposeTilingInfo", srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                            const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling) {
    kgen_host::ct_tiling("GetConfusionTransposeTilingInfo", srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                            const uint32_t transposeTypeIn, ::ConfusionTransposeTiling& tiling) {
    kgen_host::ct_tiling("GetConfusionTransposeTilingInfo", srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling) {
    kgen_host::ct_tiling("GetConfusionTransposeOnlyTilingInfo", srcShape, stackBufferSize, typeSize, 7, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, ::ConfusionTransposeTiling& tiling) {
    kgen_host::ct_tiling("GetConfusionTransposeOnlyTilingInfo", srcShape, stackBufferSize, typeSize, 7, tiling);
}

inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const TensorShape& srcShape,
                                      const TensorShape& dstShape, const ge::DataType dataType, const TransDataConfig& config,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)platform;
    using K = ::kgen::adv::TdKind;
    auto bad = [](const char* why) {
        ::kgen::host::host_warn("transdata-shape", "GetTransDataMaxMinTmpSize: %s", why);
        return false;
    };
    if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 && dataType != ge::DT_UINT16 && dataType != ge::DT_INT16)
        return bad("dataType must be DT_FLOAT16, DT_BF16, DT_UINT16 or DT_INT16");
    const K k = ::kgen::adv::td_kind(config.srcFormat, config.dstFormat);
    if (k == K::None) return bad("config must be NCDHW <-> NDC1HWC0 or NCDHW <-> FRACTAL_Z_3D");
    const bool from = k == K::FromNdc1hwc0 || k == K::FromFz3d, fz = k == K::ToFz3d || k == K::FromFz3d;
    const ge::Shape& nc = from ? dstShape : srcShape;
    const ge::Shape& o = from ? srcShape : dstShape;
    if (nc.GetDimNum() != 5 || o.GetDimNum() != (fz ? 7u : 6u)) return bad("the shapes do not match the formats' ranks");
    ::kgen::adv::TdDims t{nc.GetDim(0), nc.GetDim(1), nc.GetDim(2), nc.GetDim(3), nc.GetDim(4)};
    const bool ok = fz ? (o.GetDim(0) == t.d && o.GetDim(2) == t.h && o.GetDim(3) == t.w && o.GetDim(6) == 16 &&
                          o.GetDim(1) == t.c1() && o.GetDim(5) == 16 && o.GetDim(4) == t.n1())
                       : (o.GetDim(0) == t.n && o.GetDim(1) == t.d && o.GetDim(3) == t.h && o.GetDim(4) == t.w &&
                          o.GetDim(5) == 16 && o.GetDim(2) == t.c1());
    if (!ok) return bad("the source and destination shapes do not describe the same tensor");
    maxValue = minValue = ::kgen::adv::transdata_tmp_bytes(k, t);
    return true;
}

}  // namespace AscendC
