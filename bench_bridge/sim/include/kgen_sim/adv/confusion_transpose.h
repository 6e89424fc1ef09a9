// kgen AscendC CPU emulator -- the high-level Transpose (ConfusionTranspose): NZ/ND layout changes
// with a reshape, scenarios 1-7 of dav-2201.
//
// Documented rules followed (Transpose page of the high-level API, dav-2201), 16 = the fractal edge:
//  * Transpose<T>(dst, src, [sharedTmpBuffer,] TransposeType, ConfusionTransposeTiling&); the older
//    name ConfusionTranspose has the same forms. T: int16_t, uint16_t, half, int32_t, uint32_t, float.
//    The shapes come from the tiling (adv/host_transpose_tiling.h), as on the NPU; its param0 (elements
//    per 32-byte block) must match T (`transpose-tiling`).
//  * Scenario 1 TRANSPOSE_NZ2ND_0213: src NZ [B, A1, A3/16, A2/16, 16, 16] (origin [B, A1, A2, A3]) ->
//    dst ND [B, A2, A1, A3]. Scenario 2 TRANSPOSE_NZ2NZ_0213: same source -> dst NZ [B, A2, A3/16,
//    A1, 16] (per A2 row an NZ matrix of A1 rows). A2 and A3 are padded to 16 (alignA2, alignA3): the
//    whole padded block is moved, so the ND rows are alignA3 long and there are alignA2 of them.
//  * Scenario 3 TRANSPOSE_NZ2NZ_012_WITH_N: src NZ [B, H/16, S/16, 16, 16] (origin [B, S, H]) -> dst NZ
//    [B, N, H/N/16, S/16, 16, 16] (origin [B, N, S, H/N]); scenario 4 TRANSPOSE_NZ2ND_012_WITH_N: same
//    source -> dst ND [B, N, S, alignHnDiv] (rows of H/N padded to 16).
//  * Scenario 5 TRANSPOSE_NZ2ND_012_WITHOUT_N: src NZ [B, N, H/N/16, S/16, 16, 16] -> dst ND [B, S,
//    alignH] (H = N * H/N, rows padded to 16); scenario 6 TRANSPOSE_NZ2NZ_012_WITHOUT_N: same source
//    -> dst NZ [B, H/16, S/16, 16, 16].
//    S is padded to 16 in every scenario (the tiling only knows alignS). Where a scenario splits or
//    merges H, the padding columns of the destination hold unspecified values on the NPU; the emulator
//    writes 0 there.
//  * Scenario 7 TRANSPOSE_ND2ND_ONLY: [H, W] -> [W, H], H and W multiples of 16 (`transpose-shape`).
//  * Temporary buffer (GetTransposeMaxMinTmpSize): scenarios 1/2 use newPopSize (param6) elements
//    (a multiple of 256; the tiling needs a stackBufferSize of at least 256 * sizeof(T), else the
//    tiling is empty: `transpose-tiling`); scenarios 3-6 need 2 * 256 * sizeof(T) bytes; scenario 7
//    none. A smaller sharedTmpBuffer is `adv-tmp-too-small`; without one, free UB (`adv-tmp-no-room`).
//  * TRANSPOSE_ND_UB_GM, TRANSPOSE_GRAD_ND_UB_GM, TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC and
//    TRANSPOSE_NHWC2NCHW are documented as not supported; TRANSPOSE_ND2ND_021 / 102 / 210 and
//    TRANSPOSE_ND2NZ_WITH_INTLV (scenarios 13-16) exist only on Ascend 950 (dav-3510): all are
//    `api-unsupported`. TRANSPOSE_TYPE_NONE does nothing.
//  * Source and destination must not overlap.
//
// Precision: data movement (exact).
//
// @api ConfusionTranspose
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/transpose_types.h"
#include "kgen_sim/gather_transpose.h"

