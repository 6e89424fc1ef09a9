// kgen host-side emulation -- gert::ExtendedKernelContext: the common base of the contexts the framework
// hands to host functions (TilingContext, InferShapeContext, InferDataTypeContext, TilingParseContext).
//
// Documented behaviour followed:
//  * Every such context is an ExtendedKernelContext, so op_host code may view one through the base
//    (operator libraries do `reinterpret_cast<gert::ExtendedKernelContext*>(context)` inside InferShape)
//    and ask for the node's IR view: GetComputeNodeInfo(), GetComputeNodeInputNum() /
//    GetComputeNodeOutputNum() (instance counts), GetIrInputInstanceInfo(ir) / GetIrOutputInstanceInfo(ir),
//    GetInputDesc(i) / GetOutputDesc(i) (instance i's dtype and format, nullptr when out of range),
//    GetOptionalInputDesc(ir) / GetDynamicInputDesc(ir, k) (by IR position), GetAttrs(), GetNodeName(),
//    GetNodeType(), GetKernelName() / GetKernelType().
// Emulator: the base is the first and only base of every context and has no virtual functions, so a
// reinterpret_cast from a derived context pointer lands on it. Each derived context installs a builder
// that fills the ComputeNodeInfo from what the kgen harness put into it (see compute_node_info.h for
// the instance grouping rule). Derived contexts may define same-named accessors with the same meaning.
//
// @api ExtendedKernelContext GetComputeNodeInfo GetComputeNodeInputNum GetComputeNodeOutputNum GetIrInputInstanceInfo GetIrOutputInstanceInfo GetInputDesc GetOutputDesc GetOptionalInputDesc GetDynamicInputDesc GetAttrs GetNodeName GetNodeType GetKernelName GetKernelType
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "exe_graph/runtime/compute_node_info.h"

namespace gert {

class ExtendedKernelContext {
public:
    const ComputeNodeInfo* GetComputeNodeInfo() const {
        kgen_node_info = ComputeNodeInfo();
        kgen_node_info.kgen_name = kgen_node_name;
        kgen_node_info.kgen_type = kgen_node_type;
        if (kgen_fill_info) kgen_fill_info(this, kgen_node_info);
        return &kgen_node_info;
    }
    size_t GetComputeNodeInputNum() const { return GetComputeNodeInfo()->GetInputsNum(); }
    size_t GetComputeNodeOutputNum() const { return GetComputeNodeInfo()->GetOutputsNum(); }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const { return GetComputeNodeInfo()->GetInputInstanceInfo(ir); }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const { return GetComputeNodeInfo()->GetOutputInstanceInfo(ir); }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return GetComputeNodeInfo()->GetInputTdInfo(i); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return GetComputeNodeInfo()->GetOutputTdInfo(i); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
        const ComputeNodeInfo* info = GetComputeNodeInfo();
        const AnchorInstanceInfo* a = info->GetInputInstanceInfo(ir);
        if (a == nullptr || k >= a->GetInstanceNum()) return nullptr;
        return info->GetInputTdInfo(a->GetInstanceStart() + k);
    }
    const RuntimeAttrs* GetAttrs() const { return GetComputeNodeInfo()->GetAttrs(); }
    const char* GetNodeName() const { return kgen_node_name.c_str(); }
    const char* GetNodeType() const { return kgen_node_type.c_str(); }
    const char* GetKernelName() const { return kgen_node_name.c_str(); }
    const char* GetKernelType() const { return kgen_node_type.c_str(); }

    // ---- filled by the kgen harness ---------------------------------------------------------
    std::string kgen_node_name, kgen_node_type;

protected:
    using FillInfo = void (*)(const ExtendedKernelContext*, ComputeNodeInfo&);
    ExtendedKernelContext() = default;
    explicit ExtendedKernelContext(FillInfo fill) : kgen_fill_info(fill) {}

    /// IR index of every instance, then the ComputeNodeInfo groups (shared by the derived builders).
    static void kgen_set_ir(ComputeNodeInfo& info, const std::vector<int>& in_ir, const std::vector<int>& out_ir) {
        info.kgen_in_ir = ComputeNodeInfo::kgen_group(in_ir);
        info.kgen_out_ir = ComputeNodeInfo::kgen_group(out_ir);
    }

private:
    FillInfo kgen_fill_info = nullptr;
    mutable ComputeNodeInfo kgen_node_info;
};

}  // namespace gert
