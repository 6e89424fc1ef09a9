// ScaledAdd: y = x1 + alpha * x2 (kgen team test project). Host side: OpDef and TilingFunc.
#include "scaled_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    ScaledAddTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    // split in 256-element chunks so every core but the last starts 32-byte aligned
    constexpr uint32_t CHUNK = 256;
    uint32_t chunks = (total + CHUNK - 1) / CHUNK;
    uint32_t blocks = chunks < coreNum ? chunks : coreNum;
    if (blocks == 0) blocks = 1;
    uint32_t perCore = (chunks + blocks - 1) / blocks * CHUNK;
    blocks = (total + perCore - 1) / perCore;
    if (blocks == 0) blocks = 1;
    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(2048);
    tiling.set_alpha(alpha ? *alpha : 1.0f);
    context->SetBlockDim(blocks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaledAdd : public OpDef {
public:
    explicit ScaledAdd(const char* name) : OpDef(name) {
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaledAdd);
}  // namespace ops
