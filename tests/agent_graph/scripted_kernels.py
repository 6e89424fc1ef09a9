"""Model replies for the scripted-server tests: an fp32 AddCustom project (tests/agent_graph/data/add2),
written for these tests, in a correct version and with deliberate defects.

- ``reply(GOOD)``: correct; every core takes a whole number of 32-byte blocks, the last core the rest.
- ``HALLUCINATED``: the kernel calls ``AscendC::ElementwiseAdd``, which AscendC does not have.
- ``TILING_BUG``: the TilingFunc divides the elements by the cores rounding down, so when they do not
  split evenly (the "tail" case: 385 elements over 48 cores) the last elements are never written.
- ``CHEAT``: the kernel reads a file of expected outputs (the guards must reject it before building).
"""
from __future__ import annotations

from pathlib import Path

TASK = Path(__file__).resolve().parent / "data" / "add2" / "kgen-task.toml"
OP = "add_custom"

TILING_H = """#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);   // elements of x
TILING_DATA_FIELD_DEF(uint32_t, chunk);   // elements per core (the last core: what is left)
TILING_DATA_FIELD_DEF(uint32_t, tile);    // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}  // namespace optiling
"""

GOOD_CHUNK = """    uint32_t chunk = (blocks + cores - 1) / cores * 8;
    cores = (total + chunk - 1) / chunk;"""
BAD_CHUNK = """    uint32_t chunk = total / cores / 8 * 8;
    if (chunk == 0) chunk = 8;"""

HOST = """#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t blocks = (total + 7) / 8;    // 32-byte blocks of float
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > blocks) cores = blocks;
    if (cores == 0) cores = 1;
@CHUNK@
    AddCustomTilingData t;
    t.set_total(total);
    t.set_chunk(chunk);
    t.set_tile(1024);
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}  // namespace ops
"""

KERNEL = """#include "kernel_operator.h"

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t chunk, uint32_t tile)
    {
        uint32_t start = chunk * AscendC::GetBlockIdx();
        len_ = start >= total ? 0 : (total - start < chunk ? total - start : chunk);
        tile_ = tile;
        xGm_.SetGlobalBuffer((__gm__ float*)x + start, len_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + start, len_);
        zGm_.SetGlobalBuffer((__gm__ float*)z + start, len_);
        pipe_.InitBuffer(qx_, 1, tile_ * sizeof(float));
        pipe_.InitBuffer(qy_, 1, tile_ * sizeof(float));
        pipe_.InitBuffer(qz_, 1, tile_ * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < len_; off += tile_) {
            uint32_t n = len_ - off < tile_ ? len_ - off : tile_;
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            AscendC::LocalTensor<float> xl = qx_.AllocTensor<float>();
            AscendC::LocalTensor<float> yl = qy_.AllocTensor<float>();
            AscendC::DataCopyPad(xl, xGm_[off], cp, pad);
            AscendC::DataCopyPad(yl, yGm_[off], cp, pad);
            qx_.EnQue(xl);
            qy_.EnQue(yl);
            xl = qx_.DeQue<float>();
            yl = qy_.DeQue<float>();
            AscendC::LocalTensor<float> zl = qz_.AllocTensor<float>();
            @ADD@(zl, xl, yl, n);
            qz_.EnQue(zl);
            qx_.FreeTensor(xl);
            qy_.FreeTensor(yl);
            zl = qz_.DeQue<float>();
            AscendC::DataCopyPad(zGm_[off], zl, cp);
            qz_.FreeTensor(zl);
        }
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qx_, qy_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qz_;
    AscendC::GlobalTensor<float> xGm_, yGm_, zGm_;
    uint32_t len_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
@PRELUDE@    GET_TILING_DATA(t, tiling);
    KernelAdd op;
    op.Init(x, y, z, t.total, t.chunk, t.tile);
    op.Process();
}
"""

CHEAT_PRELUDE = """    FILE* f = fopen("expected_z.bin", "rb");   // reads the answer instead of computing it
    if (f) fclose(f);
"""


def files(chunk: str = GOOD_CHUNK, add: str = "AscendC::Add", prelude: str = "") -> dict[str, str]:
    return {f"op_host/{OP}_tiling.h": TILING_H,
            f"op_host/{OP}.cpp": HOST.replace("@CHUNK@", chunk),
            f"op_kernel/{OP}.cpp": KERNEL.replace("@ADD@", add).replace("@PRELUDE@", prelude)}


def reply(fs: dict[str, str], preface: str = "Here is the operator.") -> str:
    """A reply in NPUKernelBench's layout: a header line per file, then a fenced block."""
    parts = [preface, ""]
    for path, text in fs.items():
        parts += [f"================== {path} ==================", "```cpp", text.rstrip(), "```", ""]
    return "\n".join(parts)


GOOD = files()
HALLUCINATED = files(add="AscendC::ElementwiseAdd")
TILING_BUG = files(chunk=BAD_CHUNK)
CHEAT = files(prelude=CHEAT_PRELUDE)
UNPARSEABLE = "To add two tensors you can simply loop over the elements and sum them; I hope this helps!"
