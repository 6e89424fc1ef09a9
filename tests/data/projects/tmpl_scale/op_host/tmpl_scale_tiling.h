// TmplScale tiling (kgen team test project): y = x * k, with k chosen by the tiling class the
// registry picks: the priority-10 class declines inputs of fewer than 1024 elements (IsCapable false),
// the priority-20 class takes the rest. Each class writes its own tiling key and factor.
#ifndef TMPL_SCALE_TILING_H
#define TMPL_SCALE_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_base.h"
#include "tiling/tiling_type.h"
#include "tiling/tiling_templates_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TmplScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TmplScale, TmplScaleTilingData)

class TmplScaleTilingBase : public TilingBaseClass {
public:
    explicit TmplScaleTilingBase(gert::TilingContext* context) : TilingBaseClass(context) {}

protected:
    ge::graphStatus GetShapeAttrsInfo() override {
        total_ = static_cast<uint32_t>(context_->GetInputShape(0)->GetStorageShape().GetShapeSize());
        return total_ == 0 ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
    }
    ge::graphStatus GetPlatformInfo() override {
        auto platform = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
        aicoreParams_.blockDim = platform.GetCoreNumAiv();
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, aicoreParams_.ubSize);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoOpTiling() override {
        uint32_t chunks = (total_ + 255) / 256;
        blocks_ = chunks < aicoreParams_.blockDim ? chunks : static_cast<uint32_t>(aicoreParams_.blockDim);
        perCore_ = (chunks + blocks_ - 1) / blocks_ * 256;
        blocks_ = (total_ + perCore_ - 1) / perCore_;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetWorkspaceSize() override {
        context_->GetWorkspaceSizes(1)[0] = 0;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus PostTiling() override {
        TmplScaleTilingData td;
        td.set_total(total_);
        td.set_perCore(perCore_);
        td.set_factor(Factor());
        td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
        context_->SetBlockDim(blocks_);
        return ge::GRAPH_SUCCESS;
    }
    virtual float Factor() const = 0;
    uint32_t total_ = 0, perCore_ = 0, blocks_ = 1;
};

class TmplScaleLarge : public TmplScaleTilingBase {
public:
    explicit TmplScaleLarge(gert::TilingContext* context) : TmplScaleTilingBase(context) {}

protected:
    bool IsCapable() override { return total_ >= 1024; }
    uint64_t GetTilingKey() const override { return 2; }
    float Factor() const override { return 3.0f; }
};

class TmplScaleSmall : public TmplScaleTilingBase {
public:
    explicit TmplScaleSmall(gert::TilingContext* context) : TmplScaleTilingBase(context) {}

protected:
    bool IsCapable() override { return true; }
    uint64_t GetTilingKey() const override { return 1; }
    float Factor() const override { return -0.5f; }
};
}  // namespace optiling
#endif
