// kgen test project: host side of LinearCustom, y[M, N] = x[M, K] @ weight[N, K]^T + bias[N]
// (torch.nn.functional.linear): the Matmul reads B transposed and adds the bias.
#include "linear_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus LinearCustomTiling(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(2)->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1) || bs.GetDim(0) != ws.GetDim(0))
        return ge::GRAPH_FAILED;
    int32_t M = static_cast<int32_t>(xs.GetDim(0)), K = static_cast<int32_t>(xs.GetDim(1)), N = static_cast<int32_t>(ws.GetDim(0));
    matmul_tiling::DataType dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                                           : matmul_tiling::DataType::DT_FLOAT;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(platform.GetCoreNumAiv());
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.EnableBias(true);
    mm.SetFixSplit(64, 64, -1);  // several Iterate blocks per core, with tails

    LinearCustomTilingData tiling;
    if (mm.GetTiling(tiling.mm) == -1) return ge::GRAPH_FAILED;
    tiling.set_blockRows(64);
    context->SetBlockDim((tiling.mm.get_usedCoreNum() + 1) / 2);  // a MIX kernel: two vector cores per block
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = platform.GetLibApiWorkSpaceSize();
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class LinearCustom : public OpDef {
public:
    explicit LinearCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::LinearCustomTiling).AddConfig("ascend910b");
    }
};
OP_ADD(LinearCustom);
}  // namespace ops
