// ForeachScale: y[i] = x[i] * scalar for a list of tensors x (kgen team test project).
// x and y are DYNAMIC (tensor lists); scalar is a one-element float tensor.
#include "foreach_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    ForeachScaleTilingData tiling;
    uint32_t count = 0;
    uint32_t lengths[FOREACH_SCALE_MAX_TENSORS] = {0};
    for (uint32_t i = 0; i < FOREACH_SCALE_MAX_TENSORS; ++i) {
        const gert::Tensor* t = context->GetDynamicInputTensor(0, i);
        if (t == nullptr) break;
        lengths[i] = static_cast<uint32_t>(t->GetStorageShape().GetShapeSize());
        ++count;
    }
    if (count == 0 || context->GetDynamicInputTensor(0, FOREACH_SCALE_MAX_TENSORS) != nullptr) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    tiling.set_tensorCount(count);
    tiling.set_lengths(lengths);
    tiling.set_tileLength(1024);
    context->SetBlockDim(count < cores ? count : cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ForeachScale : public OpDef {
public:
    explicit ForeachScale(const char* name) : OpDef(name) {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scalar").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachScale);
}  // namespace ops
