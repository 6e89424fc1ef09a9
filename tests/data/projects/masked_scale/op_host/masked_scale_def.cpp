// kgen test project: OpDef of MaskedScale (x float, mask uint8, attr scale); the TilingFunc is registered
// apart, in masked_scale.cpp, with IMPL_OP_OPTILING.
#include "register/op_def_registry.h"
#include "masked_scale_util.h"

namespace ops {
class MaskedScale : public OpDef {
public:
    explicit MaskedScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("mask").ParamType(REQUIRED).DataType({ge::DT_UINT8}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaskedScale);
}  // namespace ops
