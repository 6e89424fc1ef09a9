// kgen AscendC CPU emulator -- the high-level Matmul API: AscendC::Matmul<A_TYPE, B_TYPE, C_TYPE,
// BIAS_TYPE, MM_CFG> (also matmul::Matmul).
//
// Documented rules followed (Matmul kernel-side interface pages):
//  * Init(&tiling) / REGIST_MATMUL_OBJ bind a TCubeTiling. SetOrgShape(orgM, orgN, orgK | orgKa,
//    orgKb[, orgKc]) overrides the original shape (default: tiling M, N, Ka, Kb); SetTail(m, n, k) /
//    SetSingleShape the single-core shape (default: tiling singleCoreM/N/K; -1 keeps a value).
//  * SetTensorA(gm | local, isTransposeA) / SetTensorB: the matrices in ND, row-major: A is
//    [singleM, K] with row stride orgKa (transposed: [K, M] with stride orgM), B is [K, N] with
//    stride orgN (transposed: [N, K], stride orgKb); SetTensorA/B(scalar) a matrix of that value.
//    SetBias(gm | local): singleN values added to every row; needs tiling isBias = 1.
//  * Iterate() computes the next baseM x baseN block of C (tails at the end of M and N); with
//    iterateOrder 0 the M index moves first, with 1 the N index; false once every block is done
//    (the next Iterate starts again). GetTensorC(gm | local, enAtomic, enSequentialWrite) writes it:
//    to its place in C (row stride orgN, or orgKc when set; C in ND_ALIGN: padded to 32 bytes, the
//    padding written as zeros) or, with enSequentialWrite, compactly as
//    [baseM, baseN] at the start of the destination. Async mode (Iterate<false>) computes every block
//    at once; each GetTensorC<false> then takes the next one in order.
//  * isPartialOutput (MatmulConfig): each Iterate computes one baseK slice of K alone (no accumulation
//    over K); the K slices of one block of C come one after another, then the next block.
//  * IterateAll(gm, enAtomic) computes the whole singleM x singleN C into its place; IterateAll(local)
//    writes it compactly ([singleM, singleN]). enAtomic 1/2/3 = add/max/min into the destination
//    (so does a SetAtomicAdd/Max/Min in effect).
//  * Numerics: products accumulate in fp32 (int32 for int8 inputs), starting from the bias, in K order;
//    the result is rounded once to C's type (round to nearest even). int8 inputs with a half C are
//    dequantized: SetQuantScalar(word) / SetQuantVector(GM words, one per column of C) give the scale.
//  * IterateBatch(c, batchA, batchB, ...) computes every batch of one call, IterateNBatch(loops, ...)
//    `loops` such calls into the SetWorkspace buffer (GetBatchTensorC hands out each call's C), in the
//    NORMAL, BSNGD, SBNGD or BNGS1S2 layout of the MatmulTypes (kgen_sim/matmul/matmul_batch.h); a bias
//    is per batch ([batch, N]) unless the MatmulConfig has isBiasBatch = false.
//  * The fifth template argument may be a MatmulApiStaticTiling (GetMatmulApiTiling): its constant fields
//    replace the TCubeTiling's; a fully constant one needs no tiling at all (kgen_sim/matmul/static_tiling.h).
//  * The MatmulPolicy template argument: TrianUpperMatmulPolicy computes and writes only the base blocks
//    (mi, ni) of the single-core C with mi <= ni, TrianLowerMatmulPolicy those with mi >= ni (the others
//    are left as they were); NBuffer33 and the default compute every block.
//  * Iterate(enPartialSum, co1Tensor) puts the block into a CO1 tensor the kernel owns, NZ as Mmad does.
//  * C in NZ (GM or local): 16 x 16 fractals over M padded to 16, or 16 x 8 with isEnableChannelSplit
//    (float C only); A in VECTOR (GEMV, M = 1, not transposed) is read as the one row it is.
//  * End() releases the object; SetWorkspace, SetLocalWorkspace, SetHF32, SetSubBlockIdx,
//    SetUserDefInfo, SetSelfDefineData are accepted.
// Emulator checks (each at the user's line): use before Init (`matmul-uninit`); a tiling with
// non-positive sizes (`matmul-bad-tiling`, e.g. the zeros a failed GetTiling leaves); Iterate/IterateAll
// before SetTensorA/B (`matmul-no-tensor`); SetTail/SetSingleShape beyond the original shape
// (`matmul-shape-exceeds-tiling`); SetBias without isBias (`matmul-bias-disabled`); an unsupported type
// combination or format (`matmul-dtype`; `matmul-unsupported`: C not ND, an NZ operand transposed);
// GetTensorC with no computed block (`matmul-no-result`); batch calls against the layout rules
// (`matmul-batch`); IterateNBatch without SetWorkspace (`matmul-no-workspace`). Cube pipe work is traced: MTE2 (GM -> L1),
// MTE1 (L1 -> L0A/L0B), M (Mmad), FIX (L0C -> GM/UB).
//
// @api Matmul Init SetTensorA SetTensorB SetBias DisableBias ClearBias SetTail SetSingleShape
// @api Iterate GetTensorC IterateAll WaitIterateAll End SetWorkspace SetLocalWorkspace IterateBatch SetBatchNum WaitIterateBatch
// @api IterateNBatch GetBatchTensorC GetBatchC SetQuantScalar SetQuantVector SetSparseIndex
#pragma once
#include <array>
#include <deque>
#include <mutex>
#include <vector>

