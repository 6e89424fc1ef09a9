// TilingBaseClass working fields (kgen team test program): a derived class computes blockDim_,
// workspaceSize_ and tilingKey_ in its steps; DoTiling sets the context's tiling key from GetTilingKey().
#include <cstdio>
#include "tiling/tiling_base.h"

class RowTiling : public optiling::TilingBaseClass {
public:
    using TilingBaseClass::TilingBaseClass;

protected:
    bool IsCapable() override { return true; }
    ge::graphStatus GetPlatformInfo() override { aicoreParams_.blockDim = 40; return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetShapeAttrsInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoOpTiling() override {
        rows_ = 1000;
        blockDim_ = static_cast<uint32_t>((rows_ + 31) / 32);  // 32 rows per core -> 32 cores
        tilingKey_ = blockDim_ > aicoreParams_.blockDim ? 2 : 1;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return tilingKey_; }
    ge::graphStatus GetWorkspaceSize() override {
        workspaceSize_ = 16 * 1024 * 1024 + static_cast<uint64_t>(blockDim_) * 64;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus PostTiling() override {
        context_->SetBlockDim(blockDim_);
        context_->GetWorkspaceSizes(1)[0] = workspaceSize_;
        return ge::GRAPH_SUCCESS;
    }

private:
    uint64_t rows_ = 0;
};

int main() {
    gert::TilingContext ctx;
    RowTiling t(&ctx);
    int st = static_cast<int>(t.DoTiling());
    std::printf("status=%d key=%llu block=%u ws=%zu\n", st, static_cast<unsigned long long>(ctx.GetTilingKey()), ctx.GetBlockDim(),
                ctx.GetWorkspaceSizes(1)[0]);
    return 0;
}
