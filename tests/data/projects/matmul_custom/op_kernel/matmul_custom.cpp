// kgen test project: kernel of MatmulCustom. Each vector core takes the singleCoreM x singleCoreN block
// of C the tiling gives it (tails at the ends of M and N), and the Matmul API computes it with IterateAll.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class MatmulCustomKernel {
public:
    using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T>,
                      MatmulType<TPosition::GM, CubeFormat::ND, T>>;
    MM mm;

    __aicore__ inline void Process(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t)
    {
        int32_t blk = GetBlockIdx();
        if (blk >= t.usedCoreNum) return;
        int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        int32_t mi = blk % mBlocks, ni = blk / mBlocks;
        int32_t tailM = t.M - mi * t.singleCoreM, tailN = t.N - ni * t.singleCoreN;
        tailM = tailM < t.singleCoreM ? tailM : t.singleCoreM;
        tailN = tailN < t.singleCoreN ? tailN : t.singleCoreN;
        GlobalTensor<T> aGm, bGm, cGm;
        aGm.SetGlobalBuffer((__gm__ T*)a + static_cast<uint64_t>(mi) * t.singleCoreM * t.Ka);
        bGm.SetGlobalBuffer((__gm__ T*)b + static_cast<uint64_t>(ni) * t.singleCoreN);
        cGm.SetGlobalBuffer((__gm__ T*)c + static_cast<uint64_t>(mi) * t.singleCoreM * t.N + ni * t.singleCoreN);
        mm.SetTensorA(aGm, false);
        mm.SetTensorB(bGm, false);
        if (tailM < t.singleCoreM || tailN < t.singleCoreN) mm.SetTail(tailM, tailN);
        mm.IterateAll(cGm);
        mm.End();
    }
};

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    MatmulCustomKernel<DTYPE_A> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Process(a, b, c, tilingData.cubeTilingData);
}
