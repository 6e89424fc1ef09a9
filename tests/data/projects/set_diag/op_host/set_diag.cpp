// kgen test project: SetDiag updates y in place (an Input and an Output both named "y"): the kernel
// writes only the diagonal, every other element keeps the value y came in with.
#include "register/op_def_registry.h"
#include "set_diag_tiling.h"

namespace optiling {
static ge::graphStatus SetDiagTiling(gert::TilingContext* context)
{
    SetDiagTilingData tiling;
    tiling.set_n(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetDim(0)));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SetDiag : public OpDef {
public:
    explicit SetDiag(const char* name) : OpDef(name)
    {
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::SetDiagTiling).AddConfig("ascend910b");
    }
};
OP_ADD(SetDiag);
}  // namespace ops
