// kgen test project: ScaleSum has two outputs, y (the shape of x) and s (shape [1]); its InferShape says so.
// References that only want y return just y (as NPUKernelBench ModelNew classes that pick [0] do).
#include "register/op_def_registry.h"
#include "scale_sum_tiling.h"

namespace optiling {
static ge::graphStatus ScaleSumTiling(gert::TilingContext* context)
{
    ScaleSumTilingData tiling;
    tiling.set_total(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_scale(*context->GetAttrs()->GetAttrPointer<float>(0));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus ScaleSumInferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    gert::Shape* s = context->GetOutputShape(1);
    s->SetDimNum(1);
    s->SetDim(0, 1);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaleSum : public OpDef {
public:
    explicit ScaleSum(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->SetInferShape(ge::ScaleSumInferShape);
        this->AICore().SetTiling(optiling::ScaleSumTiling).AddConfig("ascend910b");
    }
};
OP_ADD(ScaleSum);
}  // namespace ops
