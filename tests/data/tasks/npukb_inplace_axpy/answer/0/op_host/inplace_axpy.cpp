// InplaceAxpy: y += alpha * x, written into its second input y (no outputs). One core, tiles of 1024 floats.
#include "inplace_axpy_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    InplaceAxpyTilingData tiling;
    tiling.set_totalLength(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_alpha(alpha ? *alpha : 1.0f);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class InplaceAxpy : public OpDef {
public:
    explicit InplaceAxpy(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(InplaceAxpy);
}  // namespace ops
