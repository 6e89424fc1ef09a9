// kgen test project: host side of TopkRows: x [rows, cols] -> values [rows, 8], indices [rows, 8].
// cols must be a multiple of 32 (TopK's row length); all rows go to one core.
#include "topk_rows_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr int32_t K = 8;
static ge::graphStatus TopkRowsTiling(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 2 || xs.GetDim(1) % 32 != 0) {
        std::printf("TopkRows: expected [rows, cols] with cols a multiple of 32\n");
        return ge::GRAPH_FAILED;
    }
    TopkRowsTilingData tiling;
    const int32_t rows = static_cast<int32_t>(xs.GetDim(0)), cols = static_cast<int32_t>(xs.GetDim(1));
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    AscendC::TopKTilingFunc(plat, cols, rows, K, sizeof(float), false, AscendC::TopKMode::TOPK_NORMAL, true, tiling.topk);
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetTopKMaxMinTmpSize(plat, cols, rows, false, false, AscendC::TopKMode::TOPK_NORMAL, true, sizeof(float),
                                  maxTmp, minTmp);
    tiling.set_tmpBytes(minTmp);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus TopkRowsInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    for (int i = 0; i < 2; ++i) {
        gert::Shape* y = context->GetOutputShape(i);
        y->SetDimNum(0);
        y->AppendDim(x->GetDim(0));
        y->AppendDim(optiling::K);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TopkRows : public OpDef {
public:
    explicit TopkRows(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("indices").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::TopkRowsInferShape);
        this->AICore().SetTiling(optiling::TopkRowsTiling).AddConfig("ascend910b");
    }
};
OP_ADD(TopkRows);
}  // namespace ops
