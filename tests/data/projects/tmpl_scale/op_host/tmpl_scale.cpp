// TmplScale host side (kgen team test project): the TilingFunc hands over to the tiling-class registry.
#include "tmpl_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_TEMPLATE("TmplScale", TmplScaleSmall, 20);
REGISTER_TILING_TEMPLATE("TmplScale", TmplScaleLarge, 10);

static ge::graphStatus TilingFunc(gert::TilingContext* context) { return TilingRegistry::GetInstance().DoTilingImpl(context); }
}  // namespace optiling

namespace ops {
class TmplScale : public OpDef {
public:
    explicit TmplScale(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TmplScale);
}  // namespace ops
