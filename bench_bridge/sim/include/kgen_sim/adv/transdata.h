// kgen AscendC CPU emulator -- TransData (high-level, dav-2201): NCDHW <-> NDC1HWC0 / FRACTAL_Z_3D.
//
// Documented rules followed (TransData and GetTransDataMaxMinTmpSize pages, dav-2201 = Atlas A2):
//  * TransData<config>(dst, src, [sharedTmpBuffer,] TransDataParams<U, S>{srcLayout, dstLayout}); config
//    is a TransDataConfig {srcFormat, dstFormat}: NCDHW -> NDC1HWC0, NDC1HWC0 -> NCDHW, NCDHW ->
//    FRACTAL_Z_3D or FRACTAL_Z_3D -> NCDHW (anything else: `api-unsupported`). T: int16_t, uint16_t,
//    half, bfloat16_t. C0 = N0 = 16, C1 = ceil(C / 16), N1 = ceil(N / 16).
//  * The layouts' shapes: NCDHW (n, c, d, h, w); NDC1HWC0 (n, d, c1, h, w, c0); FRACTAL_Z_3D (d, c1, h, w,
//    n1, n0, c0). They must agree (same n, d, h, w; c1 * c0 = C rounded up to 16 with c0 = 16; n1 * n0 =
//    N rounded up to 16 with n0 = 16), else `transdata-shape`.
//  * An NCDHW tensor in UB has its merged H*W axis padded to 16 elements (32 bytes): element
//    (n, c, d, hw) at ((n * C + c) * D + d) * align16(H*W) + hw. As input, the padding is ignored; as
//    output, the padding holds unspecified values on the NPU (the emulator writes 0).
//    NDC1HWC0: (n, d, c1, hw, c0) packed; FRACTAL_Z_3D: (d, c1, hw, n1, n0, c0) packed. Channels (and
//    for FRACTAL_Z_3D batches) beyond C (N) are written as 0 when converting from NCDHW.
//  * Temporary buffer, in bytes (min = max, with P = align16(H*W)): NCDHW -> NDC1HWC0: (D*P + D*C1*16*P)
//    * 2; NDC1HWC0 -> NCDHW: D*C1*16*P*2 + 512; NCDHW -> FRACTAL_Z_3D: max(C*D*P*2, D*H*W*N1*16*2) +
//    N1*16*D*C1*16*P*2; FRACTAL_Z_3D -> NCDHW: N1*16*C1*16*D*P*2, doubled unless N and C are multiples
//    of 16. Smaller: `adv-tmp-too-small`; without a sharedTmpBuffer, free UB (`adv-tmp-no-room`).
//  * Source, destination and the temporary buffer must not overlap.
//
// Precision: data movement (exact).
//
// @api TransData TransDataConfig TransDataParams
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/transdata_rules.h"
#include "kgen_sim/layout.h"


