// kgen test project: host side of BatchMatmul, c[B, M, N] = a[B, M, K] @ b[B, K, N] (torch.matmul; b may
// also be [1, K, N], broadcast over the batches of a). The batches are spread over the vector cores;
// each core computes its batches with IterateBatch, at most MAX_BATCH_PER_CALL per call.
#include "batch_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr int32_t MAX_BATCH_PER_CALL = 4;

static ge::graphStatus BatchMatmulTiling(gert::TilingContext* context)
{
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    if (as.GetDimNum() != 3 || bs.GetDimNum() != 3 || as.GetDim(2) != bs.GetDim(1)) return ge::GRAPH_FAILED;
    int32_t B = static_cast<int32_t>(as.GetDim(0));
    int32_t M = static_cast<int32_t>(as.GetDim(1));
    int32_t K = static_cast<int32_t>(as.GetDim(2));
    int32_t N = static_cast<int32_t>(bs.GetDim(2));
    int32_t batchB = static_cast<int32_t>(bs.GetDim(0));
    if (batchB != B && batchB != 1) return ge::GRAPH_FAILED;
    matmul_tiling::DataType dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                                           : matmul_tiling::DataType::DT_FLOAT;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t perCore = (static_cast<uint32_t>(B) + cores - 1) / cores;
    uint32_t used = (static_cast<uint32_t>(B) + perCore - 1) / perCore;
    int32_t perCall = static_cast<int32_t>(perCore) < MAX_BATCH_PER_CALL ? static_cast<int32_t>(perCore) : MAX_BATCH_PER_CALL;

    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(1);  // one core computes whole batches
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetBatchInfoForNormal(perCall, batchB == 1 ? 1 : perCall, M, N, K);
    mm.SetBufferSpace(-1, -1, -1);

    BatchMatmulTilingData tiling;
    if (mm.GetTiling(tiling.mm) == -1) return ge::GRAPH_FAILED;
    tiling.set_batch(static_cast<uint32_t>(B));
    tiling.set_batchPerCore(perCore);
    tiling.set_usedCores(used);
    tiling.set_broadcastB(batchB == 1 ? 1U : 0U);
    context->SetBlockDim((used + 1) / 2);  // MIX: one cube core per two vector cores
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class BatchMatmul : public OpDef {
public:
    explicit BatchMatmul(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::BatchMatmulTiling).AddConfig("ascend910b");
    }
};
OP_ADD(BatchMatmul);
}  // namespace ops
