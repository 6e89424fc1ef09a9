// kgen test project: CastOut converts a float32 x to the output's type. Two dtype combinations take the
// same input (float32) and differ only in the output (float16, int32), as NPUKernelBench's CastMath does:
// the bench must build the one whose output type is the reference's result type. The TilingFunc refuses
// a combination whose output type is not the one the `dst` attribute names (ge::DataType values).
#include "register/op_def_registry.h"
#include "cast_out_tiling.h"
#include "../../common/one_core_tiling.h"

namespace optiling {
static ge::graphStatus CastOutTiling(gert::TilingContext* context)
{
    const int64_t* dst = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dst == nullptr || *dst != static_cast<int64_t>(context->GetOutputDesc(0)->GetDataType())) return ge::GRAPH_FAILED;
    return kgen_test::OneCoreTiling<CastOutTilingData>(context);
}
}  // namespace optiling

namespace ops {
class CastOut : public OpDef {
public:
    explicit CastOut(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dst").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::CastOutTiling).AddConfig("ascend910b");
    }
};
OP_ADD(CastOut);
}  // namespace ops
