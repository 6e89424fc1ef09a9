// kgen test project: host side of EltAdd (OpDef with three dtype combinations, TilingFunc).
#include "elt_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus EltAddTiling(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    uint32_t align = 32 / typeSize;                    // elements per 32-byte block
    uint64_t blocks = (total + align - 1) / align;
    uint32_t cores = platform.GetCoreNumAiv();
    if (blocks < cores) cores = static_cast<uint32_t>(blocks);
    if (cores == 0) cores = 1;
    uint64_t perCore = (blocks + cores - 1) / cores * align;
    cores = static_cast<uint32_t>((total + perCore - 1) / perCore);

    EltAddTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore(static_cast<uint32_t>(perCore));
    tiling.set_tileLength(typeSize == 4 ? 2048 : 4096);
    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus EltAddInferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class EltAdd : public OpDef {
public:
    explicit EltAdd(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::EltAddInferShape);
        this->AICore().SetTiling(optiling::EltAddTiling).AddConfig("ascend910b");
    }
};
OP_ADD(EltAdd);
}  // namespace ops
