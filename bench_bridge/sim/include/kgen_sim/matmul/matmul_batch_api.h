// kgen AscendC CPU emulator -- the batch forms of the Matmul API: IterateBatch, IterateNBatch,
// GetBatchTensorC / GetBatchC, as a base class of AscendC::Matmul (kgen_sim/matmul/matmul_impl.h), which
// holds the state they use. The layout rules are in kgen_sim/matmul/matmul_batch.h.
// Not an AscendC API by itself (the @api names are on matmul_impl.h).
#pragma once
#include <algorithm>
#include <string>

#include "kgen_sim/matmul/matmul_batch.h"
#include "kgen_sim/matmul/matmul_operand.h"
#include "kgen_sim/matmul/static_tiling.h"
#include "kgen_sim/tensor.h"

namespace kgen {
namespace mm {

template <class MM, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE, const auto& MM_CFG>
class BatchApi {
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    template <class T>
    using GlobalTensor = AscendC::GlobalTensor<T>;
    template <class T>
    using LocalTensor = AscendC::LocalTensor<T>;
    MM& self() { return static_cast<MM&>(*this); }
    const MM& self() const { return static_cast<const MM&>(*this); }

public:
    /// Batch matmul: C[i] = A[i'] x B[i''] (+ bias) for i < max(batchA, batchB), the smaller batch count
    /// broadcast, each matrix where its layout puts it (kgen_sim/matmul/matmul_batch.h).
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
        auto& m = self();
        (void)matrixStrideC; (void)enPartialSum;
        batch(batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, "IterateBatch", [&](uint64_t ci, bool reduce) {
            kgen::mm::Place pc = c_place(ci, true);
            GlobalTensor<DstT> c = gm[pc.offset];
            m.write_block(m.blk_, c.raw(), 0, &c, pc.ld, false, reduce ? 1 : enAtomic, "IterateBatch");
        });
    }
    template <bool sync = true>
    void IterateBatch(const LocalTensor<DstT>& ubCmatrix, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
        auto& m = self();
        (void)matrixStrideC; (void)enPartialSum;
        ubCmatrix.live("IterateBatch");
        batch(batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, "IterateBatch", [&](uint64_t ci, bool reduce) {
            kgen::mm::Place pc = c_place(ci, false);
            if (pc.offset > ubCmatrix.GetSize())
                kgen::fail("ub-out-of-bounds", "IterateBatch: batch %llu lies past the C LocalTensor", (unsigned long long)ci);
            m.write_block(m.blk_, ubCmatrix.raw() + pc.offset, ubCmatrix.GetSize() - pc.offset, nullptr, pc.ld, false, reduce ? 1 : enAtomic,
                        "IterateBatch");
        });
    }
#ifdef ASCENDC_CUBE_ONLY
    /// Cube-only forms (only with ASCENDC_CUBE_ONLY, as in CANN: in a MIX kernel a call with int batch
    /// counts must not resolve to them): the batch counts come from SetBatchNum.
    void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
        auto& m = self();
        IterateBatch(gm, m.batch_a_, m.batch_b_, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum, enAtomic);
    }
    void IterateBatch(const LocalTensor<DstT>& ub, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
        auto& m = self();
        IterateBatch(ub, m.batch_a_, m.batch_b_, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum, enAtomic);
    }
#endif
    /// batchLoop IterateBatch calls, call l on the l-th group of batches (offsets in matmul_batch.h), C into
    /// the SetWorkspace buffer in C's layout; needs MatmulConfig isNBatch.
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
        auto& m = self();
        if (!kgen::mm::config_of(MM_CFG).isNBatch)
            kgen::fail("matmul-unsupported", "IterateNBatch on a Matmul whose MatmulConfig has isNBatch = false (build it with "
                       "GetMMConfig<...>(MatmulBatchParams{true, ...}) or GetBasicConfig(..., batchLoop = true, ...))");
        m.require_tensors("IterateNBatch");
        if (!m.ws_.raw()) kgen::fail("matmul-no-workspace", "IterateNBatch writes C to the SetWorkspace buffer: call SetWorkspace first");
        const kgen::mm::Axes ax = kgen::mm::a_axes(m.t_), bx = kgen::mm::b_axes(m.t_), cx = kgen::mm::c_axes(m.t_);
        if (!ax.set() || !bx.set() || !cx.set())
            kgen::fail("matmul-batch", "IterateNBatch needs the layout axes in the tiling (SetBatchInfoForNormal, or SetALayout/"
                       "SetBLayout/SetCLayout)");
        uint64_t batchC = batchA > batchB ? batchA : batchB;
        batchC /= uint64_t(kgen::mm::reduce_g(A_TYPE::layout, ax, bx, cx));
        kgen::mm::Operand<SrcAT> a0 = m.a_;
        kgen::mm::Operand<SrcBT> b0 = m.b_;
        kgen::mm::Operand<BiasT> bias0 = m.bias_;
        for (uint32_t l = 0; l < batchLoop; ++l) {
            move(m.a_, a0, kgen::mm::nbatch_offset(A_TYPE::layout, ax, batchA, l, uint64_t(ax.d)));
            move(m.b_, b0, kgen::mm::nbatch_offset(B_TYPE::layout, bx, batchB, l, uint64_t(bx.d)));
            move(m.bias_, bias0, uint64_t(c_s2()) * batchC * l);
            IterateBatch(m.ws_[kgen::mm::nbatch_offset(C_TYPE::layout, cx, batchC, l, c_s2())], batchA, batchB, enSequentialWrite,
                         matrixStrideA, matrixStrideB, matrixStrideC);
        }
        m.a_ = a0; m.b_ = b0; m.bias_ = bias0;
        m.nb_next_ = 0; m.nb_loops_ = batchLoop; m.nb_batch_c_ = batchC;
    }
    /// The next IterateNBatch call's C in the workspace (max(batchA, batchB) single-core C matrices).
    template <bool sync = true>
    GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false) {
        auto& m = self();
        (void)batchA; (void)batchB; (void)enSequentialWrite;
        if (m.nb_next_ >= m.nb_loops_)
            kgen::fail("matmul-no-result", "GetBatchTensorC with no IterateNBatch result left (%u of %u taken)", m.nb_next_, m.nb_loops_);
        return m.ws_[kgen::mm::nbatch_offset(C_TYPE::layout, kgen::mm::c_axes(m.t_), m.nb_batch_c_, m.nb_next_++, c_s2())];
    }
    template <bool sync = true>
    void GetBatchTensorC(const LocalTensor<DstT>& c, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false) {
        auto& m = self();
        GlobalTensor<DstT> src = GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite);
        uint64_t n = uint64_t(batchA > batchB ? batchA : batchB) * uint64_t(m.s_m_) * uint64_t(m.s_n_);
        c.live("GetBatchTensorC");
        src.check(0, n, "GetBatchTensorC", kgen::GmAccess::Read);
        if (n > c.GetSize())
            kgen::fail("ub-out-of-bounds", "GetBatchTensorC copies %llu elements into a LocalTensor of %llu", (unsigned long long)n,
                       (unsigned long long)c.GetSize());
        std::copy(src.raw(), src.raw() + n, c.raw());
    }
    template <bool sync = true>
    GlobalTensor<DstT> GetBatchC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false) {
        return GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite);
    }
    template <bool sync = true>
    void GetBatchC(const LocalTensor<DstT>& c, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false) {
        GetBatchTensorC<sync>(c, batchA, batchB, enSequentialWrite);
    }

