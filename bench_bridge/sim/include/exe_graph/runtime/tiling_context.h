// kgen host-side emulation -- gert::TilingContext (what a TilingFunc receives), gert::TilingData (the
// raw tiling buffer), gert::TilingParseContext.
//
// Documented behaviour followed:
//  * GetInputShape / GetInputDesc / GetInputTensor index the inputs present in this call, in OpDef order;
//    GetOptionalInput* index by the OpDef (IR) position and give nullptr for an absent optional input;
//    out-of-range indices give nullptr.
//  * SetBlockDim (SetSimdNumBlocks) sets how many blocks the kernel launch runs; SetTilingKey picks the
//    kernel branch (TILING_KEY_IS); GetWorkspaceSizes(n) returns n size_t slots the TilingFunc fills
//    with workspace byte counts (the framework allocates their sum and passes it as `workspace`).
//  * GetRawTilingData(): GetData/GetCapacity give the buffer SaveToBuffer writes into; SetDataSize
//    records how many bytes the kernel receives. GetTilingData<T>() (standard C++ struct tiling) gives
//    a zeroed T inside that buffer and sets the data size to sizeof(T).
//  * GetPlatformInfo() feeds platform_ascendc::PlatformAscendC.
//  * TilingContext is an ExtendedKernelContext (extended_kernel_context.h): GetComputeNodeInfo,
//    GetComputeNodeInputNum/OutputNum, GetIrInputInstanceInfo, GetNodeName/Type come from there.
// Emulator checks: data sizes above the capacity and a block dim of 0 are reported by the harness.
// Assumption: the raw tiling buffer capacity is 64 KiB (not confirmed in public docs).
//
// @api TilingContext TilingData TilingParseContext GetInputShape GetOutputShape GetOptionalInputShape GetDynamicInputShape GetInputDesc GetOutputDesc GetOptionalInputDesc GetDynamicInputDesc GetInputTensor GetOptionalInputTensor GetDynamicInputTensor GetAttrs SetBlockDim GetBlockDim SetSimdNumBlocks SetTilingKey GetTilingKey GetRawTilingData GetTilingData GetWorkspaceSizes GetWorkspaceNum GetPlatformInfo GetNodeName GetNodeType GetCompileInfo GetCompiledInfo SetScheduleMode GetDeterministic GetComputeNodeInputNum GetComputeNodeOutputNum GetData GetCapacity GetDataSize SetDataSize Append
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/types.h"
#include "tiling/platform/platform_ascendc.h"

namespace kgen {
namespace host {
inline constexpr size_t TILING_CAPACITY = 64 * 1024;
inline constexpr size_t MAX_WORKSPACE_SLOTS = 16;

/// One input or output instance as the contexts describe it.
struct TensorSlot {
    std::string name;
    int ir_index = 0;
    gert::StorageShape shape;
    gert::CompileTimeTensorDesc desc;
    gert::Tensor tensor;
};
}  // namespace host
}  // namespace kgen

namespace gert {

class TilingData {
public:
    TilingData() : buf_(kgen::host::TILING_CAPACITY, 0) {}
    void* GetData() { return buf_.data(); }
    const void* GetData() const { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    size_t GetDataSize() const { return size_; }
    ge::graphStatus SetDataSize(size_t n) {
        if (n > buf_.size()) {
            kgen::host::host_fail("tiling-overflow", "TilingData::SetDataSize(%zu) exceeds the tiling buffer capacity of %zu bytes", n,
                                  buf_.size());
        }
        size_ = n;
        return ge::GRAPH_SUCCESS;
    }
    /// Append one value after the current data.
    template <typename T>
    ge::graphStatus Append(const T& v) {
        if (size_ + sizeof(T) > buf_.size())
            kgen::host::host_fail("tiling-overflow", "TilingData::Append: %zu + %zu bytes exceed the capacity of %zu bytes", size_,
                                  sizeof(T), buf_.size());
        std::memcpy(buf_.data() + size_, &v, sizeof(T));
        size_ += sizeof(T);
        return ge::GRAPH_SUCCESS;
    }

private:
    std::vector<uint8_t> buf_;
    size_t size_ = 0;
};

class TilingContext : public ExtendedKernelContext {
public:
    TilingContext() : ExtendedKernelContext(&TilingContext::kgen_fill) {}

    // ---- inputs/outputs -------------------------------------------------------------------
    const StorageShape* GetInputShape(size_t i) const { return i < kgen_inputs.size() ? &kgen_inputs[i].shape : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < kgen_outputs.size() ? &kgen_outputs[i].shape : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < kgen_inputs.size() ? &kgen_inputs[i].desc : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < kgen_outputs.size() ? &kgen_outputs[i].desc : nullptr; }
    const Tensor* GetInputTensor(size_t i) const { return i < kgen_inputs.size() ? &kgen_inputs[i].tensor : nullptr; }
    const Tensor* GetOutputTensor(size_t i) const { return i < kgen_outputs.size() ? &kgen_outputs[i].tensor : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t ir) const { auto* s = by_ir(ir); return s ? &s->shape : nullptr; }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { auto* s = by_ir(ir); return s ? &s->desc : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t ir) const { auto* s = by_ir(ir); return s ? &s->tensor : nullptr; }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t rel) const { auto* s = dyn(ir, rel); return s ? &s->shape : nullptr; }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t rel) const { auto* s = dyn(ir, rel); return s ? &s->desc : nullptr; }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const { auto* s = dyn(ir, rel); return s ? &s->tensor : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return &kgen_attrs; }

