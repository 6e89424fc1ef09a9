// kgen test project: kernel of EltAdd. Each core takes a contiguous range; tiles of tileLength
// elements move with DataCopyPad so the last, partial tile needs no padding on the host. bf16 is
// added in float (Add has no bf16 form on this architecture) and rounded back with CAST_RINT.
#include "kernel_operator.h"

template <typename T>
class KernelEltAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const EltAddTilingData& t)
    {
        uint64_t start = static_cast<uint64_t>(t.perCore) * AscendC::GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.perCore ? t.totalLength - start : t.perCore);
        tile_ = t.tileLength;
        xGm_.SetGlobalBuffer((__gm__ T*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + start, length_);
        zGm_.SetGlobalBuffer((__gm__ T*)z + start, length_);
        pipe_.InitBuffer(inX_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(inY_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(outZ_, 2, tile_ * sizeof(T));
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            pipe_.InitBuffer(fx_, tile_ * sizeof(float));
            pipe_.InitBuffer(fy_, tile_ * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < length_; off += tile_) {
            uint32_t n = static_cast<uint32_t>(length_ - off < tile_ ? length_ - off : tile_);
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::LocalTensor<T> xl = inX_.AllocTensor<T>();
            AscendC::LocalTensor<T> yl = inY_.AllocTensor<T>();
            AscendC::DataCopyPad(xl, xGm_[off], cp, pad);
            AscendC::DataCopyPad(yl, yGm_[off], cp, pad);
            inX_.EnQue(xl);
            inY_.EnQue(yl);
            xl = inX_.DeQue<T>();
            yl = inY_.DeQue<T>();
            AscendC::LocalTensor<T> zl = outZ_.AllocTensor<T>();
            if constexpr (std::is_same_v<T, bfloat16_t>) {
                AscendC::LocalTensor<float> a = fx_.Get<float>();
                AscendC::LocalTensor<float> b = fy_.Get<float>();
                AscendC::Cast(a, xl, AscendC::RoundMode::CAST_NONE, n);
                AscendC::Cast(b, yl, AscendC::RoundMode::CAST_NONE, n);
                AscendC::Add(a, a, b, n);
                AscendC::Cast(zl, a, AscendC::RoundMode::CAST_RINT, n);
            } else {
                AscendC::Add(zl, xl, yl, n);
            }
            outZ_.EnQue(zl);
            inX_.FreeTensor(xl);
            inY_.FreeTensor(yl);
            zl = outZ_.DeQue<T>();
            AscendC::DataCopyPad(zGm_[off], zl, cp);
            outZ_.FreeTensor(zl);
        }
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inX_, inY_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outZ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> fx_, fy_;
    AscendC::GlobalTensor<T> xGm_, yGm_, zGm_;
    uint64_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void elt_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelEltAdd<DTYPE_X> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
