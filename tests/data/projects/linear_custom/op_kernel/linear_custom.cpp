// kgen test project: kernel of LinearCustom. Each vector core computes its singleCoreM x singleCoreN block
// of y block by block (Iterate + GetTensorC), B read transposed, bias added by the Matmul.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void linear_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    using T = DTYPE_X;
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T, true>,
           MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T>, CFG_MDL> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm);
    const TCubeTiling& t = td.mm;
    int32_t blk = GetBlockIdx();
    if (blk >= t.usedCoreNum) return;
    int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int32_t mi = blk % mBlocks, ni = blk / mBlocks;
    int32_t tailM = t.M - mi * t.singleCoreM, tailN = t.N - ni * t.singleCoreN;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(mi) * t.singleCoreM * t.Ka);
    wGm.SetGlobalBuffer((__gm__ T*)weight + static_cast<uint64_t>(ni) * t.singleCoreN * t.Kb);  // rows of weight = columns of y
    bGm.SetGlobalBuffer((__gm__ T*)bias + ni * t.singleCoreN);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(mi) * t.singleCoreM * t.N + ni * t.singleCoreN);
    mm.SetTensorA(xGm);
    mm.SetTensorB(wGm, true);
    mm.SetBias(bGm);
    mm.SetTail(tailM < t.singleCoreM ? tailM : t.singleCoreM, tailN < t.singleCoreN ? tailN : t.singleCoreN);
    while (mm.Iterate()) {
        mm.GetTensorC(yGm);
    }
    mm.End();
}
