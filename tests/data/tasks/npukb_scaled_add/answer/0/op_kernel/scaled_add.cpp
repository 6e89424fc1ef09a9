// ScaledAdd kernel: y = x1 + alpha * x2, computed in float for 16-bit inputs (kgen team test project).
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelScaledAdd {
public:
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tile, float alpha) {
        uint32_t start = perCore * GetBlockIdx();
        length_ = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
        tile_ = tile;
        alpha_ = alpha;
        x1Gm_.SetGlobalBuffer((__gm__ T*)x1 + start, length_);
        x2Gm_.SetGlobalBuffer((__gm__ T*)x2 + start, length_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + start, length_);
        pipe_.InitBuffer(in1_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(in2_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(out_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(f1_, tile_ * sizeof(float));
        pipe_.InitBuffer(f2_, tile_ * sizeof(float));
    }
    __aicore__ inline void Process() {
        for (uint32_t off = 0; off < length_; off += tile_) {
            uint32_t n = length_ - off < tile_ ? length_ - off : tile_;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
        LocalTensor<T> a = in1_.AllocTensor<T>();
        LocalTensor<T> b = in2_.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(a, x1Gm_[off], p, pad);
        DataCopyPad(b, x2Gm_[off], p, pad);
        in1_.EnQue(a);
        in2_.EnQue(b);
    }
    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<T> a = in1_.DeQue<T>();
        LocalTensor<T> b = in2_.DeQue<T>();
        LocalTensor<T> c = out_.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            Muls(c, b, alpha_, n);
            Add(c, a, c, n);
        } else {
            LocalTensor<float> fa = f1_.Get<float>();
            LocalTensor<float> fb = f2_.Get<float>();
            Cast(fa, a, RoundMode::CAST_NONE, n);
            Cast(fb, b, RoundMode::CAST_NONE, n);
            Muls(fb, fb, alpha_, n);
            Add(fa, fa, fb, n);
            Cast(c, fa, RoundMode::CAST_RINT, n);
        }
        out_.EnQue(c);
        in1_.FreeTensor(a);
        in2_.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
        LocalTensor<T> c = out_.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[off], c, p);
        out_.FreeTensor(c);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, BUFFER_NUM> in1_, in2_;
    TQue<TPosition::VECOUT, BUFFER_NUM> out_;
    TBuf<TPosition::VECCALC> f1_, f2_;
    GlobalTensor<T> x1Gm_, x2Gm_, yGm_;
    uint32_t length_ = 0, tile_ = 0;
    float alpha_ = 1.0f;
};

extern "C" __global__ __aicore__ void scaled_add(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    KernelScaledAdd<DTYPE_X1> op;
    op.Init(x1, x2, y, t.totalLength, t.perCore, t.tileLength, t.alpha);
    op.Process();
}