private:
    template <class T>
    static void move(kgen::mm::Operand<T>& op, const kgen::mm::Operand<T>& base, uint64_t off) {
        if (base.kind == kgen::mm::Operand<T>::Gm) op.gm = base.gm[off];
        else if (base.kind == kgen::mm::Operand<T>::Local) op.local = base.local[uint32_t(off)];
    }
    /// S2 of C's layout (padded to 32 bytes for ND_ALIGN): the distance of C batches in BSNGD / SBNGD rows.
    uint64_t c_s2() const {
        const auto& m = self();
        uint64_t s2 = uint64_t(m.t_.CLayoutInfoS2 > 0 ? m.t_.CLayoutInfoS2 : m.s_n_);
        return C_TYPE::format == CubeFormat::ND_ALIGN ? m.align_c(s2) : s2;
    }
    /// Where output batch `ci` of C starts and its row stride (GM: NORMAL rows orgN apart; UB: compact).
    kgen::mm::Place c_place(uint64_t ci, bool gm) const {
        const auto& m = self();
        uint64_t w = C_TYPE::format == CubeFormat::ND_ALIGN ? m.align_c(uint64_t(m.s_n_)) : uint64_t(m.s_n_);
        return kgen::mm::output_place(C_TYPE::layout, kgen::mm::c_axes(m.t_), uint64_t(m.s_m_), w, gm ? m.ldc() : w, ci, c_s2());
    }
    /// Run every batch of one IterateBatch call: A, B (and a batched bias) moved to that batch's matrices,
    /// every block computed, then `out(ci, reduce)` writes m.blk_ for output batch ci.
    template <class F>
    void batch(uint32_t batchA, uint32_t batchB, bool seq, uint32_t strideA, uint32_t strideB, const char* api, F&& out) {
        auto& m = self();
        m.require_tensors(api);
        const kgen::mm::Axes ax = kgen::mm::a_axes(m.t_), bx = kgen::mm::b_axes(m.t_), cx = kgen::mm::c_axes(m.t_);
        std::string why = kgen::mm::check_batch(A_TYPE::layout, B_TYPE::layout, ax, bx, cx, batchA, batchB, seq, C_TYPE::layout);
        if (!why.empty()) kgen::fail("matmul-batch", "%s(batchA=%u, batchB=%u): %s", api, batchA, batchB, why.c_str());
        if (kgen::mm::strided(A_TYPE::layout) && (A_TYPE::format != CubeFormat::ND || B_TYPE::format != CubeFormat::ND))
            kgen::fail("matmul-unsupported", "%s: the BSNGD / SBNGD layouts take ND inputs only", api);
        const int64_t red = kgen::mm::reduce_g(A_TYPE::layout, ax, bx, cx);
        if (red > 1 && m.bias_.ready())
            kgen::fail("matmul-unsupported", "%s: a bias with a G-axis reduction (CLayoutInfoG = 1) is not emulated", api);
        const bool legacy = A_TYPE::layout == LayoutMode::NONE;  // no layout given: packed, original-shape strides
        const uint64_t ha = m.a_.trans ? m.s_k_ : m.s_m_, wa = m.a_.trans ? m.s_m_ : m.s_k_, hb = m.b_.trans ? m.s_n_ : m.s_k_, wb = m.b_.trans ? m.s_k_ : m.s_n_;
        const uint32_t n = batchA > batchB ? batchA : batchB;
        kgen::mm::Operand<SrcAT> a0 = m.a_;
        kgen::mm::Operand<SrcBT> b0 = m.b_;
        kgen::mm::Operand<BiasT> bias0 = m.bias_;
        for (uint32_t i = 0; i < n; ++i) {
            uint64_t ia = i / (n / batchA), ib = i / (n / batchB), ci = i / uint64_t(red);
            kgen::mm::Place pa = kgen::mm::input_place(A_TYPE::layout, ax, ha, wa, ia, strideA);
            kgen::mm::Place pb = kgen::mm::input_place(B_TYPE::layout, bx, hb, wb, ib, strideB);
            if (legacy) {
                pa = {ia * (strideA ? strideA : uint64_t(m.org_m_) * m.org_ka_), 0};
                pb = {ib * (strideB ? strideB : uint64_t(m.org_kb_) * m.org_n_), 0};
            }
            move(m.a_, a0, pa.offset);
            move(m.b_, b0, pb.offset);
            m.ld_a_ = pa.ld; m.ld_b_ = pb.ld;
            if (kgen::mm::config_of(MM_CFG).isBiasBatch)
                move(m.bias_, bias0, legacy || A_TYPE::layout == LayoutMode::NORMAL ? uint64_t(i) * m.org_n_ : ci * c_s2());
            m.last_a_ = m.last_b_ = -1;
            m.cached_a_ = m.cached_b_ = false;
            for (int32_t k = 0; k < m.total(); ++k) {
                m.compute(k, false, m.blk_);
                out(ci, red > 1);
            }
        }
        m.a_ = a0; m.b_ = b0; m.bias_ = bias0;
        m.ld_a_ = m.ld_b_ = 0;
        m.reset();
    }

};

}  // namespace mm
}  // namespace kgen
