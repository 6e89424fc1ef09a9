// kgen test project: host side of SumDiff (multi-output; DataTypeList on b).
#include "sum_diff_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus SumDiffTiling(gert::TilingContext* context)
{
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t per = ((total + 3) / 4 + 15) / 16 * 16;
    SumDiffTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore(per);
    context->SetBlockDim((total + per - 1) / per);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SumDiff : public OpDef {
public:
    explicit SumDiff(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).Follow("a");
        this->Output("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).FormatList({ge::FORMAT_ND});
        this->Output("d").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).FormatList({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::SumDiffTiling).AddConfig("ascend910b");
    }
};
OP_ADD(SumDiff);
}  // namespace ops
