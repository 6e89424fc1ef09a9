// kgen host-side emulation -- the Matmul tiling classes: matmul_tiling::MatmulApiTiling (one core),
// matmul_tiling::MultiCoreMatmulTiling (SetDim cores), and the tiling-data class optiling::TCubeTiling.
//
// Documented behaviour followed (Matmul Tiling class pages):
//  * SetAType/SetBType(TPosition, CubeFormat, DataType, isTrans), SetCType / SetBiasType(TPosition,
//    CubeFormat, DataType) describe the operands; SetShape(m, n, k) the problem, SetOrgShape(m, n, k)
//    or (m, n, ka, kb) the original (full) matrices; EnableBias / SetBias(bool) switch bias on;
//    SetBufferSpace(l1Size, l0CSize, ubSize, btSize) limits the buffers (-1: the whole buffer);
//    SetFixSplit(baseM, baseN, baseK) fixes the base block (-1: chosen); SetTraverse(FIRSTM|FIRSTN)
//    the iteration order; SetDim(n) the cores a MultiCoreMatmulTiling may split M and N over;
//    SetSingleShape fixes the single-core shape; SetMatmulConfigParams(MatmulConfigParams) sets the
//    kernel template, schedule and traversal (the traversal sets iterateOrder). BatchMatmulTiling /
//    SetBatchInfoForNormal(batchA, batchB, m, n, k) / SetBatchNum(n) describe a batch matmul: the tiling
//    of one batch, BatchNum = the larger batch count (or SetBatchNum's); SetA/B/CLayout and
//    SetBatchInfoForNormal fill the A/B/CLayoutInfo axes.
//  * GetTiling(optiling::TCubeTiling& or TCubeTiling&) returns 0, or -1 when no valid tiling exists
//    (the reason is reported as a `matmul-tiling` warning at the caller's line; the tiling is then all
//    zero, and a kernel that uses it anyway gets `matmul-bad-tiling`). The values follow the rule in
//    kgen_sim/matmul/tiling_algo.h.
//  * The setters return 0 (-1 for an invalid argument); GetBaseM/N/K give the last tiling's values.
//
// @api MatmulApiTiling MultiCoreMatmulTiling GetTiling SetAType SetBType SetCType SetBiasType SetShape
// @api SetOrgShape EnableBias SetBufferSpace SetFixSplit SetTraverse SetDim SetSingleShape MatrixTraverse
// @api SetMatmulConfigParams MatmulConfigParams BatchMatmulTiling SetBatchInfoForNormal SetBatchNum SetALayout SetBLayout SetCLayout SetSparse
#pragma once
#include <cstdint>
#include <iostream>  // CANN's tiling headers bring in iostream; host tiling code uses std::cout
#include <string>

#include "graph/types.h"
#include "kgen_sim/host_diag.h"
#include "kgen_sim/matmul/tiling_algo.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
#define KGEN_TCUBE_HOST_FIELD(f) TILING_DATA_FIELD_DEF(int32_t, f);
BEGIN_TILING_DATA_DEF(TCubeTiling)
KGEN_TCUBE_FIELDS(KGEN_TCUBE_HOST_FIELD)
END_TILING_DATA_DEF;
#undef KGEN_TCUBE_HOST_FIELD
// Not registered on purpose: the kernel side defines TCubeTiling itself (kgen_sim/matmul/tcube_tiling.h).
static_assert(sizeof(TCubeTiling) == sizeof(::TCubeTiling), "host and kernel TCubeTiling differ");
}  // namespace optiling

namespace matmul_tiling {

enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX };
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
/// Numbered as ge::DataType.
enum class DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_INT4 = 29,
    DT_UNDEFINED = 28,
};
enum class MatrixTraverse { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };
/// SetMatmulConfigParams' argument: the kernel template (0 NORM, 1 MDL), L1 caching of UB blocks, the
/// load schedule, the traversal order, ND->NZ on the vector core.
struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT, MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                       bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn), traverse(traverseIn),
          enVecND2NZ(enVecND2NZIn) {}
};

