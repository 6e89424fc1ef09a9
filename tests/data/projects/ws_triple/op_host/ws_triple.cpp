// kgen test project: host side of WsTriple (workspace = system workspace + one float per element).
#include "ws_triple_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus WsTripleTiling(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t per = ((total + 5) / 6 + 7) / 8 * 8;
    WsTripleTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore(per);
    context->SetBlockDim((total + per - 1) / per);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(total) * sizeof(float);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class WsTriple : public OpDef {
public:
    explicit WsTriple(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::WsTripleTiling).AddConfig("ascend910b");
    }
};
OP_ADD(WsTriple);
}  // namespace ops
