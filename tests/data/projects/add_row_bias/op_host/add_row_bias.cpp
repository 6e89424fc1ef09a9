// kgen test project: host side of AddRowBias (broadcast over rows).
#include "add_row_bias_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus AddRowBiasTiling(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 2 || bs.GetDimNum() != 1 || bs.GetDim(0) != xs.GetDim(1)) return ge::GRAPH_FAILED;
    uint32_t rows = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t per = (rows + cores - 1) / cores;
    uint32_t used = (rows + per - 1) / per;
    AddRowBiasTilingData tiling;
    uint32_t shape[2] = {rows, cols};
    tiling.set_shape(shape);
    tiling.set_flags(1);
    tiling.split.set_rowsPerCore(per);
    tiling.split.set_lastRows(rows - per * (used - 1));
    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddRowBias : public OpDef {
public:
    explicit AddRowBias(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::AddRowBiasTiling).AddConfig("ascend910b");
    }
};
OP_ADD(AddRowBias);
}  // namespace ops