inline kgen::mm::Elem to_elem(DataType d) {
    switch (d) {
        case DataType::DT_FLOAT16: return kgen::mm::Elem::F16;
        case DataType::DT_BF16: return kgen::mm::Elem::BF16;
        case DataType::DT_FLOAT: return kgen::mm::Elem::F32;
        case DataType::DT_INT8: return kgen::mm::Elem::I8;
        case DataType::DT_INT32: return kgen::mm::Elem::I32;
        case DataType::DT_INT4: return kgen::mm::Elem::I4;
        default: return kgen::mm::Elem::None;
    }
}
inline DataType to_data_type(ge::DataType d) { return static_cast<DataType>(static_cast<int>(d)); }

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() = default;
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC&) {}
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat fmt, DataType t, bool isTrans = false) {
        p_.a = to_elem(t); a_trans_ = isTrans; p_.a_whole = pos == TPosition::TSCM; return fmt_ok(fmt); }
    int32_t SetBType(TPosition pos, CubeFormat fmt, DataType t, bool isTrans = false) {
        p_.b = to_elem(t); b_trans_ = isTrans; p_.b_whole = pos == TPosition::TSCM; return fmt_ok(fmt); }
    int32_t SetCType(TPosition pos, CubeFormat fmt, DataType t) { p_.c = to_elem(t); (void)pos; return fmt_ok(fmt); }
    int32_t SetBiasType(TPosition pos, CubeFormat fmt, DataType t) { p_.bias_t = to_elem(t); (void)pos; return fmt_ok(fmt); }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        if (m > 0) p_.m = m;
        if (n > 0) p_.n = n;
        if (k > 0) p_.k = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK) { return SetOrgShape(orgM, orgN, orgK, orgK); }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb) {
        p_.org_m = orgM; p_.org_n = orgN; p_.org_ka = orgKa; p_.org_kb = orgKb;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) { p_.bias = isBiasIn; return 0; }
    int32_t EnableBias(bool isBiasIn = false) { p_.bias = isBiasIn; return 0; }
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        p_.l1 = l1Size > 0 ? l1Size : 524288;
        p_.l0c = l0CSize > 0 ? l0CSize : 131072;
        (void)ubSize; (void)btSize;
        return 0;
    }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        p_.base_m = baseMIn; p_.base_n = baseNIn; p_.base_k = baseKIn;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) { p_.first_n = traverse == MatrixTraverse::FIRSTN; return 0; }
    /// 4:2 sparse B (SparseMatmulType): the tiling keeps K as the logical (full) K; the kernel reads the
    /// densified B (K / 2 values per column) with its index matrix (kgen_sim/matmul/matmul_operand.h).
    int32_t SetSparse(bool isSparseIn = false) { sparse_ = isSparseIn; return 0; }
    /// Batch matmul, NORMAL layout: batchA x [m, k] times batchB x [k, n] (BatchNum = the larger); the
    /// layout axes become A (batchA, m, 1, 1, k), B (batchB, n, 1, 1, k), C (max batch, m, 1, 1, n).
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        if (batchA < 1 || batchB < 1 || m < 1 || n < 1 || k < 1) return -1;
        SetShape(m, n, k);
        SetOrgShape(m, n, k);
        batch_ = batchA > batchB ? batchA : batchB;
        a_lay_ = {{batchA, m, 1, 1, k}};
        b_lay_ = {{batchB, n, 1, 1, k}};
        c_lay_ = {{batch_, m, 1, 1, n}};
        return 0;
    }
    int32_t SetBatchNum(int32_t batch) { batch_ = batch; return 0; }
    /// Layout axes of BSNGD/SBNGD/BNGS1S2 batch matmuls, recorded in the tiling's A/B/CLayoutInfo fields
    /// (the kernel's IterateBatch places the matrices by them, kgen_sim/matmul/matmul_batch.h).
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { a_lay_ = {b, s, n, g, d}; return 0; }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { b_lay_ = {b, s, n, g, d}; return 0; }
    int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) { c_lay_ = {b, s1, n, g, s2}; return 0; }
    int32_t SetMadType(MatrixMadType) { return 0; }
    int32_t SetDoubleBuffer(bool, bool, bool, bool, bool = true, bool = true) { return 0; }
    int32_t SetAlignSplit(int32_t, int32_t, int32_t) { return 0; }
    int32_t SetDequantType(DequantType) { return 0; }
    int32_t SetSplitRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
        SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn, traverseIn, enVecND2NZIn));
    }
    void SetMatmulConfigParams(const MatmulConfigParams& c) {
        if (c.traverse != MatrixTraverse::NOSET) p_.first_n = c.traverse == MatrixTraverse::FIRSTN;
    }
    void EnableL1BankConflictOptimise() {}
    int32_t GetBaseM() const { return last_.baseM; }
    int32_t GetBaseN() const { return last_.baseN; }
    int32_t GetBaseK() const { return last_.baseK; }

    int64_t GetTiling(optiling::TCubeTiling& tiling) { return fill(tiling); }
    int64_t GetTiling(::TCubeTiling& tiling) { return fill(tiling); }

    // ---- emulator-internal ----
    const kgen::mm::TilingProblem& problem() const { return p_; }

