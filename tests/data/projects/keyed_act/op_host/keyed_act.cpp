// kgen test project: host side of KeyedAct; IMPL_OP_OPTILING registration instead of SetTiling.
#include "keyed_act_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus KeyedActTiling(gert::TilingContext* context)
{
    int64_t mode = *context->GetAttrs()->GetInt(0);
    KeyedActTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    context->SetTilingKey(mode == 0 ? 1 : mode == 1 ? 2 : 7);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(KeyedAct).Tiling(KeyedActTiling);
}  // namespace optiling

namespace ops {
class KeyedAct : public OpDef {
public:
    explicit KeyedAct(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(OPTIONAL).Int(0);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(KeyedAct);
}  // namespace ops
