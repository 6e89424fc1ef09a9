// kgen test project: host side of MatmulCustom, c[M, N] = a[M, K] @ b[K, N].
// The TilingFunc asks MultiCoreMatmulTiling for a split over the vector cores (the kernel is MIX:
// one cube core serves two vector cores, so the block dim is half the cores the tiling uses).
#include "matmul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static matmul_tiling::DataType MmType(ge::DataType t)
{
    return t == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
         : t == ge::DT_BF16    ? matmul_tiling::DataType::DT_BF16
                               : matmul_tiling::DataType::DT_FLOAT;
}

static ge::graphStatus MatmulCustomTiling(gert::TilingContext* context)
{
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    if (as.GetDimNum() != 2 || bs.GetDimNum() != 2 || as.GetDim(1) != bs.GetDim(0)) return ge::GRAPH_FAILED;
    int32_t M = static_cast<int32_t>(as.GetDim(0));
    int32_t K = static_cast<int32_t>(as.GetDim(1));
    int32_t N = static_cast<int32_t>(bs.GetDim(1));
    matmul_tiling::DataType dt = MmType(context->GetInputDesc(0)->GetDataType());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(platform.GetCoreNumAiv());
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.EnableBias(false);
    mm.SetBufferSpace(-1, -1, -1);

    MatmulCustomTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) return ge::GRAPH_FAILED;
    uint32_t used = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    context->SetBlockDim((used + 1) / 2);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulCustom : public OpDef {
public:
    explicit MatmulCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::MatmulCustomTiling).AddConfig("ascend910b");
    }
};
OP_ADD(MatmulCustom);
}  // namespace ops