namespace kgen {
namespace adv {

template <class T>
inline constexpr bool ct_type_v = one_of_v<T, int16_t, uint16_t, half, int32_t, uint32_t, float>;

inline const char* ct_name(AscendC::TransposeType t) {
    using TT = AscendC::TransposeType;
    switch (t) {
        case TT::TRANSPOSE_NZ2ND_0213: return "TRANSPOSE_NZ2ND_0213";
        case TT::TRANSPOSE_NZ2NZ_0213: return "TRANSPOSE_NZ2NZ_0213";
        case TT::TRANSPOSE_NZ2NZ_012_WITH_N: return "TRANSPOSE_NZ2NZ_012_WITH_N";
        case TT::TRANSPOSE_NZ2ND_012_WITH_N: return "TRANSPOSE_NZ2ND_012_WITH_N";
        case TT::TRANSPOSE_NZ2ND_012_WITHOUT_N: return "TRANSPOSE_NZ2ND_012_WITHOUT_N";
        case TT::TRANSPOSE_NZ2NZ_012_WITHOUT_N: return "TRANSPOSE_NZ2NZ_012_WITHOUT_N";
        case TT::TRANSPOSE_ND2ND_ONLY: return "TRANSPOSE_ND2ND_ONLY";
        default: return "this TransposeType";
    }
}

/// One planned call: element counts of both operands, temporary bytes, and the index map.
struct CtPlan {
    uint64_t ns = 0, nd = 0;
    uint32_t tmp = 0;
};

template <class T, class Map>
inline void ct_run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                   const CtPlan& p, Map map) {
    operand(api, dst, p.nd);
    operand(api, src, p.ns);
    no_overlap(api, dst, p.nd, src, p.ns, "the source and destination tensors");
    Tmp tb{tmp, p.tmp, p.tmp};
    check_tmp(api, tb, {{lo_of(dst), hi_of(dst, p.nd)}, {lo_of(src), hi_of(src, p.ns)}});
    T* d = dst.raw();
    const T* s = src.raw();
    map(d, s);
    clobber_tmp(tb);
    trace_call(api, p.nd * sizeof(T), 2);
}

template <class T>
inline void confusion_transpose(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>* tmp, AscendC::TransposeType type,
                                const ConfusionTransposeTiling& tl) {
    static_assert(ct_type_v<T>, "Transpose (high-level, dav-2201) supports int16_t, uint16_t, half, int32_t, uint32_t, float");
    using TT = AscendC::TransposeType;
    constexpr uint32_t C = 16, E = 32 / sizeof(T);
    auto need = [&](bool ok, const char* what) {
        if (!ok)
            fail("transpose-tiling", "%s with %s: the tiling %s (fill it with GetTransposeTilingInfo for this type and "
                 "TransposeType)", api, ct_name(type), what);
    };
    switch (type) {
        case TT::TRANSPOSE_TYPE_NONE: return;
        case TT::TRANSPOSE_NZ2ND_0213:
        case TT::TRANSPOSE_NZ2NZ_0213:
        case TT::TRANSPOSE_NZ2NZ_012_WITH_N:
        case TT::TRANSPOSE_NZ2ND_012_WITH_N:
        case TT::TRANSPOSE_NZ2ND_012_WITHOUT_N:
        case TT::TRANSPOSE_NZ2NZ_012_WITHOUT_N:
        case TT::TRANSPOSE_ND2ND_ONLY: break;
        case TT::TRANSPOSE_ND2ND_021:
        case TT::TRANSPOSE_ND2ND_102:
        case TT::TRANSPOSE_ND2ND_210:
        case TT::TRANSPOSE_ND2NZ_WITH_INTLV:
            fail("api-unsupported", "%s: TransposeType %d (scenarios 13-16: ND2ND_021/102/210, ND2NZ_WITH_INTLV) exists only on "
                 "Ascend 950 (dav-3510); on dav-2201 use TRANSPOSE_ND2ND_ONLY for a 2-D transpose", api, int(type));
        default:
            fail("api-unsupported", "%s: TransposeType %d is documented as not supported by the high-level Transpose", api,
                 int(type));
    }
    need(tl.param0 == E, "was computed for another type size (param0, elements per 32-byte block, differs)");
    if (type == TT::TRANSPOSE_NZ2ND_0213 || type == TT::TRANSPOSE_NZ2NZ_0213) {
        const uint32_t B = tl.param1, A1 = tl.param2, a3 = tl.param3, a2 = tl.param4, pop = tl.param6;
        need(B && A1 && a2 && a3 && a2 % C == 0 && a3 % C == 0, "holds no [B, A1, A2, A3] shape");
        need(pop != 0, "plans no temporary area: GetTransposeTilingInfo needs a stackBufferSize of at least 256 * typeSize");
        const uint64_t n = uint64_t(B) * A1 * a2 * a3;
        const bool nd = type == TT::TRANSPOSE_NZ2ND_0213;
        ct_run<T>(api, dst, src, tmp, {n, n, pop * uint32_t(sizeof(T))}, [&](T* d, const T* s) {
            for (uint64_t b = 0; b < B; ++b)
                for (uint64_t i = 0; i < A1; ++i)
                    for (uint64_t x = 0; x < a2; ++x)
                        for (uint64_t y = 0; y < a3; ++y) {
                            const uint64_t si = (b * A1 + i) * a2 * a3 + (y / C) * a2 * C + x * C + y % C;
                            const uint64_t row = b * a2 * A1 * a3 + x * A1 * a3;
                            const uint64_t di = nd ? row + i * a3 + y : row + (y / C) * A1 * C + i * C + y % C;
                            d[di] = s[si];
                        }
        });
        return;
    }
    if (type == TT::TRANSPOSE_ND2ND_ONLY) {
        const uint32_t H = tl.param1, W = tl.param2;
        if (!H || !W || H % C || W % C)
            fail("transpose-shape", "%s with TRANSPOSE_ND2ND_ONLY: [H, W] = [%u, %u] must be non-zero multiples of 16 (documented)",
                 api, H, W);
        const uint64_t n = uint64_t(H) * W;
        ct_run<T>(api, dst, src, tmp, {n, n, 0}, [&](T* d, const T* s) {
            for (uint64_t h = 0; h < H; ++h)
                for (uint64_t w = 0; w < W; ++w) d[w * H + h] = s[h * W + w];
        });
        return;
    }
    // scenarios 3-6: [B, N, S, H/N] with H = N * H/N
    const uint32_t B = tl.param1, N = tl.param2, hn = tl.param3;
    const bool with_n = type == TT::TRANSPOSE_NZ2NZ_012_WITH_N || type == TT::TRANSPOSE_NZ2ND_012_WITH_N;
    const uint32_t sBlocks = type == TT::TRANSPOSE_NZ2NZ_012_WITH_N ? tl.param7 : tl.param6;
    need(B && N && hn && sBlocks, "holds no [B, N, S, H/N] shape");
    const uint64_t H = uint64_t(N) * hn, aH = (H + C - 1) / C * C, aS = uint64_t(sBlocks) * C;
    const uint64_t aHn = (hn + C - 1) / C * C;
    const uint64_t merged = B * aS * aH, split = B * N * aS * aHn;  // element counts of the two layouts
    const uint32_t tmpBytes = 2 * 256 * uint32_t(sizeof(T));
    // merged layout (NZ [B, H/16, S/16, 16, 16] or ND [B, S, alignH]) and split layouts
    auto merged_nz = [&](uint64_t b, uint64_t s, uint64_t h) { return b * aS * aH + (h / C) * aS * C + s * C + h % C; };
    auto merged_nd = [&](uint64_t b, uint64_t s, uint64_t h) { return b * aS * aH + s * aH + h; };
    auto split_nz = [&](uint64_t b, uint64_t n, uint64_t s, uint64_t x) {
        return (b * N + n) * aHn * aS + (x / C) * aS * C + s * C + x % C;
    };
    auto split_nd = [&](uint64_t b, uint64_t n, uint64_t s, uint64_t x) { return (b * N + n) * aS * aHn + s * aHn + x; };
    const CtPlan plan = with_n ? CtPlan{merged, split, tmpBytes} : CtPlan{split, merged, tmpBytes};
    ct_run<T>(api, dst, src, tmp, plan, [&](T* d, const T* s) {
        const T zero = T(0);
        for (uint64_t b = 0; b < B; ++b)
            for (uint64_t x = 0; x < aS; ++x) {
                for (uint64_t n = 0; n < N; ++n)
                    for (uint64_t y = 0; y < aHn; ++y) {
                        const bool valid = y < hn;
                        const uint64_t h = n * hn + y;
                        if (with_n) {
                            const uint64_t di = type == TT::TRANSPOSE_NZ2NZ_012_WITH_N ? split_nz(b, n, x, y) : split_nd(b, n, x, y);
                            d[di] = valid ? s[merged_nz(b, x, h)] : zero;
                        } else if (valid) {
                            const uint64_t di = type == TT::TRANSPOSE_NZ2ND_012_WITHOUT_N ? merged_nd(b, x, h) : merged_nz(b, x, h);
                            d[di] = s[split_nz(b, n, x, y)];
                        }
                    }
                if (!with_n)
                    for (uint64_t h = H; h < aH; ++h)
                        d[type == TT::TRANSPOSE_NZ2ND_012_WITHOUT_N ? merged_nd(b, x, h) : merged_nz(b, x, h)] = zero;
            }
    });
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      TransposeType transposeType, ConfusionTransposeTiling& tiling) {
    kgen::adv::confusion_transpose<T>("Transpose", dst, src, &sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                      ConfusionTransposeTiling& tiling) {
    kgen::adv::confusion_transpose<T>("Transpose", dst, src, nullptr, transposeType, tiling);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling) {
    kgen::adv::confusion_transpose<T>("ConfusionTranspose", dstTensor, srcTensor, &sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling) {
    kgen::adv::confusion_transpose<T>("ConfusionTranspose", dstTensor, srcTensor, nullptr, transposeType, tiling);
}

}  // namespace AscendC
