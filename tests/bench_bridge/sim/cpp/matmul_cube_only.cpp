// A cube-only Matmul kernel-launch program (ASCENDC_CUBE_ONLY before lib/matmul_intf.h): the launch runs
// numBlocks cube cores (g_coreType AIC), each computing its block of C with IterateAll.
#include "kgen_test_io.h"
#include "tiling/tiling_api.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

__global__ __cube__ void cube_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR who, TCubeTiling t) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    int32_t blk = (int32_t)GetBlockIdx();
    GlobalTensor<int32_t> w;
    w.SetGlobalBuffer((__gm__ int32_t*)who, 256);
    w.SetValue(blk * 2, g_coreType);
    w.SetValue(blk * 2 + 1, (int32_t)GetBlockNum());
    int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM, mi = blk % mBlocks, ni = blk / mBlocks;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a + mi * t.singleCoreM * t.Ka);
    bg.SetGlobalBuffer((__gm__ half*)b + ni * t.singleCoreN);
    cg.SetGlobalBuffer((__gm__ float*)c + mi * t.singleCoreM * t.N + ni * t.singleCoreN);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    int32_t tm = t.M - mi * t.singleCoreM, tn = t.N - ni * t.singleCoreN;
    mm.SetTail(tm < t.singleCoreM ? tm : t.singleCoreM, tn < t.singleCoreN ? tn : t.singleCoreN);
    mm.IterateAll(cg);
    mm.End();
}

KT_CASE(cube) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    matmul_tiling::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim((int32_t)kt::param("cores"));
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(M, N, K);
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dc(std::vector<float>(size_t(M) * N, 0.0f));
    kt::Dev<int32_t> dw(std::vector<int32_t>(256, -1));
    cube_mm<<<(uint32_t)t.usedCoreNum, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dw.gm(), t);
    kt::save("c", dc.host());
    kt::save("who", dw.host());
    kt::save("used", std::vector<int32_t>{t.usedCoreNum});
}

KT_MAIN()
