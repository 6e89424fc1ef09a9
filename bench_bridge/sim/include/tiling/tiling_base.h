// kgen host-side emulation -- tiling/tiling_base.h: the tiling-class framework of CANN's operator
// libraries (ops-nn and friends). An operator's tiling is a class derived from TilingBaseClass;
// TilingRegistry (tiling/tiling_templates_registry.h) tries the registered classes in turn.
//
// Documented behaviour followed (the framework's own description of DoTiling):
//  * DoTiling() runs GetShapeAttrsInfo, GetPlatformInfo, IsCapable, DoOpTiling, DoLibApiTiling,
//    GetWorkspaceSize and PostTiling in that order, stops at the first status other than
//    GRAPH_SUCCESS and returns it, then sets the tiling key from GetTilingKey().
//  * IsCapable() false means "this class does not handle the case": DoTiling returns
//    GRAPH_PARAM_INVALID so the registry goes on with the next class; GRAPH_FAILED stops tiling.
//  * context_ is the TilingContext; blockDim_, workspaceSize_ and tilingKey_ are working fields for the
//    derived classes; aicoreParams_ holds the platform figures a class fills in
//    GetPlatformInfo (ub size, block dim, AI core count, L1/L0 sizes).
//  * ASCENDC_EXTERN_C marks tiling entry points: `extern "C"` in the operator libraries' test builds
//    (ASCENDC_OP_TEST defined), empty otherwise; code that defines it first keeps its own definition.
//
// @api ASCENDC_EXTERN_C TilingBaseClass AiCoreParams DoTiling IsCapable GetShapeAttrsInfo DoOpTiling DoLibApiTiling PostTiling DumpTilingInfo
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "graph/utils/type_utils.h"
#include "tiling/platform/platform_ascendc.h"

#ifndef ASCENDC_EXTERN_C
#ifdef ASCENDC_OP_TEST
#define ASCENDC_EXTERN_C extern "C"
#else
#define ASCENDC_EXTERN_C
#endif
#endif

namespace optiling {

struct AiCoreParams {
    uint64_t ubSize = 0;
    uint64_t blockDim = 0;
    uint64_t aicNum = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
};

class TilingBaseClass {
public:
    TilingBaseClass() = default;
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    virtual ~TilingBaseClass() = default;

    /// The whole tiling of one class: GRAPH_SUCCESS (done), GRAPH_PARAM_INVALID (not this class's
    /// case: try the next one) or a failure (stop).
    ge::graphStatus DoTiling() {
        ge::graphStatus (TilingBaseClass::*const steps[])() = {&TilingBaseClass::GetShapeAttrsInfo, &TilingBaseClass::GetPlatformInfo};
        for (auto step : steps) {
            ge::graphStatus st = (this->*step)();
            if (st != ge::GRAPH_SUCCESS) return st;
        }
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        ge::graphStatus (TilingBaseClass::*const rest[])() = {&TilingBaseClass::DoOpTiling, &TilingBaseClass::DoLibApiTiling,
                                                              &TilingBaseClass::GetWorkspaceSize, &TilingBaseClass::PostTiling};
        for (auto step : rest) {
            ge::graphStatus st = (this->*step)();
            if (st != ge::GRAPH_SUCCESS) return st;
        }
        context_->SetTilingKey(GetTilingKey());
        DumpTilingInfo();
        return ge::GRAPH_SUCCESS;
    }

    virtual void Reset(gert::TilingContext* context) { context_ = context; }

protected:
    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    /// Hook for a class to log its tiling; nothing by default.
    virtual void DumpTilingInfo() {}

    gert::TilingContext* context_ = nullptr;
    AiCoreParams aicoreParams_{};
    // Working fields the framework's classes share: derived classes fill them in DoOpTiling /
    // GetWorkspaceSize / PostTiling (the framework itself reads only GetTilingKey()).
    uint32_t blockDim_ = 0;
    uint64_t workspaceSize_ = 0;
    uint64_t tilingKey_ = 0;
};

}  // namespace optiling
