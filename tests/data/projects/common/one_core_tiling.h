// kgen test projects: the TilingFunc several team-written op projects share -- one core, and a tiling
// struct whose only field `n` is the element count of input 0. Included by path from their op_host.
#pragma once
#include "register/op_def_registry.h"

namespace kgen_test {
template <class TilingData>
inline ge::graphStatus OneCoreTiling(gert::TilingContext* context)
{
    TilingData tiling;
    tiling.set_n(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace kgen_test
