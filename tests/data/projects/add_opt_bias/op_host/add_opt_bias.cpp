// kgen test project: AddOptBias, y = x + bias where the input bias is OPTIONAL (absent: y = x). A
// reference that passes None for it (NPUKernelBench's AddRmsNormQuant passes None for an optional input)
// launches the kernel with a null bias address.
#include "register/op_def_registry.h"
#include "add_opt_bias_tiling.h"
#include "../../common/one_core_tiling.h"

namespace optiling {
static ge::graphStatus AddOptBiasTiling(gert::TilingContext* context)
{
    return kgen_test::OneCoreTiling<AddOptBiasTilingData>(context);
}
}  // namespace optiling

namespace ops {
class AddOptBias : public OpDef {
public:
    explicit AddOptBias(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::AddOptBiasTiling).AddConfig("ascend910b");
    }
};
OP_ADD(AddOptBias);
}  // namespace ops
