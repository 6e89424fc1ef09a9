// kgen test project: host side of MixScale.
#include "mix_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus MixScaleTilingFunc(gert::TilingContext* context)
{
    MixScaleTiling* t = context->GetTilingData<MixScaleTiling>();
    t->totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    t->weights = static_cast<uint32_t>(context->GetInputShape(1)->GetStorageShape().GetShapeSize());
    const uint32_t blocks = 3;                  // AI cores; each has two vector cores
    t->perAiv = ((t->totalLength + 2 * blocks - 1) / (2 * blocks) + 7) / 8 * 8;
    context->SetBlockDim(blocks);
    context->GetWorkspaceSizes(1)[0] = 16 * 1024 * 1024 + blocks * 32;   // system part, then one slot per block
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MixScale : public OpDef {
public:
    explicit MixScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::MixScaleTilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(MixScale);
}  // namespace ops
