// kgen test project: host side of RowSum; the TilingFunc refuses inputs that are not 2-D.
#include "row_sum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus RowSumTiling(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 2) {
        std::printf("RowSum: expected a 2-D input, got %zu dims\n", xs.GetDimNum());
        return ge::GRAPH_FAILED;
    }
    RowSumTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(xs.GetDim(0)));
    tiling.set_cols(static_cast<uint32_t>(xs.GetDim(1)));
    // rows per core rounded up to a multiple of 8 (whole 32-byte blocks of y per core)
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t per = ((tiling.get_rows() + cores - 1) / cores + 7) / 8 * 8;
    tiling.set_rowsPerCore(per);
    context->SetBlockDim((tiling.get_rows() + per - 1) / per);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus RowSumInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(0);
    y->AppendDim(x->GetDim(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class RowSum : public OpDef {
public:
    explicit RowSum(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::RowSumInferShape);
        this->AICore().SetTiling(optiling::RowSumTiling).AddConfig("ascend910b");
    }
};
OP_ADD(RowSum);
}  // namespace ops
