// kgen test project: kernel of BatchMatmul. Vector core i takes batches [i * batchPerCore, ...) of c and
// has its cube core compute them with the Matmul API's IterateBatch (NORMAL layout: packed [M, K],
// [K, N] and [M, N] matrices), BatchNum batches per call; a broadcast b stays at batch 0.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

constexpr MatmulConfig BMM_CFG = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1);

template <typename T>
class BatchMatmulKernel {
public:
    using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T, false, LayoutMode::NORMAL>,
                      MatmulType<TPosition::GM, CubeFormat::ND, T, false, LayoutMode::NORMAL>,
                      MatmulType<TPosition::GM, CubeFormat::ND, T, false, LayoutMode::NORMAL>,
                      MatmulType<TPosition::GM, CubeFormat::ND, T>, BMM_CFG>;
    MM mm;

    __aicore__ inline void Process(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t batch, uint32_t perCore, uint32_t used,
                                   bool broadcastB, const TCubeTiling& t)
    {
        uint32_t core = GetBlockIdx();
        if (core >= used) return;
        uint32_t first = core * perCore;
        uint32_t count = batch - first < perCore ? batch - first : perCore;
        uint64_t sizeA = static_cast<uint64_t>(t.M) * t.Ka, sizeB = static_cast<uint64_t>(t.Kb) * t.N;
        uint64_t sizeC = static_cast<uint64_t>(t.M) * t.N;
        GlobalTensor<T> aGm, bGm, cGm;
        aGm.SetGlobalBuffer((__gm__ T*)a);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        cGm.SetGlobalBuffer((__gm__ T*)c);
        uint32_t perCall = static_cast<uint32_t>(t.BatchNum);
        for (uint32_t done = 0; done < count; done += perCall) {
            uint32_t n = count - done < perCall ? count - done : perCall;
            uint64_t i = first + done;
            mm.SetTensorA(aGm[i * sizeA], false);
            mm.SetTensorB(bGm[broadcastB ? 0 : i * sizeB], false);
            mm.IterateBatch(cGm[i * sizeC], n, broadcastB ? 1 : n, false);
        }
        mm.End();
    }
};

extern "C" __global__ __aicore__ void batch_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    BatchMatmulKernel<DTYPE_A> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Process(a, b, c, td.batch, td.batchPerCore, td.usedCores, td.broadcastB != 0, td.mm);
}