#include "kgen_sim/cube/fixpipe.h"
#include "kgen_sim/matmul/matmul_batch.h"
#include "kgen_sim/matmul/matmul_batch_api.h"
#include "kgen_sim/matmul/matmul_block.h"
#include "kgen_sim/matmul/matmul_operand.h"
#include "kgen_sim/matmul/matmul_types.h"
#include "kgen_sim/matmul/static_tiling.h"
#include "kgen_sim/matmul/tcube_tiling.h"

namespace kgen {
namespace mm {
/// Which base blocks of C a MatmulPolicy computes: all, or those on and above (TrianUpper) / on and below
/// (TrianLower) the diagonal of the base-block grid (block row index vs block column index).
enum class Triangle { All, Upper, Lower };
template <template <const auto&, typename...> class P>
inline constexpr Triangle triangle_of = Triangle::All;
template <>
inline constexpr Triangle triangle_of<AscendC::Impl::Detail::TrianUpperMatmulPolicy> = Triangle::Upper;
template <>
inline constexpr Triangle triangle_of<AscendC::Impl::Detail::TrianLowerMatmulPolicy> = Triangle::Lower;
}  // namespace mm
}  // namespace kgen

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class Matmul : public kgen::mm::BatchApi<Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>, A_TYPE, B_TYPE, C_TYPE,
                                           BIAS_TYPE, MM_CFG> {
    friend class kgen::mm::BatchApi<Matmul, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>;

public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using Acc = kgen::mm::acc_t<SrcAT>;

    Matmul() = default;

    void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr) {
        (void)tpipe;
        if (!cubeTiling) kgen::fail("matmul-uninit", "Matmul Init with a null TCubeTiling pointer");
        TCubeTiling t = *cubeTiling;
        kgen::mm::apply_static(MM_CFG, t);  // constant fields of a MatmulApiStaticTiling win
        if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0 ||
            t.M <= 0 || t.N <= 0 || t.Ka <= 0)
            kgen::fail("matmul-bad-tiling", "Matmul Init with a TCubeTiling whose sizes are not all positive (M=%d N=%d Ka=%d "
                       "singleCore %dx%dx%d base %dx%dx%d): did GetTiling return -1?", t.M, t.N, t.Ka, t.singleCoreM,
                       t.singleCoreN, t.singleCoreK, t.baseM, t.baseN, t.baseK);
        std::string why = kgen::mm::check_types(kgen::mm::elem_of<SrcAT>(), kgen::mm::elem_of<SrcBT>(), kgen::mm::elem_of<DstT>(),
                                                kgen::mm::elem_of<BiasT>(), t.isBias != 0);
        if (!why.empty()) kgen::fail("matmul-dtype", "Matmul types not supported by the cube unit: %s", why.c_str());
        if ((A_TYPE::format != CubeFormat::ND && A_TYPE::format != CubeFormat::NZ && A_TYPE::format != CubeFormat::VECTOR) ||
            (B_TYPE::format != CubeFormat::ND && B_TYPE::format != CubeFormat::NZ) ||
            (C_TYPE::format != CubeFormat::ND && C_TYPE::format != CubeFormat::ND_ALIGN && C_TYPE::format != CubeFormat::NZ &&
             C_TYPE::pos != TPosition::CO1))
            kgen::fail("matmul-unsupported", "Matmul operand formats: the emulator implements A in ND, NZ or VECTOR, B in ND or NZ, "
                       "C in ND, ND_ALIGN or NZ");
        if (A_TYPE::format == CubeFormat::VECTOR && t.M != 1)
            kgen::fail("matmul-unsupported", "Matmul with A in the VECTOR (GEMV) format needs M = 1, the tiling has M = %d", t.M);
        if (kgen::mm::config_of(MM_CFG).isEnableChannelSplit && !(C_TYPE::format == CubeFormat::NZ && std::is_same_v<DstT, float>))
            kgen::fail("matmul-unsupported", "isEnableChannelSplit needs C in NZ of type float (MatmulConfig page)");
        t_ = t;
        inited_ = true;
        org_m_ = t.M; org_n_ = t.N; org_ka_ = t.Ka; org_kb_ = t.Kb > 0 ? t.Kb : t.Ka; org_kc_ = 0;
        s_m_ = t.singleCoreM; s_n_ = t.singleCoreN; s_k_ = t.singleCoreK;
        bias_on_ = t.isBias != 0;
        reset();
    }

    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        require_init("SetOrgShape");
        org_m_ = orgM; org_n_ = orgN; org_ka_ = orgKa; org_kb_ = orgKb; org_kc_ = orgKc;
        reset();
    }
    void SetSingleShape(int singleM, int singleN, int singleK) { SetTail(singleM, singleN, singleK); }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        require_init("SetTail");
        if (tailM > org_m_ || tailN > org_n_ || tailK > org_ka_)
            kgen::fail("matmul-shape-exceeds-tiling", "SetTail/SetSingleShape(%d, %d, %d) exceeds the original shape M=%d N=%d K=%d "
                       "of the tiling (SetOrgShape)", tailM, tailN, tailK, org_m_, org_n_, org_ka_);
        if (tailM == 0 || tailN == 0 || tailK == 0)
            kgen::fail("matmul-shape-exceeds-tiling", "SetTail/SetSingleShape(%d, %d, %d): sizes must be positive (-1 keeps one)",
                       tailM, tailN, tailK);
        if (tailM > 0) s_m_ = tailM;
        if (tailN > 0) s_n_ = tailN;
        if (tailK > 0) s_k_ = tailK;
        reset();
    }

    void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
        require_init("SetTensorA");
        if (A_TYPE::format == CubeFormat::VECTOR && isTransposeA)
            kgen::fail("matmul-unsupported", "SetTensorA: A in the VECTOR (GEMV) format cannot be transposed");
        a_.set(gm, isTransposeA);
        reset();
    }
    void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) {
        require_init("SetTensorA"); a_.set(leftMatrix, isTransposeA); reset(); }
    void SetTensorA(SrcAT aScalar) { require_init("SetTensorA"); a_.set_scalar(aScalar); reset(); }
    void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) { require_init("SetTensorB"); b_.set(gm, isTransposeB); reset(); }
    void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) {
        require_init("SetTensorB"); b_.set(rightMatrix, isTransposeB); reset(); }
    void SetTensorB(SrcBT bScalar) { require_init("SetTensorB"); b_.set_scalar(bScalar); reset(); }
    void SetBias(const GlobalTensor<BiasT>& biasGlobal) { check_bias(); bias_.set(biasGlobal, false); reset(); }
    void SetBias(const LocalTensor<BiasT>& inputBias) { check_bias(); bias_.set(inputBias, false); reset(); }
    void DisableBias() { bias_.kind = kgen::mm::Operand<BiasT>::Unset; }
    /// The index matrix of a 4:2 sparse B (SparseMatmulType; NZ, 2-bit indices packed four to a byte).
    void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal) {
        static_assert(kSparse, "SetSparseIndex needs B declared with SparseMatmulType");
        require_init("SetSparseIndex");
        index_ = indexGlobal;
        index_set_ = true;
        reset();
    }
    void ClearBias() { DisableBias(); }

    template <bool sync = true>
    bool Iterate(bool enPartialSum = false) {
        require_tensors("Iterate");
        if (!sync) return iterate_async();
        while (cur_ < total() && !computed(cur_)) ++cur_;
        if (cur_ >= total()) { reset(); return false; }
        compute(cur_++, enPartialSum, blk_);
        have_ = true;
        return true;
    }
    /// Iterate into a CO1 (L0C) tensor the kernel allocated: the block is written there in the layout an
    /// Mmad leaves in L0C (NZ: 16 x 16 fractals, a column of fractals after another, rows padded to 16),
    /// in the accumulator type (GetMmDstType); enPartialSum adds it to what the tensor holds.
    template <bool sync = true, typename T>
    bool Iterate(bool enPartialSum, const LocalTensor<T>& co1) {
        static_assert(std::is_same_v<T, Acc>, "Iterate into a CO1 tensor: its type must be the accumulator type (GetMmDstType)");
        require_tensors("Iterate");
        co1.live("Iterate");
        if (co1.GetPosition() != TPosition::CO1)
            kgen::fail("wrong-position", "Iterate(enPartialSum, tensor): the tensor must be in CO1 (L0C), not %s",
                       position_name(co1.GetPosition()));
        while (cur_ < total() && !computed(cur_)) ++cur_;
        if (cur_ >= total()) { reset(); return false; }
        compute(cur_++, false, blk_);
        have_ = true;
        const uint32_t m16 = (blk_.rows + 15) / 16 * 16, n16 = (blk_.cols + 15) / 16 * 16;
        co1.check(0, uint64_t(m16) * n16, "Iterate (CO1 tensor)");
        Acc* dst = co1.raw();
        for (uint32_t c = 0; c < blk_.cols; ++c)
            for (uint32_t r = 0; r < blk_.rows; ++r) {
                Acc& d = dst[(uint64_t(c / 16) * m16 + r) * 16 + c % 16];
                const Acc v = blk_.v[uint64_t(r) * blk_.cols + c];
                d = enPartialSum ? Acc(d + v) : v;
            }
        return true;
    }

    template <bool sync = true, bool doPad = false>
    void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false, uint32_t = 0, uint32_t = 0,
                    uint32_t = 0, uint32_t = 0) {
        const Block& b = take<sync>("GetTensorC");
        c.live("GetTensorC");
        write_block(b, c.raw(), c.GetSize(), nullptr, enSequentialWrite ? t_.baseN : uint32_t(s_n_), enSequentialWrite, enAtomic, "GetTensorC");
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        const Block& b = take<sync>("GetTensorC");
        write_block(b, gm.raw(), 0, &gm, enSequentialWrite ? uint64_t(t_.baseN) : ldc(), enSequentialWrite, enAtomic, "GetTensorC");
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        const Block& b = take<sync>("GetTensorC");
        write_block(b, gm.raw(), 0, &gm, enSequentialWrite ? uint64_t(t_.baseN) : ldc(), enSequentialWrite, enAtomic, "GetTensorC");
        co2Local.live("GetTensorC");
        write_block(b, co2Local.raw(), co2Local.GetSize(), nullptr, enSequentialWrite ? t_.baseN : uint32_t(s_n_), enSequentialWrite, enAtomic,
                    "GetTensorC");
    }

    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, bool waitIterateAll = false,
                    bool fakeMsg = false) {
        (void)waitIterateAll; (void)enSequentialWrite;
        require_tensors("IterateAll");
        no_partial("IterateAll");
        if (fakeMsg) return;
        reset();
        for (int32_t i = 0; i < total(); ++i) {
            if (!computed(i)) continue;
            compute(i, false, blk_);
            write_block(blk_, gm.raw(), 0, &gm, ldc(), false, enAtomic, "IterateAll");
        }
        reset();
    }
    template <bool sync = true>
    void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0) {
        require_tensors("IterateAll");
        no_partial("IterateAll");
        ubCmatrix.live("IterateAll");
        reset();
        for (int32_t i = 0; i < total(); ++i) {
            if (!computed(i)) continue;
            compute(i, false, blk_);
            write_block(blk_, ubCmatrix.raw(), ubCmatrix.GetSize(), nullptr, uint64_t(s_n_), false, enAtomic, "IterateAll");
        }
        reset();
    }
    void WaitIterateBatch() {}
    void WaitIterateAll() {}
    void WaitGetTensorC() {}
    void End() { reset(); }

    /// The GM buffer IterateNBatch writes C to (any element type; read as C's type).
    template <class T>
    void SetWorkspace(const GlobalTensor<T>& ws) {
        workspace_ = true;
        if (ws.GetSize()) ws_.SetGlobalBuffer(reinterpret_cast<DstT*>(ws.raw()), ws.GetSize() * sizeof(T) / sizeof(DstT));
        else ws_.SetGlobalBuffer(reinterpret_cast<DstT*>(ws.raw()));
    }
    template <class T>
    void SetWorkspace(const T* addr, int size) {  // size: elements of T
        workspace_ = true;
        ws_.SetGlobalBuffer(reinterpret_cast<DstT*>(const_cast<T*>(addr)), uint64_t(size) * sizeof(T) / sizeof(DstT));
    }
    void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
    void SetHF32(bool = false, int32_t = 0) {}
    void SetSubBlockIdx(uint8_t idx) { sub_ = idx; }
    uint8_t GetSubBlockIdx() const { return sub_; }
    void SetUserDefInfo(uint64_t) {}
    template <class T>
    void SetSelfDefineData(T) {}
    void SetBatchNum(int32_t batchA, int32_t batchB) { batch_a_ = uint32_t(batchA); batch_b_ = uint32_t(batchB); }
    /// Dequantization of an int32 accumulator (int8 inputs) to a half C: C = half(acc * scale), the scale a
    /// float in bits 0..31 of the 64-bit word, its low 13 mantissa bits ignored (kgen_sim/cube/fixpipe.h).
    void SetQuantScalar(uint64_t quantScalar) { quant_ = 1; quant_scalar_ = quantScalar; }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) { quant_ = 2; quant_vec_ = quantTensor; }

