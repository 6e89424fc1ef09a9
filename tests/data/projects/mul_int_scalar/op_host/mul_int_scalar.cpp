// kgen test project: MulIntScalar, y = x * s[0] with int32 x and a one-element int64 s (the OpDef shape of
// NPUKernelBench's ForeachMulScalarList, whose int32 tensors take int64 scalars while its reference hands
// them as an int32 tensor: the bench widens s exactly).
#include "register/op_def_registry.h"
#include "mul_int_scalar_tiling.h"
#include "../../common/one_core_tiling.h"

namespace optiling {
static ge::graphStatus MulIntScalarTiling(gert::TilingContext* context)
{
    return kgen_test::OneCoreTiling<MulIntScalarTilingData>(context);
}
}  // namespace optiling

namespace ops {
class MulIntScalar : public OpDef {
public:
    explicit MulIntScalar(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Input("s").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::MulIntScalarTiling).AddConfig("ascend910b");
    }
};
OP_ADD(MulIntScalar);
}  // namespace ops
