// The Matmul API's dequantization: int8 A and B, int32 accumulation (+ int32 bias), a half C scaled by
// SetQuantScalar (one 64-bit word) or SetQuantVector (one word per column of C).
#include "kgen_test_io.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using DT = matmul_tiling::DataType;

__global__ __aicore__ void quant_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR q, GM_ADDR c, TCubeTiling t, int32_t mode) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() != 0) return;
    GlobalTensor<int8_t> ag, bg;
    GlobalTensor<int32_t> biasg;
    GlobalTensor<uint64_t> qg;
    GlobalTensor<half> cg;
    ag.SetGlobalBuffer((__gm__ int8_t*)a);
    bg.SetGlobalBuffer((__gm__ int8_t*)b);
    biasg.SetGlobalBuffer((__gm__ int32_t*)bias);
    qg.SetGlobalBuffer((__gm__ uint64_t*)q);
    cg.SetGlobalBuffer((__gm__ half*)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.SetBias(biasg);
    if (mode == 1) mm.SetQuantScalar(qg.GetValue(0));
    else if (mode == 2) mm.SetQuantVector(qg);
    mm.IterateAll(cg);  // MARK:iterateall
    mm.End();
}
KT_CASE(quant) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    matmul_tiling::MatmulApiTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT32);
    api.SetShape(M, N, K);
    api.EnableBias(true);
    api.SetFixSplit(32, 32, -1);
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    kt::Dev<int8_t> da(kt::load<int8_t>("a")), db(kt::load<int8_t>("b"));
    kt::Dev<int32_t> dbias(kt::load<int32_t>("bias"));
    kt::Dev<uint64_t> dq(kt::load<uint64_t>("q"));
    kt::Dev<half> dc(size_t(M) * N);
    quant_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dq.gm(), dc.gm(), t, (int32_t)kt::param("mode"));
    kt::save("c", dc.host());
}

KT_MAIN()
