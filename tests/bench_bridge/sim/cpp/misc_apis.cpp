// Small APIs real kernels use: PopStackBuffer, AscendCUtils, ShapeInfo with a DataFormat, and the
// lib/<family>/kernel_operator_<x>_intf.h install paths (kgen_sim/local_alloc.h, ascendc_utils.h,
// tensor.h, include/lib/).
#include <vector>

#include "kgen_test_io.h"
#include "lib/sigmoid/kernel_operator_sigmoid_intf.h"
#include "lib/math/kernel_operator_power_intf.h"
#include "lib/math/kernel_operator_asin_intf.h"
#include "lib/pad/kernel_operator_pad_intf.h"
#include "lib/transpose/confusion_transpose.h"
#include "lib/softmax/kernel_operator_softmax_intf.h"

using namespace AscendC;

// reserve: bytes TPipe hands out first; writes {ok, size in floats, start offset from the last buffer}
__global__ __aicore__ void pop_kernel(GM_ADDR out, GM_ADDR x, GM_ADDR y, uint32_t reserve, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, reserve);
    LocalTensor<float> first = a.Get<float>();
    LocalTensor<float> pop;
    bool ok = PopStackBuffer<float, TPosition::LCM>(pop);
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t*)out);
    g.SetValue(0, ok ? 1u : 0u);
    if (!ok) return;
    g.SetValue(1, pop.GetSize());
    g.SetValue(2, uint32_t(reinterpret_cast<uintptr_t>(pop.GetPhyAddr()) - reinterpret_cast<uintptr_t>(first.GetPhyAddr())));
    // use the popped space as a working tensor: y = sigmoid(x) computed in it
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x);
    gy.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> in = pop, res = pop[n];
    DataCopy(in, gx, n);
    LocalTensor<uint8_t> tmp = pop[2 * n].ReinterpretCast<uint8_t>();
    Sigmoid(res, in, tmp, n);
    DataCopy(gy, res, n);
}
KT_CASE(popstack) {
    const uint32_t reserve = kt::param("reserve"), n = 256;
    auto x = kt::load<float>("x");
    kt::Dev<uint32_t> out(8);
    kt::Dev<float> dx(x), dy(n);
    pop_kernel<<<1, nullptr, nullptr>>>(out.gm(), dx.gm(), dy.gm(), reserve, n);
    kt::save("out", out.host());
    kt::save("y", dy.host());
}

__global__ __aicore__ void utils_kernel(GM_ADDR out, GM_ADDR x, GM_ADDR y) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out);
    g.SetValue(0, AscendCUtils::GetBitSize(2));
    g.SetValue(1, AscendCUtils::GetC0Size());
    g.SetValue(2, AscendCUtils::GetC0Count(sizeof(half)));
    g.SetValue(3, AscendCUtils::GetC0Count(sizeof(float)));
    g.SetValue(4, AscendCUtils::GetDefaultBlockNum());
    g.SetValue(5, int32_t(kgen::ctrl_overflow_bit()));
    AscendCUtils::SetOverflow(0);
    g.SetValue(6, int32_t(kgen::ctrl_overflow_bit()));
    AscendCUtils::SetOverflow(1);
    g.SetValue(7, int32_t(kgen::ctrl_overflow_bit()));
    // SetMask then a mask-register (isSetMask = false) call: only the masked lanes change
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2 * 64 * sizeof(float));
    LocalTensor<float> src = b.Get<float>(), dst = src[64];
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x);
    gy.SetGlobalBuffer((__gm__ float*)y);
    DataCopy(src, gx, 64);
    DataCopy(dst, gx, 64);
    AscendCUtils::SetMask<float>(0, 0xF0F0ull);
    Adds<float, false>(dst, src, 100.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    AscendCUtils::SetMask<float>(20);  // the first 20 lanes
    Muls<float, false>(dst, dst, 2.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    AscendCUtils::ResetMask();
    DataCopy(gy, dst, 64);
}
KT_CASE(utils) {
    auto x = kt::load<float>("x");
    kt::Dev<int32_t> out(8);
    kt::Dev<float> dx(x), dy(64);
    utils_kernel<<<1, nullptr, nullptr>>>(out.gm(), dx.gm(), dy.gm());
    kt::save("out", out.host());
    kt::save("y", dy.host());
}

// form: 0 (dim, shape), 1 (dim, shape, format), 2 (dim, shape, oriDim, oriShape, format), 3 nine dimensions
__global__ __aicore__ void shape_kernel(GM_ADDR out, int32_t form) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<half> t = b.Get<half>();
    const uint32_t nz[4] = {2, 3, 16, 16}, nd[2] = {48, 32};
    const uint32_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    ShapeInfo s;
    if (form == 0) s = ShapeInfo(2, nd);
    else if (form == 1) s = ShapeInfo(4, nz, DataFormat::NZ);
    else if (form == 2) s = ShapeInfo(4, nz, 2, nd, DataFormat::NZ);
    else s = ShapeInfo(9, nine, DataFormat::ND);
    t.SetShapeInfo(s);
    ShapeInfo r = t.GetShapeInfo();
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t*)out);
    g.SetValue(0, r.shapeDim);
    g.SetValue(1, r.originalShapeDim);
    g.SetValue(2, uint32_t(r.dataFormat));
    for (uint32_t i = 0; i < 4; ++i) g.SetValue(3 + i, r.shape[i]);
    for (uint32_t i = 0; i < 4; ++i) g.SetValue(7 + i, r.originalShape[i]);
}
KT_CASE(shapeinfo) {
    kt::Dev<uint32_t> out(11);
    shape_kernel<<<1, nullptr, nullptr>>>(out.gm(), int32_t(kt::param("form")));
    kt::save("out", out.host());
}

