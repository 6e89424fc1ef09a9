// kgen test project: host side of MatmulBiasRelu, y[M, N] = relu(a[M, K] @ b[K, N] + bias[N]).
// a and b are half; the bias type picks the output type: a float bias gives a float y (the fp32
// accumulator written as it is), a half bias a half y (the accumulator rounded once).
// The Matmul runs on the cube core of each group, the ReLU on its two vector cores (a MIX kernel), so
// the tiling splits C over the vector cores and the block dim is half of the cores it uses.
#include "matmul_bias_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr int32_t BASE_M = 64;  // base block of the Matmul: several blocks per core, tails at the ends
constexpr int32_t BASE_N = 64;

static ge::graphStatus MatmulBiasReluTiling(gert::TilingContext* context)
{
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape& biasShape = context->GetInputShape(2)->GetStorageShape();
    if (as.GetDimNum() != 2 || bs.GetDimNum() != 2 || as.GetDim(1) != bs.GetDim(0) || biasShape.GetDimNum() != 1 ||
        biasShape.GetDim(0) != bs.GetDim(1))
        return ge::GRAPH_FAILED;
    int32_t M = static_cast<int32_t>(as.GetDim(0));
    int32_t K = static_cast<int32_t>(as.GetDim(1));
    int32_t N = static_cast<int32_t>(bs.GetDim(1));
    bool floatOut = context->GetInputDesc(2)->GetDataType() == ge::DT_FLOAT;
    matmul_tiling::DataType outType = floatOut ? matmul_tiling::DataType::DT_FLOAT : matmul_tiling::DataType::DT_FLOAT16;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(platform.GetCoreNumAiv());
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, outType);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, outType);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.EnableBias(true);
    mm.SetFixSplit(BASE_M, BASE_N, -1);
    mm.SetBufferSpace(-1, -1, -1);

    MatmulBiasReluTilingData tiling;
    if (mm.GetTiling(tiling.mm) == -1) return ge::GRAPH_FAILED;
    tiling.set_blockBytes(static_cast<uint32_t>(BASE_M * BASE_N) * (floatOut ? 4U : 2U));
    tiling.set_reserved(0);
    uint32_t used = static_cast<uint32_t>(tiling.mm.get_usedCoreNum());
    context->SetBlockDim((used + 1) / 2);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulBiasRelu : public OpDef {
public:
    explicit MatmulBiasRelu(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::MatmulBiasReluTiling).AddConfig("ascend910b");
    }
};
OP_ADD(MatmulBiasRelu);
}  // namespace ops
