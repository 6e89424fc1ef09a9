// kgen test project: ListNegateOne negates tensor `which` of the list v in place (an Input and an Output
// both named "v", both DYNAMIC). The kernel writes through the *input* list, as NPUKernelBench's
// ScatterList does: CANN gives the in-place output the input's device memory, so the write is the output.
#include "register/op_def_registry.h"
#include "list_negate_one_tiling.h"

namespace optiling {
static ge::graphStatus ListNegateOneTiling(gert::TilingContext* context)
{
    ListNegateOneTilingData tiling;
    uint32_t count = 0;
    uint32_t lengths[LIST_NEGATE_MAX_TENSORS] = {0};
    for (uint32_t i = 0; i < LIST_NEGATE_MAX_TENSORS; ++i) {
        const gert::Tensor* t = context->GetDynamicInputTensor(0, i);
        if (t == nullptr) break;
        lengths[i] = static_cast<uint32_t>(t->GetStorageShape().GetShapeSize());
        ++count;
    }
    if (count == 0) return ge::GRAPH_FAILED;
    tiling.set_count(count);
    tiling.set_lengths(lengths);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ListNegateOne : public OpDef {
public:
    explicit ListNegateOne(const char* name) : OpDef(name)
    {
        this->Input("v").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("which").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("v").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::ListNegateOneTiling).AddConfig("ascend910b");
    }
};
OP_ADD(ListNegateOne);
}  // namespace ops