// GatherMask: pattern 0 = the user pattern tensor `pat`, 1..7 built-in; writes y (dst) and cnt {rsvdCnt, GetGatherMaskRemainCount, GetRsvdCnt}
template <typename T, typename U>
__global__ __aicore__ void gm_kernel(GM_ADDR x, GM_ADDR pat, GM_ADDR y, GM_ADDR cnt, uint32_t n, uint32_t npat, int32_t pattern,
                                     int32_t counter, uint32_t mask, uint16_t rep, uint8_t blk, uint16_t srep, uint8_t prep) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bp, by;
    pipe.InitBuffer(bx, n * sizeof(T));
    pipe.InitBuffer(bp, (npat * sizeof(U) + 31) / 32 * 32);
    pipe.InitBuffer(by, n * sizeof(T));
    LocalTensor<T> X = bx.Get<T>(), Y = by.Get<T>();
    LocalTensor<U> P = bp.Get<U>();
    GlobalTensor<T> gx, gy;
    GlobalTensor<U> gp;
    gx.SetGlobalBuffer((__gm__ T*)x);
    gy.SetGlobalBuffer((__gm__ T*)y);
    gp.SetGlobalBuffer((__gm__ U*)pat);
    DataCopy(X, gx, n);
    DataCopy(P, gp, (npat * sizeof(U) + 31) / 32 * 32 / sizeof(U));
    Duplicate(Y, T(0), n);
    uint64_t kept = 0;
    GatherMaskParams params{blk, rep, srep, prep};
    if (pattern == 0) GatherMask(Y, X, P, counter != 0, mask, params, kept);
    else GatherMask(Y, X, uint8_t(pattern), counter != 0, mask, params, kept);
    GlobalTensor<int64_t> gc;
    gc.SetGlobalBuffer((__gm__ int64_t*)cnt);
    gc.SetValue(0, int64_t(kept));
    gc.SetValue(1, GetGatherMaskRemainCount());
    gc.SetValue(2, AscendCUtils::GetRsvdCnt());
    DataCopy(gy, Y, n);
}
template <typename T, typename U>
void run_gm() {
    auto x = kt::load<T>("x");
    auto pat = kt::load<U>("pat");
    const uint32_t n = x.size();
    kt::Dev<T> dx(x), dy(n);
    kt::Dev<U> dp(pat);
    kt::Dev<int64_t> dc(4);
    gm_kernel<T, U><<<1, nullptr, nullptr>>>(dx.gm(), dp.gm(), dy.gm(), dc.gm(), n, uint32_t(pat.size()),
                                             int32_t(kt::param("pattern")), int32_t(kt::param("counter")),
                                             uint32_t(kt::param("mask")), uint16_t(kt::param("rep")), uint8_t(kt::param("blk", 1)),
                                             uint16_t(kt::param("srep", 8)), uint8_t(kt::param("prep")));
    kt::save("y", dy.host());
    kt::save("cnt", dc.host());
}
KT_CASE(gm_f16) { run_gm<half, uint16_t>(); }
KT_CASE(gm_f32) { run_gm<float, uint32_t>(); }
KT_CASE(gm_i32) { run_gm<int32_t, uint32_t>(); }

