// kgen test project: host side of PlainNeg.
#include "plain_neg_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus PlainNegTilingFunc(gert::TilingContext* context)
{
    PlainNegTiling* t = context->GetTilingData<PlainNegTiling>();
    t->totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    t->perCore = ((t->totalLength + 2) / 3 + 7) / 8 * 8;
    t->scale = -1.0f;
    context->SetBlockDim((t->totalLength + t->perCore - 1) / t->perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class PlainNeg : public OpDef {
public:
    explicit PlainNeg(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::PlainNegTilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(PlainNeg);
}  // namespace ops