namespace kgen {
namespace adv {

/// Check that the two layouts describe one tensor; the dims, or a `transdata-shape` error.
inline TdDims transdata_dims(TdKind k, const int64_t* s, size_t ns, const int64_t* d, size_t nd) {
    const bool from = k == TdKind::FromNdc1hwc0 || k == TdKind::FromFz3d;
    const int64_t* nc = from ? d : s;   // the NCDHW side
    const int64_t* o = from ? s : d;    // the other side
    const size_t nn = from ? nd : ns, no = from ? ns : nd;
    const bool fz = k == TdKind::ToFz3d || k == TdKind::FromFz3d;
    if (nn != 5 || no != (fz ? 7u : 6u))
        fail("transdata-shape", "TransData: the NCDHW layout needs 5 dimensions and the %s layout %u (got %zu and %zu)",
             fz ? "FRACTAL_Z_3D" : "NDC1HWC0", fz ? 7u : 6u, nn, no);
    TdDims t{nc[0], nc[1], nc[2], nc[3], nc[4]};
    bool ok;
    if (fz)  // (d, c1, h, w, n1, n0, c0)
        ok = o[0] == t.d && o[2] == t.h && o[3] == t.w && o[6] == 16 && o[1] * 16 == t.c1() * 16 && o[5] == 16 &&
             o[4] * 16 == t.n1() * 16;
    else     // (n, d, c1, h, w, c0)
        ok = o[0] == t.n && o[1] == t.d && o[3] == t.h && o[4] == t.w && o[5] == 16 && o[2] * 16 == t.c1() * 16;
    if (!ok || t.n <= 0 || t.c <= 0 || t.d <= 0 || t.h <= 0 || t.w <= 0)
        fail("transdata-shape", "TransData: the source and destination layouts do not describe the same tensor "
             "(N %lld, C %lld, D %lld, H %lld, W %lld; C0 and N0 must be 16, C1 = ceil(C/16), N1 = ceil(N/16))",
             (long long)t.n, (long long)t.c, (long long)t.d, (long long)t.h, (long long)t.w);
    return t;
}

template <class T, class U, class S>
inline void transdata(const AscendC::TransDataConfig& cfg, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>* tmp, const AscendC::TransDataParams<U, S>& params) {
    static_assert(one_of_v<T, int16_t, uint16_t, half, bfloat16_t>,
                  "TransData supports int16_t, uint16_t, half and bfloat16_t");
    const char* api = "TransData";
    const TdKind k = td_kind(cfg.srcFormat, cfg.dstFormat);
    if (k == TdKind::None)
        fail("api-unsupported", "TransData: this srcFormat/dstFormat pair is not supported; the documented ones are "
             "NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D");
    int64_t s[8] = {0}, d[8] = {0};
    const size_t ns = kgen::shape_dims(params.srcLayout.GetShape(), s);
    const size_t nd = kgen::shape_dims(params.dstLayout.GetShape(), d);
    const TdDims t = transdata_dims(k, s, ns, d, nd);
    const int64_t N = t.n, C = t.c, D = t.d, HW = t.hw(), P = t.pad_hw(), C1 = t.c1(), N1 = t.n1();
    const uint64_t ncdhw = uint64_t(N * C * D * P);
    const uint64_t ndc = uint64_t(N * D * C1 * HW * 16), fz = uint64_t(D * C1 * HW * N1 * 16 * 16);
    const bool from = k == TdKind::FromNdc1hwc0 || k == TdKind::FromFz3d;
    const bool isfz = k == TdKind::ToFz3d || k == TdKind::FromFz3d;
    const uint64_t other = isfz ? fz : ndc;
    const uint64_t nsrc = from ? other : ncdhw, ndst = from ? ncdhw : other;
    operand(api, dst, ndst);
    operand(api, src, nsrc);
    no_overlap(api, dst, ndst, src, nsrc, "the source and destination tensors");
    const uint32_t need = transdata_tmp_bytes(k, t);
    Tmp tb{tmp, need, need};
    check_tmp(api, tb, {{lo_of(dst), hi_of(dst, ndst)}, {lo_of(src), hi_of(src, nsrc)}});
    T* out = dst.raw();
    const T* in = src.raw();
    const T zero = T(0);
    auto at_ncdhw = [&](int64_t n, int64_t c, int64_t dd, int64_t hw) { return ((n * C + c) * D + dd) * P + hw; };
    auto at_other = [&](int64_t n, int64_t c, int64_t dd, int64_t hw) {
        const int64_t c1 = c / 16, c0 = c % 16;
        if (isfz) return ((((dd * C1 + c1) * HW + hw) * N1 + n / 16) * 16 + n % 16) * 16 + c0;
        return (((n * D + dd) * C1 + c1) * HW + hw) * 16 + c0;
    };
    if (from) {
        for (uint64_t i = 0; i < ncdhw; ++i) out[i] = zero;  // the H*W padding of each row
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t dd = 0; dd < D; ++dd)
                    for (int64_t hw = 0; hw < HW; ++hw) out[at_ncdhw(n, c, dd, hw)] = in[at_other(n, c, dd, hw)];
    } else {
        const int64_t NP = isfz ? N1 * 16 : N;  // FRACTAL_Z_3D pads the batch too
        for (int64_t n = 0; n < NP; ++n)
            for (int64_t c = 0; c < C1 * 16; ++c)
                for (int64_t dd = 0; dd < D; ++dd)
                    for (int64_t hw = 0; hw < HW; ++hw)
                        out[at_other(n, c, dd, hw)] = (n < N && c < C) ? in[at_ncdhw(n, c, dd, hw)] : zero;
    }
    clobber_tmp(tb);
    trace_call(api, ndst * sizeof(T), 3);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransDataParams<U, S>& params) {
    kgen::adv::transdata<T, U, S>(config, dstTensor, srcTensor, &sharedTmpBuffer, params);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const TransDataParams<U, S>& params) {
    kgen::adv::transdata<T, U, S>(config, dstTensor, srcTensor, nullptr, params);
}

}  // namespace AscendC
