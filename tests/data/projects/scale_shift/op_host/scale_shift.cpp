// kgen test project: host side of ScaleShift (float / int / bool / string / list attributes).
#include <cstring>
#include "scale_shift_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus ScaleShiftTiling(gert::TilingContext* context)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* alpha = attrs->GetAttrPointer<float>(0);
    const int64_t* shift = attrs->GetInt(1);
    const bool* relu = attrs->GetBool(2);
    const char* mode = attrs->GetStr(3);
    const gert::TypedContinuousVector<int64_t>* dims = attrs->GetListInt(4);
    if (alpha == nullptr || shift == nullptr || relu == nullptr || mode == nullptr || dims == nullptr) return ge::GRAPH_FAILED;
    int64_t dimsSum = 0;
    for (size_t i = 0; i < dims->GetSize(); ++i) dimsSum += dims->GetData()[i];

    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t cores = 8;
    uint32_t perCore = ((total + cores - 1) / cores + 7) / 8 * 8;
    ScaleShiftTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_alpha(*alpha);
    tiling.set_shift(static_cast<int32_t>(*shift));
    tiling.set_relu(*relu ? 1 : 0);
    tiling.set_modeLen(static_cast<uint8_t>(std::strlen(mode)));
    tiling.set_dimsSum(dimsSum);
    context->SetBlockDim((total + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScaleShift : public OpDef {
public:
    explicit ScaleShift(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("shift").AttrType(REQUIRED).Int();
        this->Attr("relu").AttrType(OPTIONAL).Bool(false);
        this->Attr("mode").AttrType(OPTIONAL).String("fast");
        this->Attr("dims").AttrType(OPTIONAL).ListInt({1, 2});
        this->AICore().SetTiling(optiling::ScaleShiftTiling).AddConfig("ascend910b");
    }
};
OP_ADD(ScaleShift);
}  // namespace ops