    // ---- what the TilingFunc decides --------------------------------------------------------
    ge::graphStatus SetBlockDim(uint32_t n) { kgen_block_dim = n; kgen_block_dim_set = true; return ge::GRAPH_SUCCESS; }
    ge::graphStatus SetSimdNumBlocks(uint32_t n) { return SetBlockDim(n); }
    uint32_t GetBlockDim() const { return kgen_block_dim; }
    ge::graphStatus SetTilingKey(uint64_t k) { kgen_tiling_key = k; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const { return kgen_tiling_key; }
    TilingData* GetRawTilingData() { return &kgen_tiling; }
    template <typename T>
    T* GetTilingData() {
        static_assert(std::is_trivially_copyable<T>::value, "GetTilingData<T>: T must be a plain (trivially copyable) struct");
        std::memset(kgen_tiling.GetData(), 0, sizeof(T));
        kgen_tiling.SetDataSize(sizeof(T));
        return static_cast<T*>(kgen_tiling.GetData());
    }
    size_t* GetWorkspaceSizes(size_t num) {
        if (num > kgen::host::MAX_WORKSPACE_SLOTS)
            kgen::host::host_fail("workspace-slots", "GetWorkspaceSizes(%zu): the emulator supports at most %zu workspace blocks", num,
                                  kgen::host::MAX_WORKSPACE_SLOTS);
        if (num > kgen_workspace_num) kgen_workspace_num = num;
        return kgen_workspace;
    }
    size_t GetWorkspaceNum() const { return kgen_workspace_num; }
    fe::PlatFormInfos* GetPlatformInfo() const { return &kgen_platform; }
    template <typename T>
    const T* GetCompileInfo() const { return static_cast<const T*>(kgen_compile_info); }
    const void* GetCompileInfo() const { return kgen_compile_info; }
    ge::graphStatus SetScheduleMode(uint32_t m) { kgen_schedule_mode = m; return ge::GRAPH_SUCCESS; }
    int32_t GetDeterministic() const { return 0; }
    ge::graphStatus SetNeedAtomic(bool) { return ge::GRAPH_SUCCESS; }

    // ---- filled by the kgen harness ---------------------------------------------------------
    std::vector<kgen::host::TensorSlot> kgen_inputs, kgen_outputs;
    std::vector<int> kgen_input_ir;  // IR index of each present input
    RuntimeAttrs kgen_attrs;
    uint32_t kgen_block_dim = 0;
    bool kgen_block_dim_set = false;
    uint64_t kgen_tiling_key = 0;
    uint32_t kgen_schedule_mode = 0;
    TilingData kgen_tiling;
    size_t kgen_workspace[kgen::host::MAX_WORKSPACE_SLOTS] = {};
    size_t kgen_workspace_num = 0;
    mutable fe::PlatFormInfos kgen_platform;
    const void* kgen_compile_info = nullptr;

private:
    /// The node's IR view (compute_node_info.h), built from the inputs/outputs of this call.
    static void kgen_fill(const ExtendedKernelContext* base, ComputeNodeInfo& info) {
        const auto* self = static_cast<const TilingContext*>(base);
        std::vector<int> in_ir, out_ir;
        for (const auto& s : self->kgen_inputs) { in_ir.push_back(s.ir_index); info.kgen_in_td.push_back(s.desc); }
        for (size_t k = 0; k < self->kgen_outputs.size(); ++k) {
            // outputs without an IR index (older harness jobs) are one instance each, in order
            out_ir.push_back(self->kgen_outputs[k].ir_index >= 0 ? self->kgen_outputs[k].ir_index : static_cast<int>(k));
            info.kgen_out_td.push_back(self->kgen_outputs[k].desc);
        }
        kgen_set_ir(info, in_ir, out_ir);
        info.kgen_attrs = &self->kgen_attrs;
    }
    const kgen::host::TensorSlot* by_ir(size_t ir) const {
        for (const auto& s : kgen_inputs)
            if (static_cast<size_t>(s.ir_index) == ir) return &s;
        return nullptr;
    }
    const kgen::host::TensorSlot* dyn(size_t ir, size_t rel) const {
        size_t k = 0;
        for (const auto& s : kgen_inputs)
            if (static_cast<size_t>(s.ir_index) == ir && k++ == rel) return &s;
        return nullptr;
    }
};

class TilingParseContext : public ExtendedKernelContext {
public:
    fe::PlatFormInfos* GetPlatformInfo() const { return &kgen_platform; }
    template <typename T>
    T* GetCompiledInfo() const { return static_cast<T*>(kgen_compile_info); }
    const char* GetCompiledJson() const { return "{}"; }

    mutable fe::PlatFormInfos kgen_platform;
    void* kgen_compile_info = nullptr;
};

using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);

}  // namespace gert