private:
    using Block = kgen::mm::Block<Acc>;
    void require_init(const char* api) {
        if (!inited_ && kgen::mm::static_complete(MM_CFG)) {  // full constant tiling: no TCubeTiling needed
            TCubeTiling none{};
            Init(&none);
        }
        if (!inited_) kgen::fail("matmul-uninit", "Matmul %s before Init / REGIST_MATMUL_OBJ gave it a TCubeTiling", api);
    }
    void require_tensors(const char* api) {
        require_init(api);
        if (!a_.ready() || !b_.ready())
            kgen::fail("matmul-no-tensor", "Matmul %s before SetTensor%s: the %s matrix was never set", api, a_.ready() ? "B" : "A",
                       a_.ready() ? "right (B)" : "left (A)");
        if (kSparse && !index_set_)
            kgen::fail("matmul-no-tensor", "Matmul %s with a sparse B (SparseMatmulType) before SetSparseIndex", api);
    }
    static constexpr bool kSparse = kgen::mm::is_sparse_type<B_TYPE>::value;
    void no_partial(const char* api) const {
        if constexpr (kPartial)
            kgen::fail("matmul-unsupported", "%s on a Matmul with isPartialOutput: the partial K blocks are only given by Iterate + "
                       "GetTensorC (MatmulConfig page)", api);
    }
    void check_bias() {
        require_init("SetBias");
        if (!bias_on_)
            kgen::fail("matmul-bias-disabled", "SetBias on a Matmul whose TCubeTiling has isBias = 0 (call EnableBias(true) / "
                       "SetBias(true) on the host tiling)");
    }
    static constexpr bool kPartial = kgen::mm::config_of(MM_CFG).isPartialOutput;
    int32_t m_iters() const { return int32_t((s_m_ + t_.baseM - 1) / t_.baseM); }
    int32_t n_iters() const { return int32_t((s_n_ + t_.baseN - 1) / t_.baseN); }
    /// K blocks one Iterate outputs separately (isPartialOutput), else 1 (K accumulated in one Iterate).
    int32_t k_iters() const { return kPartial ? int32_t((s_k_ + t_.baseK - 1) / t_.baseK) : 1; }
    int32_t total() const { return m_iters() * n_iters() * k_iters(); }
    /// Row stride of C in GM: N (or orgKc), padded to 32 bytes for the ND_ALIGN format.
    uint64_t ldc() const {
        uint64_t n = uint64_t(org_kc_ > 0 ? org_kc_ : org_n_);
        return C_TYPE::format == CubeFormat::ND_ALIGN ? align_c(n) : n;
    }
    static uint64_t align_c(uint64_t n) {
        const uint64_t e = 32 / sizeof(DstT);
        return (n + e - 1) / e * e;
    }
    void reset() {
        cached_a_ = cached_b_ = false;
        cur_ = 0; have_ = false; async_ = false; pending_.clear();
        last_a_ = last_b_ = -1;
    }

    /// Compute block `idx` of the single-core C (iteration order from the tiling) into `out`.
    /// With isPartialOutput the K blocks of one block of C come one after another (block idx / k_iters()),
    /// each computed alone from baseK columns of A and rows of B.
    void block_of(int32_t idx, int32_t& mi, int32_t& ni, int32_t& ki) const {
        ki = idx % k_iters();
        idx /= k_iters();
        if (t_.iterateOrder == 1) { mi = idx / n_iters(); ni = idx % n_iters(); }
        else { mi = idx % m_iters(); ni = idx / m_iters(); }
    }
    /// False for a base block a triangular MatmulPolicy leaves out.
    bool computed(int32_t idx) const {
        constexpr kgen::mm::Triangle tri = kgen::mm::triangle_of<MATMUL_POLICY>;
        if constexpr (tri == kgen::mm::Triangle::All) return true;
        int32_t mi, ni, ki;
        block_of(idx, mi, ni, ki);
        return tri == kgen::mm::Triangle::Upper ? mi <= ni : mi >= ni;
    }
    void compute(int32_t idx, bool partial, Block& out) {
        int32_t mi, ni, ki;
        block_of(idx, mi, ni, ki);
        uint32_t m0 = uint32_t(mi) * t_.baseM, n0 = uint32_t(ni) * t_.baseN;
        uint32_t rows = std::min<uint32_t>(t_.baseM, uint32_t(s_m_) - m0), cols = std::min<uint32_t>(t_.baseN, uint32_t(s_n_) - n0);
        const uint64_t k0 = kPartial ? uint64_t(ki) * t_.baseK : 0;
        uint64_t k = kPartial ? std::min<uint64_t>(t_.baseK, uint64_t(s_k_) - k0) : uint64_t(s_k_);
        set_nz(a_, A_TYPE::format, org_m_, "A");
        set_nz(b_, B_TYPE::format, org_kb_, "B");
        // the A block stays while N moves and the B block while M moves (as in L1): read and converted once per run
        // of iterations (the key holds the operand's address; reset() drops the cache: SetTensor*, SetTail, the end of
        // the iterations)
        std::vector<Acc>& a = cache_a_;
        std::vector<Acc>& b = cache_b_;
        uint64_t lda = ld_a_ ? ld_a_ : (a_.trans ? uint64_t(org_m_) : uint64_t(org_ka_));
        uint64_t ldb = ld_b_ ? ld_b_ : (b_.trans ? uint64_t(org_kb_) : uint64_t(org_n_));
        const std::array<uint64_t, 6> key_a{a_.addr(), m0, rows, k0, k, lda}, key_b{b_.addr(), n0, cols, k0, k, ldb};
        const bool have_a = cached_a_ && key_a == key_a_, have_b = cached_b_ && key_b == key_b_;
        cached_a_ = cached_b_ = true;
        key_a_ = key_a;
        key_b_ = key_b;
        if (!have_a) kgen::mm::read_block(a_, lda, m0, rows, k0, k, a, "Matmul (A)");
        if (!have_b) {
            if constexpr (kSparse) {  // B holds K / 2 values per column: its leading dimension is halved
                const uint64_t ldd = ld_b_ ? ld_b_ : (b_.trans ? uint64_t(org_kb_) / 2 : uint64_t(org_n_));
                kgen::mm::read_sparse_block(b_, index_, ldd, (uint64_t(org_n_) + 15) / 16 * 16, k0, k, n0, cols, b,
                                            "Matmul (sparse B)");
            } else {
                kgen::mm::read_block(b_, ldb, k0, k, n0, cols, b, "Matmul (B)");
            }
        }
        trace_block(mi, ni, rows, cols, k);
        bool accumulate = partial && out.rows == rows && out.cols == cols && !out.v.empty();
        std::vector<Acc> bias;
        if (bias_.ready() && !accumulate) {
            bias.resize(cols);
            bias_.read_run(n0, cols, bias.data(), "Matmul (bias)");
        }
        out.m0 = m0; out.n0 = n0;
        kgen::mm::mac_block(a, b, bias.empty() ? nullptr : &bias, rows, cols, k, accumulate, out);
    }
    template <class T>
    static void set_nz(kgen::mm::Operand<T>& op, CubeFormat f, int32_t rows, const char* which) {
        op.nz = f == CubeFormat::NZ && op.kind != kgen::mm::Operand<T>::Scalar;
        op.nz_rows = (uint64_t(rows) + 15) / 16 * 16;
        if (op.nz && op.trans)
            kgen::fail("matmul-unsupported", "Matmul: %s in NZ format and transposed is not emulated", which);
    }
    /// Trace one block like the basic API would issue it: GM -> L1 copies (skipped while the A or B block
    /// stays in L1), L1 -> L0A/L0B loads and one Mmad, in whole 16 x 32-byte fractals (bytes moved,
    /// and for Mmad repeats = 16 x 16 x C0 fractal products, C0 = 32 bytes of A).
    void trace_block(int32_t mi, int32_t ni, uint32_t rows, uint32_t cols, uint64_t k) {
        const uint64_t c0 = 32 / sizeof(SrcAT), m1 = (rows + 15) / 16, n1 = (cols + 15) / 16, k1 = (k + c0 - 1) / c0;
        const uint64_t frac = 512, a_bytes = m1 * k1 * frac, b_bytes = n1 * k1 * frac;
        if (mi != last_a_) kgen::trace("Matmul::CopyInA", kgen::Pipe::MTE2, rows * k * sizeof(SrcAT), a_.trans ? uint32_t(k) : rows, 0, 0, sizeof(SrcAT));
        if (ni != last_b_) kgen::trace("Matmul::CopyInB", kgen::Pipe::MTE2, cols * k * sizeof(SrcBT), b_.trans ? cols : uint32_t(k), 0, 0, sizeof(SrcBT));
        last_a_ = t_.iterateOrder == 1 ? mi : -1;  // the A block stays in L1 while N moves, B while M moves
        last_b_ = t_.iterateOrder == 1 ? -1 : ni;
        kgen::trace("Matmul::LoadData", kgen::Pipe::MTE1, a_bytes + b_bytes, uint32_t((m1 + n1) * k1), 0, 0, sizeof(SrcAT));
        kgen::trace("Matmul::Mmad", kgen::Pipe::M, a_bytes + b_bytes, uint32_t(m1 * n1 * k1), 0, 0, sizeof(SrcAT));
    }

    bool iterate_async() {
        if (!async_) {
            pending_.clear();
            for (int32_t i = 0; i < total(); ++i) {
                if (!computed(i)) continue;
                pending_.emplace_back();
                compute(i, false, pending_.back());
            }
            async_ = true;
            return true;
        }
        if (!pending_.empty()) return true;
        async_ = false;
        return false;
    }
    template <bool sync>
    const Block& take(const char* api) {
        require_tensors(api);
        if (!sync) {
            if (pending_.empty())
                kgen::fail("matmul-no-result", "%s<false> with no block left from Iterate<false> (every block was already taken)", api);
            popped_ = std::move(pending_.front());
            pending_.pop_front();
            return popped_;
        }
        if (!have_) kgen::fail("matmul-no-result", "%s before Iterate computed a block of C", api);
        return blk_;
    }
    /// Write a computed block: at its place in a matrix of row stride `ld`, or compactly (`seq`); a GM C
    /// in ND_ALIGN gets the zero padding up to 32 bytes after the last block of each row.
    void write_block(const Block& b, DstT* base, uint64_t local_size, const GlobalTensor<DstT>* gm, uint64_t ld, bool seq,
                     uint8_t enAtomic, const char* api) {
        uint64_t r0 = seq ? 0 : b.m0, c0 = seq ? 0 : b.n0, pad = 0;
        if (C_TYPE::format == CubeFormat::ND_ALIGN && gm && !seq && c0 + b.cols == uint64_t(s_n_))
            pad = std::min<uint64_t>(align_c(c0 + b.cols), ld) - (c0 + b.cols);
        const int atomic = enAtomic ? enAtomic : kgen::core().atomic_mode;
        if constexpr (std::is_same_v<Acc, int32_t> && !std::is_same_v<DstT, int32_t>) {  // int8 inputs, half C: dequantize
            if (!quant_) kgen::fail("matmul-dtype", "%s: int8 inputs with a %s C need SetQuantScalar or SetQuantVector (the "
                                    "dequantization scale)", api, kgen::mm::elem_name(kgen::mm::elem_of<DstT>()));
            kgen::mm::Block<float> f{b.m0, b.n0, b.rows, b.cols, std::vector<float>(b.v.size())};
            const kgen::cube::QuantWord one = kgen::cube::decode_quant(quant_scalar_);
            for (uint32_t c = 0; c < b.cols; ++c) {
                if (quant_ == 2) quant_vec_.check(b.n0 + c, 1, "SetQuantVector", kgen::GmAccess::Read);
                const float scale = quant_ == 2 ? kgen::cube::decode_quant(quant_vec_.raw()[b.n0 + c]).scale : one.scale;
                for (uint32_t r = 0; r < b.rows; ++r) f.v[uint64_t(r) * b.cols + c] = float(b.v[uint64_t(r) * b.cols + c]) * scale;
            }
            put(f, base, local_size, gm, r0, c0, ld, atomic, pad, seq, api);
        } else {
            put(b, base, local_size, gm, r0, c0, ld, atomic, pad, seq, api);
        }
    }
    /// C in NZ (not sequential): element (r, c) at ((c / C0) * rows + r) * C0 + c % C0, rows = M padded to 16
    /// (the whole original M in GM, the single-core M in a local tensor), C0 = 16 (16 x 16 fractals), or 8
    /// with isEnableChannelSplit (16 x 8 fractals).
    template <class B>
    void put(const B& b, DstT* base, uint64_t local_size, const GlobalTensor<DstT>* gm, uint64_t r0, uint64_t c0, uint64_t ld,
             int atomic, uint64_t pad, bool seq, const char* api) {
        if constexpr (C_TYPE::format == CubeFormat::NZ) {
            if (!seq) {
                const uint64_t rows = (uint64_t(gm ? org_m_ : s_m_) + 15) / 16 * 16;
                const uint64_t cz = kgen::mm::config_of(MM_CFG).isEnableChannelSplit ? 8 : 16;
                kgen::mm::write_block_nz(b, base, local_size, gm, r0, c0, rows, cz, atomic, api);
                return;
            }
        }
        kgen::mm::write_block(b, base, local_size, gm, r0, c0, ld, atomic, pad, api);
    }

    TCubeTiling t_{};
    bool inited_ = false, bias_on_ = false, have_ = false, async_ = false, workspace_ = false;
    int32_t org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0, s_m_ = 0, s_n_ = 0, s_k_ = 0;
    int32_t cur_ = 0, last_a_ = -1, last_b_ = -1;
    uint8_t sub_ = 0;
    uint32_t batch_a_ = 1, batch_b_ = 1;
    uint64_t ld_a_ = 0, ld_b_ = 0;                          // row strides of a batch's A / B (0: the original shape's)
    GlobalTensor<DstT> ws_;                                  // SetWorkspace: where IterateNBatch puts C
    uint32_t nb_next_ = 0, nb_loops_ = 0;
    uint64_t nb_batch_c_ = 0;
    kgen::mm::Operand<SrcAT> a_;
    kgen::mm::Operand<SrcBT> b_;
    GlobalTensor<uint8_t> index_;  // SetSparseIndex
    std::vector<Acc> cache_a_, cache_b_;  // the last A and B blocks read (compute)
    std::array<uint64_t, 6> key_a_{}, key_b_{};
    bool cached_a_ = false, cached_b_ = false;
    bool index_set_ = false;
    kgen::mm::Operand<BiasT> bias_;
    Block blk_, popped_;
    int quant_ = 0;  // 0 none, 1 scalar, 2 per-column vector
    uint64_t quant_scalar_ = 0;
    GlobalTensor<uint64_t> quant_vec_;
    std::deque<Block> pending_;
};

}  // namespace AscendC
