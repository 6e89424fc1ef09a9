// Copy (kgen_sim/vec_copy.h) with masks and strides (kgen team test program). Params: mask (count
// form) or lo/hi (bit form), rep, dst_blk, src_blk, dst_rep, src_rep; counter = 1: counter mode (SetMaskCount), the
// count in the mask argument (reg = 0) or in the mask register (reg = 1); src.bin / dst.bin hold 1024 values each;
// dst.bin is written back after the copy.
#include "kgen_test_io.h"
using namespace AscendC;

template <typename T>
__global__ __aicore__ void copy_kernel(GM_ADDR s, GM_ADDR d, int64_t mask, uint64_t lo, uint64_t hi, int bits, uint8_t rep,
                                       CopyRepeatParams p, int counter, int reg) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, 1024 * sizeof(T));
    pipe.InitBuffer(db, 1024 * sizeof(T));
    GlobalTensor<T> S, D;
    S.SetGlobalBuffer((__gm__ T*)s, 1024);
    D.SetGlobalBuffer((__gm__ T*)d, 1024);
    LocalTensor<T> sl = sb.Get<T>(), dl = db.Get<T>();
    DataCopy(sl, S, 1024);
    DataCopy(dl, D, 1024);
    if (counter) {
        SetMaskCount();
        if (reg) {
            SetVectorMask<T, MaskMode::COUNTER>(static_cast<int32_t>(mask));
            Copy<T, false>(dl, sl, MASK_PLACEHOLDER, rep, p);
        } else {
            Copy(dl, sl, static_cast<uint64_t>(mask), rep, p);
        }
        SetMaskNorm();
        ResetMask();
    } else if (bits) {
        uint64_t m[2] = {lo, hi};
        Copy(dl, sl, m, rep, p);
    } else {
        Copy(dl, sl, static_cast<uint64_t>(mask), rep, p);
    }
    DataCopy(D, dl, 1024);
}

template <typename T>
void run_copy() {
    auto src = kt::load<T>("src");
    auto dst = kt::load<T>("dst");
    kt::Dev<T> ds(src), dd(dst);
    CopyRepeatParams p(kt::param("dst_blk", 1), kt::param("src_blk", 1), kt::param("dst_rep", 8), kt::param("src_rep", 8));
    copy_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dd.gm(), kt::param("mask", 0), (uint64_t)kt::param("lo", 0), (uint64_t)kt::param("hi", 0),
                                            (int)kt::param("bits", 0), (uint8_t)kt::param("rep", 1), p,
                                            (int)kt::param("counter", 0), (int)kt::param("reg", 0));
    kt::save("dst", dd.host());
}
KT_CASE(copy_f32) { run_copy<float>(); }
KT_CASE(copy_i16) { run_copy<int16_t>(); }

KT_MAIN()
