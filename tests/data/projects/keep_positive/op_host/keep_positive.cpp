// kgen test project: KeepPositive returns the positive elements of x in order. How many there are is
// known only once the kernel has run, so the output is declared OutputShapeDependOnCompute: the kernel
// gets one more GM argument after y and writes y's shape there (dimension count, then the dimensions).
#include "register/op_def_registry.h"
#include "keep_positive_tiling.h"
#include "../../common/one_core_tiling.h"

namespace optiling {
static ge::graphStatus KeepPositiveTiling(gert::TilingContext* context)
{
    return kgen_test::OneCoreTiling<KeepPositiveTilingData>(context);
}
}  // namespace optiling

namespace ops {
class KeepPositive : public OpDef {
public:
    explicit KeepPositive(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).OutputShapeDependOnCompute();
        this->AICore().SetTiling(optiling::KeepPositiveTiling).AddConfig("ascend910b");
    }
};
OP_ADD(KeepPositive);
}  // namespace ops
