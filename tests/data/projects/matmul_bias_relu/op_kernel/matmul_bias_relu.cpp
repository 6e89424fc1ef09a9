// kgen test project: kernel of MatmulBiasRelu, a MIX kernel. Each vector core owns the
// singleCoreM x singleCoreN block of y the tiling gives it. Its cube core computes that block
// base block by base block (a @ b + bias, fp32 accumulation) and hands each one to the vector core
// in the Unified Buffer (GetTensorC with sequential write: a compact baseM x baseN tile); the vector
// core applies ReLU and writes the valid rows x cols of the tile to its place in y (DataCopyPad, so
// N need not be a multiple of 32 bytes).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename YT>
class MatmulBiasReluKernel {
public:
    using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                      MatmulType<TPosition::VECIN, CubeFormat::ND, YT>, MatmulType<TPosition::GM, CubeFormat::ND, YT>>;
    MM mm;

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, const TCubeTiling& t, uint32_t blockBytes,
                                TPipe* pipe)
    {
        t_ = &t;
        int32_t blk = GetBlockIdx();
        active_ = blk < t.usedCoreNum;
        if (!active_) return;
        int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        int32_t mi = blk % mBlocks, ni = blk / mBlocks;
        rows_ = t.M - mi * t.singleCoreM;
        cols_ = t.N - ni * t.singleCoreN;
        rows_ = rows_ < t.singleCoreM ? rows_ : t.singleCoreM;
        cols_ = cols_ < t.singleCoreN ? cols_ : t.singleCoreN;
        aGm_.SetGlobalBuffer((__gm__ half*)a + static_cast<uint64_t>(mi) * t.singleCoreM * t.Ka);
        bGm_.SetGlobalBuffer((__gm__ half*)b + static_cast<uint64_t>(ni) * t.singleCoreN);
        biasGm_.SetGlobalBuffer((__gm__ YT*)bias + static_cast<uint64_t>(ni) * t.singleCoreN);
        yGm_.SetGlobalBuffer((__gm__ YT*)y + static_cast<uint64_t>(mi) * t.singleCoreM * t.N + ni * t.singleCoreN);
        pipe->InitBuffer(inQ_, 2, blockBytes);
        pipe->InitBuffer(outQ_, 2, blockBytes);
    }

    __aicore__ inline void Process()
    {
        if (!active_) return;
        const TCubeTiling& t = *t_;
        mm.SetTensorA(aGm_, false);
        mm.SetTensorB(bGm_, false);
        mm.SetBias(biasGm_);
        mm.SetTail(rows_, cols_);
        int32_t mIters = (rows_ + t.baseM - 1) / t.baseM;
        int32_t nIters = (cols_ + t.baseN - 1) / t.baseN;
        int32_t idx = 0;
        while (mm.Iterate()) {
            // iterateOrder 0: the M index moves first
            int32_t bm = t.iterateOrder == 1 ? idx / nIters : idx % mIters;
            int32_t bn = t.iterateOrder == 1 ? idx % nIters : idx / mIters;
            ++idx;
            LocalTensor<YT> c = inQ_.AllocTensor<YT>();
            mm.GetTensorC(c, false, true);
            inQ_.EnQue(c);
            Epilogue(bm, bn);
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue(int32_t bm, int32_t bn)
    {
        const TCubeTiling& t = *t_;
        LocalTensor<YT> c = inQ_.DeQue<YT>();
        LocalTensor<YT> r = outQ_.AllocTensor<YT>();
        Relu(r, c, static_cast<int32_t>(t.baseM * t.baseN));
        inQ_.FreeTensor(c);
        outQ_.EnQue(r);
        r = outQ_.DeQue<YT>();
        int32_t m0 = bm * t.baseM, n0 = bn * t.baseN;
        int32_t rows = rows_ - m0 < t.baseM ? rows_ - m0 : t.baseM;
        int32_t cols = cols_ - n0 < t.baseN ? cols_ - n0 : t.baseN;
        uint32_t rowBytes = static_cast<uint32_t>(cols) * sizeof(YT);
        uint32_t usedBlocks = (rowBytes + 31) / 32;
        DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = rowBytes;
        p.srcStride = static_cast<uint32_t>(t.baseN) * sizeof(YT) / 32 - usedBlocks;  // UB side: 32-byte blocks
        p.dstStride = static_cast<uint32_t>(t.N - cols) * sizeof(YT);                 // GM side: bytes
        DataCopyPad(yGm_[static_cast<uint64_t>(m0) * t.N + n0], r, p);
        outQ_.FreeTensor(r);
    }

    const TCubeTiling* t_ = nullptr;
    bool active_ = false;
    int32_t rows_ = 0, cols_ = 0;
    GlobalTensor<half> aGm_, bGm_;
    GlobalTensor<YT> biasGm_, yGm_;
    TQue<QuePosition::VECIN, 1> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
};

extern "C" __global__ __aicore__ void matmul_bias_relu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    MatmulBiasReluKernel<DTYPE_Y> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(a, b, bias, y, td.mm, td.blockBytes, &pipe);
    op.Process();
}
