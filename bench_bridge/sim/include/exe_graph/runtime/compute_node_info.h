// kgen host-side emulation -- gert::ComputeNodeInfo (TilingContext::GetComputeNodeInfo()): the node's
// IR-level view of its inputs and outputs.
//
// Documented behaviour followed:
//  * An operator's IR inputs are the inputs its OpDef declares, in order. A REQUIRED or OPTIONAL input
//    is one instance (an absent optional one: zero instances); a DYNAMIC input (tensor list) is as many
//    instances as the list holds. GetInputInstanceInfo(ir) gives, for IR input `ir`, the index of its
//    first instance among the present inputs (GetInstanceStart) and how many there are (GetInstanceNum);
//    GetOutputInstanceInfo does the same for outputs. Out-of-range IR indices give nullptr.
//  * GetInputsNum / GetOutputsNum count instances; GetIrInputsNum / GetIrOutputsNum count IR entries.
//  * GetInputTdInfo(i) / GetOutputTdInfo(i) describe instance i (dtype, formats), as GetInputDesc does.
// Emulator rule: the IR counts are those of the highest IR index present plus one (an OPTIONAL input
// absent at the end of the OpDef is therefore not counted; its GetInputInstanceInfo is nullptr).
//
// @api ComputeNodeInfo AnchorInstanceInfo GetComputeNodeInfo GetInputInstanceInfo GetOutputInstanceInfo GetInstanceStart GetInstanceNum GetIrInputsNum GetIrOutputsNum GetInputsNum GetOutputsNum GetInputTdInfo GetOutputTdInfo
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tensor.h"

namespace gert {

class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(uint32_t start, uint32_t num) : start_(start), num_(num) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return num_; }
    void SetInstanceStart(uint32_t s) { start_ = s; }
    void SetInstantiationNum(uint32_t n) { num_ = n; }

private:
    uint32_t start_ = 0;
    uint32_t num_ = 0;
};

class ComputeNodeInfo {
public:
    const char* GetNodeName() const { return kgen_name.c_str(); }
    const char* GetNodeType() const { return kgen_type.c_str(); }
    size_t GetIrInputsNum() const { return kgen_in_ir.size(); }
    size_t GetIrOutputsNum() const { return kgen_out_ir.size(); }
    size_t GetInputsNum() const { return kgen_in_td.size(); }
    size_t GetOutputsNum() const { return kgen_out_td.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return ir < kgen_in_ir.size() ? &kgen_in_ir[ir] : nullptr; }
    const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir) const { return ir < kgen_out_ir.size() ? &kgen_out_ir[ir] : nullptr; }
    const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const { return i < kgen_in_td.size() ? &kgen_in_td[i] : nullptr; }
    const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const { return i < kgen_out_td.size() ? &kgen_out_td[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return kgen_attrs; }

    /// Group instances (in order) by their IR index: the kgen harness's inputs carry it.
    static std::vector<AnchorInstanceInfo> kgen_group(const std::vector<int>& ir_of_instance) {
        int n_ir = 0;
        for (int ir : ir_of_instance) n_ir = ir + 1 > n_ir ? ir + 1 : n_ir;
        std::vector<AnchorInstanceInfo> out(static_cast<size_t>(n_ir));
        std::vector<bool> seen(out.size(), false);
        for (size_t k = 0; k < ir_of_instance.size(); ++k) {
            auto& a = out[static_cast<size_t>(ir_of_instance[k])];
            if (!seen[static_cast<size_t>(ir_of_instance[k])]) {
                a.SetInstanceStart(static_cast<uint32_t>(k));
                seen[static_cast<size_t>(ir_of_instance[k])] = true;
            }
            a.SetInstantiationNum(static_cast<uint32_t>(a.GetInstanceNum() + 1));
        }
        // an absent IR entry starts where the next present one would
        uint32_t next = static_cast<uint32_t>(ir_of_instance.size());
        for (size_t ir = out.size(); ir-- > 0;) {
            if (!seen[ir]) out[ir].SetInstanceStart(next);
            else next = static_cast<uint32_t>(out[ir].GetInstanceStart());
        }
        return out;
    }

    std::string kgen_name, kgen_type;
    std::vector<AnchorInstanceInfo> kgen_in_ir, kgen_out_ir;
    std::vector<CompileTimeTensorDesc> kgen_in_td, kgen_out_td;
    const RuntimeAttrs* kgen_attrs = nullptr;
};

}  // namespace gert