KT_MAIN()

// ---- a user-defined TBufPool (EXTERN_IMPL_BUFPOOL): the class lays its queues and TBuf out itself, one after another
// from GetCurAddr, through InitStartBufHandle / InitBufHandle; z = x + y computed in them, twice (Reset between)
class KtPool {
public:
    KtPool() { Init(); }
    template <class Q>
    bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        len = (len + 31) / 32 * 32;
        auto h = GetBufHandle(GetCurBufSize());
        const uint32_t at = GetCurAddr();
        que.InitStartBufHandle(h, num, len);
        for (uint8_t i = 0; i < num; ++i) que.InitBufHandle(this, i, h, at + i * len, len);
        SetCurAddr(at + num * len);
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    template <TPosition P>
    bool InitBuffer(TBuf<P>& buf, uint32_t len) {
        len = (len + 31) / 32 * 32;
        auto h = GetBufHandle(GetCurBufSize());
        buf.InitStartBufHandle(h, 1, len);
        buf.InitBufHandle(this, 0, h, GetCurAddr(), len);
        SetCurAddr(GetCurAddr() + len);
        SetCurBufSize(GetCurBufSize() + 1);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(KtPool, TPosition::VECCALC, 8);
};

__global__ __aicore__ void extpool_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR info, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> before;
    pipe.InitBuffer(before, 64);  // the pool's region starts after it
    KtPool pool;
    pipe.InitBufPool(pool, 3 * n * sizeof(float) + 64);
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    gz.SetGlobalBuffer((__gm__ float*)z, 2 * n);
    GlobalTensor<uint32_t> gi;
    gi.SetGlobalBuffer((__gm__ uint32_t*)info, 4);
    for (int round = 0; round < 2; ++round) {
        TQue<TPosition::VECIN, 1> qx;
        TBuf<TPosition::VECCALC> by;
        TQue<TPosition::VECOUT, 1> qz;
        pool.InitBuffer(qx, 1, n * sizeof(float));
        pool.InitBuffer(by, n * sizeof(float));
        pool.InitBuffer(qz, 1, n * sizeof(float));
        LocalTensor<float> lx = qx.AllocTensor<float>(), ly = by.Get<float>();
        DataCopy(lx, gx, n);
        DataCopy(ly, gy, n);
        qx.EnQue(lx);
        lx = qx.DeQue<float>();
        LocalTensor<float> lz = qz.AllocTensor<float>();
        if (round == 0) Add(lz, lx, ly, n);
        else Mul(lz, lx, ly, n);
        qz.EnQue(lz);
        lz = qz.DeQue<float>();
        DataCopy(gz[round * n], lz, n);
        if (round == 0) {
            gi.SetValue(0, uint32_t(reinterpret_cast<uintptr_t>(lx.GetPhyAddr()) - reinterpret_cast<uintptr_t>(before.Get<float>().GetPhyAddr())));
            gi.SetValue(1, uint32_t(reinterpret_cast<uintptr_t>(ly.GetPhyAddr()) - reinterpret_cast<uintptr_t>(lx.GetPhyAddr())));
            gi.SetValue(2, uint32_t(reinterpret_cast<uintptr_t>(lz.GetPhyAddr()) - reinterpret_cast<uintptr_t>(ly.GetPhyAddr())));
            gi.SetValue(3, pool.GetCurBufSize());
        }
        qx.FreeTensor(lx);
        qz.FreeTensor(lz);
        pool.Reset();
    }
}
KT_CASE(extpool) {
    auto x = kt::load<float>("x");
    auto y = kt::load<float>("y");
    const uint32_t n = (uint32_t)x.size();
    kt::Dev<float> dx(x), dy(y), dz(std::vector<float>(2 * n, 0.f));
    kt::Dev<uint32_t> di(std::vector<uint32_t>(4, 0));
    extpool_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dz.gm(), di.gm(), n);
    kt::save("z", dz.host());
    kt::save("info", di.host());
}
