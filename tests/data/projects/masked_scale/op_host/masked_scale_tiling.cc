// kgen test project: TilingFunc of MaskedScale, registered by operator type (a .cc file, as some
// operator libraries name their op_host sources).
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "masked_scale_tiling.h"
#include "masked_scale_util.h"

namespace optiling {
static ge::graphStatus MaskedScaleTiling(gert::TilingContext* context)
{
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t per = static_cast<uint32_t>(RoundUpTo((total + 3) / 4, 32));  // at most 4 cores, 32-element pieces
    MaskedScaleTilingData tiling;
    tiling.set_total(total);
    tiling.set_perCore(per);
    tiling.set_scale(*context->GetAttrs()->GetAttrPointer<float>(0));
    context->SetBlockDim((total + per - 1) / per);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(MaskedScale).Tiling(MaskedScaleTiling);
}  // namespace optiling
