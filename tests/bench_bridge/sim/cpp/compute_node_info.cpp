// TilingContext::GetComputeNodeInfo (kgen team test program): IR inputs x (required), xs (dynamic,
// 3 tensors), bias (optional, absent), y (required), and outputs out (required), outs (dynamic, 2).
// Prints every instance count/start the TilingFunc would read.
#include <cstdio>
#include "register/op_def_registry.h"

int main() {
    gert::TilingContext ctx;
    ctx.kgen_node_name = "Demo";
    ctx.kgen_node_type = "DemoType";
    int in_ir[] = {0, 1, 1, 1, 3};
    ge::DataType in_dt[] = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_INT32};
    for (int k = 0; k < 5; ++k) {
        kgen::host::TensorSlot s;
        s.ir_index = in_ir[k];
        s.desc = gert::CompileTimeTensorDesc(in_dt[k], ge::FORMAT_ND);
        ctx.kgen_inputs.push_back(s);
    }
    int out_ir[] = {0, 1, 1};
    for (int k = 0; k < 3; ++k) {
        kgen::host::TensorSlot s;
        s.ir_index = out_ir[k];
        s.desc = gert::CompileTimeTensorDesc(ge::DT_FLOAT, ge::FORMAT_ND);
        ctx.kgen_outputs.push_back(s);
    }
    const gert::ComputeNodeInfo* info = ctx.GetComputeNodeInfo();
    std::printf("name=%s type=%s ir_in=%zu ir_out=%zu in=%zu out=%zu\n", info->GetNodeName(), info->GetNodeType(),
                info->GetIrInputsNum(), info->GetIrOutputsNum(), info->GetInputsNum(), info->GetOutputsNum());
    for (size_t ir = 0; ir < info->GetIrInputsNum(); ++ir) {
        const gert::AnchorInstanceInfo* a = info->GetInputInstanceInfo(ir);
        std::printf("in%zu start=%zu num=%zu\n", ir, a->GetInstanceStart(), a->GetInstanceNum());
    }
    for (size_t ir = 0; ir < info->GetIrOutputsNum(); ++ir) {
        const gert::AnchorInstanceInfo* a = info->GetOutputInstanceInfo(ir);
        std::printf("out%zu start=%zu num=%zu\n", ir, a->GetInstanceStart(), a->GetInstanceNum());
    }
    std::printf("td2=%d td4=%d null_ir=%d null_td=%d attrs=%d\n", int(info->GetInputTdInfo(2)->GetDataType()),
                int(info->GetInputTdInfo(4)->GetDataType()), info->GetInputInstanceInfo(4) == nullptr,
                info->GetInputTdInfo(5) == nullptr, info->GetAttrs() == ctx.GetAttrs());
    return 0;
}