protected:
    static int32_t fmt_ok(CubeFormat f) {
        return (f == CubeFormat::ND || f == CubeFormat::NZ || f == CubeFormat::ND_ALIGN || f == CubeFormat::VECTOR) ? 0 : -1;
    }
    template <class T>
    int64_t fill(T& out) {
        ::TCubeTiling t;
        std::string why;
        if (!kgen::mm::compute_tiling(p_, t, why)) {
            kgen::host::host_warn("matmul-tiling", "GetTiling returns -1: %s", why.c_str());
            t = ::TCubeTiling{};
            copy(t, out);
            return -1;
        }
        if (!why.empty()) kgen::host::host_warn("matmul-tiling", "GetTiling: %s", why.c_str());
        t.BatchNum = batch_;
        t.ALayoutInfoB = a_lay_.v[0]; t.ALayoutInfoS = a_lay_.v[1]; t.ALayoutInfoN = a_lay_.v[2]; t.ALayoutInfoG = a_lay_.v[3];
        t.ALayoutInfoD = a_lay_.v[4];
        t.BLayoutInfoB = b_lay_.v[0]; t.BLayoutInfoS = b_lay_.v[1]; t.BLayoutInfoN = b_lay_.v[2]; t.BLayoutInfoG = b_lay_.v[3];
        t.BLayoutInfoD = b_lay_.v[4];
        t.CLayoutInfoB = c_lay_.v[0]; t.CLayoutInfoS1 = c_lay_.v[1]; t.CLayoutInfoN = c_lay_.v[2]; t.CLayoutInfoG = c_lay_.v[3];
        t.CLayoutInfoS2 = c_lay_.v[4];
        last_ = t;
        copy(t, out);
        return 0;
    }
    template <class T>
    static void copy(const ::TCubeTiling& t, T& out) {
#define KGEN_TCUBE_COPY(f) out.f = t.f;
        KGEN_TCUBE_FIELDS(KGEN_TCUBE_COPY)
#undef KGEN_TCUBE_COPY
    }
    kgen::mm::TilingProblem p_;
    bool sparse_ = false;
    ::TCubeTiling last_{};
    bool a_trans_ = false, b_trans_ = false;
    int32_t batch_ = 0;
    struct Layout { int32_t v[5] = {0, 0, 0, 0, 0}; };
    Layout a_lay_, b_lay_, c_lay_;
};

/// Single-core tiling: the whole shape on one core.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() = default;
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}
};

/// Multi-core tiling: M and N split over at most SetDim cores.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() { p_.multi_core = true; }
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) { p_.multi_core = true; }
    int32_t SetDim(int32_t dim) {
        if (dim < 1) return -1;
        p_.cores = dim;
        return 0;
    }
    int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        p_.single_m = singleMIn; p_.single_n = singleNIn; p_.single_k = singleKIn;
        return 0;
    }
    int32_t SetSingleRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    void EnableMultiCoreSplitK(bool) {}
    void SetSplitK(bool) {}
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const {
        shapeM = last_.singleCoreM; shapeN = last_.singleCoreN; shapeK = last_.singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
        dim = last_.usedCoreNum;
        mDim = last_.singleCoreM ? int32_t(kgen::mm::ceil_div(last_.M, last_.singleCoreM)) : 0;
        nDim = last_.singleCoreN ? int32_t(kgen::mm::ceil_div(last_.N, last_.singleCoreN)) : 0;
        return 0;
    }
};

/// Batch matmul tiling (SetBatchInfoForNormal / SetBatchNum / SetALayout ...): one batch's tiling plus
/// BatchNum.
class BatchMatmulTiling : public MultiCoreMatmulTiling {
public:
    BatchMatmulTiling() = default;
    explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MultiCoreMatmulTiling(p) {}
};

}  // namespace matmul_tiling
