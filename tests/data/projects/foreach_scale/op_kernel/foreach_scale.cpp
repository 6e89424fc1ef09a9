// ForeachScale kernel (kgen team test project): block b scales tensors b, b + blockDim, ... of the
// list. The input list is read with ListTensorDesc/TensorDesc (shape from the list, checked against
// the tiling); the output list is read word by word (ptr_offset, then the pointer array), as many
// Foreach kernels do.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelForeachScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, const ForeachScaleTilingData* t) {
        xList_.Init(reinterpret_cast<__gm__ void*>(x));
        yBase_ = reinterpret_cast<__gm__ uint64_t*>(y);
        tiling_ = t;
        GlobalTensor<float> s;
        s.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scalar), 1);
        scale_ = s.GetValue(0);
        pipe_.InitBuffer(inQ_, 2, t->tileLength * sizeof(T));
        pipe_.InitBuffer(outQ_, 2, t->tileLength * sizeof(T));
        pipe_.InitBuffer(work_, t->tileLength * sizeof(float));
    }
    __aicore__ inline void Process() {
        if (xList_.GetSize() != tiling_->tensorCount) return;
        for (uint32_t i = GetBlockIdx(); i < xList_.GetSize(); i += GetBlockNum()) {
            uint64_t shape[8] = {0};
            TensorDesc<T> desc;
            desc.SetShapeAddr(shape);
            xList_.GetDesc(desc, i);
            uint64_t n = 1;
            for (uint64_t d = 0; d < desc.GetDim(); ++d) n *= desc.GetShape(d);
            if (n != tiling_->lengths[i] || desc.GetIndex() != i) continue;  // a wrong layout leaves y unwritten
            xGm_ = desc.GetDataObj();
            uint64_t ptrOffset = *yBase_;
            yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(*(yBase_ + ptrOffset / sizeof(uint64_t) + i)), n);
            for (uint64_t off = 0; off < n; off += tiling_->tileLength) {
                uint32_t len = static_cast<uint32_t>(n - off < tiling_->tileLength ? n - off : tiling_->tileLength);
                CopyIn(off, len);
                Compute(len);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len) {
        LocalTensor<T> a = inQ_.AllocTensor<T>();
        DataCopyPad(a, xGm_[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ_.EnQue(a);
    }
    __aicore__ inline void Compute(uint32_t len) {
        LocalTensor<T> a = inQ_.DeQue<T>();
        LocalTensor<T> b = outQ_.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            Muls(b, a, scale_, len);
        } else {
            LocalTensor<float> f = work_.Get<float>();
            Cast(f, a, RoundMode::CAST_NONE, len);
            Muls(f, f, scale_, len);
            Cast(b, f, RoundMode::CAST_RINT, len);
        }
        outQ_.EnQue(b);
        inQ_.FreeTensor(a);
    }
    __aicore__ inline void CopyOut(uint64_t off, uint32_t len) {
        LocalTensor<T> b = outQ_.DeQue<T>();
        DataCopyPad(yGm_[off], b, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        outQ_.FreeTensor(b);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, 2> inQ_;
    TQue<TPosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> work_;
    ListTensorDesc xList_;
    __gm__ uint64_t* yBase_ = nullptr;
    GlobalTensor<T> xGm_, yGm_;
    const ForeachScaleTilingData* tiling_ = nullptr;
    float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void foreach_scale(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220  // the 910B (dav-c220) path, as real kernels guard it
    KernelForeachScale<DTYPE_X> op;
    op.Init(x, scalar, y, &t);
    op.Process();
#endif
}
