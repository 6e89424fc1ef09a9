// kgen host-side emulation -- gert::InferShapeContext and gert::InferDataTypeContext, as the
// functions registered with SetInferShape / SetInferDataType (or IMPL_OP_INFERSHAPE) receive them.
//
// Documented behaviour followed:
//  * InferShape: GetInputShape(i) gives the (origin) shape of input i, GetOutputShape(i) a mutable
//    shape the function fills; GetOptionalInputShape(ir) is nullptr for an absent optional input.
//  * InferDataType: GetInputDataType(i) reads, SetOutputDataType(i, dt) writes.
//  * Both are ExtendedKernelContexts (extended_kernel_context.h): GetComputeNodeInfo,
//    GetComputeNodeInputNum/OutputNum, GetInputDesc, GetIrInputInstanceInfo work on them too.
// The kgen harness runs InferShape (when registered) and compares its result with the output shapes the
// reference produced: a difference is reported as a warning naming the output.
//
// @api InferShapeContext InferDataTypeContext InferShapeRangeContext GetInputShapeRange GetOutputShapeRange GetOptionalInputShapeRange GetDynamicInputShapeRange GetInputShape GetOutputShape GetOptionalInputShape GetInputDataType GetOutputDataType SetOutputDataType GetInputTensor GetAttrs GetNodeName
#pragma once
#include <string>
#include <vector>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/range.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tensor.h"

namespace gert {

namespace kgen_detail {
/// Instances in order with their IR index (index order when the harness gave none) -> ComputeNodeInfo.
inline std::vector<int> ir_or_order(const std::vector<int>& ir, size_t n) {
    if (ir.size() == n) return ir;
    std::vector<int> v(n);
    for (size_t k = 0; k < n; ++k) v[k] = static_cast<int>(k);
    return v;
}
}  // namespace kgen_detail

class InferShapeContext : public ExtendedKernelContext {
public:
    InferShapeContext() : ExtendedKernelContext(&InferShapeContext::kgen_fill) {}
    const Shape* GetInputShape(size_t i) const { return i < kgen_in.size() ? &kgen_in[i] : nullptr; }
    const Shape* GetOptionalInputShape(size_t ir) const {
        for (size_t k = 0; k < kgen_in_ir.size(); ++k)
            if (static_cast<size_t>(kgen_in_ir[k]) == ir) return &kgen_in[k];
        return nullptr;
    }
    const Shape* GetDynamicInputShape(size_t ir, size_t rel) const {
        size_t n = 0;
        for (size_t k = 0; k < kgen_in_ir.size(); ++k)
            if (static_cast<size_t>(kgen_in_ir[k]) == ir && n++ == rel) return &kgen_in[k];
        return nullptr;
    }
    Shape* GetOutputShape(size_t i) { return i < kgen_out.size() ? &kgen_out[i] : nullptr; }
    const Tensor* GetInputTensor(size_t i) const { return i < kgen_tensors.size() ? kgen_tensors[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return kgen_attrs; }

    std::vector<Shape> kgen_in, kgen_out;
    std::vector<int> kgen_in_ir, kgen_out_ir;           // IR index per instance (kgen_out_ir optional)
    std::vector<const Tensor*> kgen_tensors;
    std::vector<CompileTimeTensorDesc> kgen_out_desc;   // optional: the outputs' dtype/format
    const RuntimeAttrs* kgen_attrs = nullptr;

private:
    static void kgen_fill(const ExtendedKernelContext* base, ComputeNodeInfo& info) {
        const auto* self = static_cast<const InferShapeContext*>(base);
        for (size_t k = 0; k < self->kgen_in.size(); ++k) {
            const Tensor* t = k < self->kgen_tensors.size() ? self->kgen_tensors[k] : nullptr;
            info.kgen_in_td.push_back(t ? CompileTimeTensorDesc(t->GetDataType(), t->GetStorageFormat()) : CompileTimeTensorDesc());
        }
        for (size_t k = 0; k < self->kgen_out.size(); ++k)
            info.kgen_out_td.push_back(k < self->kgen_out_desc.size() ? self->kgen_out_desc[k] : CompileTimeTensorDesc());
        kgen_set_ir(info, kgen_detail::ir_or_order(self->kgen_in_ir, self->kgen_in.size()),
                    kgen_detail::ir_or_order(self->kgen_out_ir, self->kgen_out.size()));
        info.kgen_attrs = self->kgen_attrs;
    }
};

class InferDataTypeContext : public ExtendedKernelContext {
public:
    InferDataTypeContext() : ExtendedKernelContext(&InferDataTypeContext::kgen_fill) {}
    ge::DataType GetInputDataType(size_t i) const { return i < kgen_in.size() ? kgen_in[i] : ge::DT_UNDEFINED; }
    ge::DataType GetOptionalInputDataType(size_t ir) const {
        for (size_t k = 0; k < kgen_in_ir.size(); ++k)
            if (static_cast<size_t>(kgen_in_ir[k]) == ir) return kgen_in[k];
        return ge::DT_UNDEFINED;
    }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t rel) const {
        size_t n = 0;
        for (size_t k = 0; k < kgen_in_ir.size(); ++k)
            if (static_cast<size_t>(kgen_in_ir[k]) == ir && n++ == rel) return kgen_in[k];
        return ge::DT_UNDEFINED;
    }
    ge::DataType GetOutputDataType(size_t i) const { return i < kgen_out.size() ? kgen_out[i] : ge::DT_UNDEFINED; }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType dt) {
        if (i >= kgen_out.size()) return ge::GRAPH_FAILED;
        kgen_out[i] = dt;
        return ge::GRAPH_SUCCESS;
    }
    const RuntimeAttrs* GetAttrs() const { return kgen_attrs; }

    std::vector<ge::DataType> kgen_in, kgen_out;
    std::vector<int> kgen_in_ir, kgen_out_ir;  // IR index per instance (kgen_out_ir optional)
    const RuntimeAttrs* kgen_attrs = nullptr;

private:
    static void kgen_fill(const ExtendedKernelContext* base, ComputeNodeInfo& info) {
        const auto* self = static_cast<const InferDataTypeContext*>(base);
        for (ge::DataType dt : self->kgen_in) info.kgen_in_td.push_back(CompileTimeTensorDesc(dt, ge::FORMAT_ND));
        for (ge::DataType dt : self->kgen_out) info.kgen_out_td.push_back(CompileTimeTensorDesc(dt, ge::FORMAT_ND));
        kgen_set_ir(info, kgen_detail::ir_or_order(self->kgen_in_ir, self->kgen_in.size()),
                    kgen_detail::ir_or_order(self->kgen_out_ir, self->kgen_out.size()));
        info.kgen_attrs = self->kgen_attrs;
    }
};

/// Shape-range inference (IMPL_OP_INFERSHAPE(...).InferShapeRange(f)): f reads each input's [min, max]
/// shapes with GetInputShapeRange(i) (GetOptional/GetDynamicInputShapeRange by IR position) and narrows
/// the outputs' ranges through GetOutputShapeRange(i); out-of-range indices give nullptr. The emulator
/// runs static shapes only, so the registered function is accepted and never called by the harness;
/// the context is complete so that such code compiles and can be driven by a host test.
class InferShapeRangeContext : public ExtendedKernelContext {
public:
    InferShapeRangeContext() : ExtendedKernelContext(&InferShapeRangeContext::kgen_fill) {}
    const Range<Shape>* GetInputShapeRange(size_t i) const { return i < kgen_in.size() ? &kgen_in[i] : nullptr; }
    const Range<Shape>* GetOptionalInputShapeRange(size_t ir) const { return GetDynamicInputShapeRange(ir, 0); }
    const Range<Shape>* GetDynamicInputShapeRange(size_t ir, size_t rel) const {
        auto order = kgen_detail::ir_or_order(kgen_in_ir, kgen_in.size());
        size_t n = 0;
        for (size_t k = 0; k < order.size(); ++k)
            if (static_cast<size_t>(order[k]) == ir && n++ == rel) return &kgen_in[k];
        return nullptr;
    }
    Range<Shape>* GetOutputShapeRange(size_t i) { return i < kgen_out.size() ? &kgen_out[i] : nullptr; }
    const Tensor* GetInputTensor(size_t i) const { return i < kgen_tensors.size() ? kgen_tensors[i] : nullptr; }

    std::vector<Range<Shape>> kgen_in, kgen_out;  // point at shapes the caller owns
    std::vector<int> kgen_in_ir;
    std::vector<const Tensor*> kgen_tensors;
    const RuntimeAttrs* kgen_attrs = nullptr;

private:
    static void kgen_fill(const ExtendedKernelContext* base, ComputeNodeInfo& info) {
        const auto* self = static_cast<const InferShapeRangeContext*>(base);
        info.kgen_in_td.resize(self->kgen_in.size());
        info.kgen_out_td.resize(self->kgen_out.size());
        kgen_set_ir(info, kgen_detail::ir_or_order(self->kgen_in_ir, self->kgen_in.size()),
                    kgen_detail::ir_or_order({}, self->kgen_out.size()));
        info.kgen_attrs = self->kgen_attrs;
    }
};

using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
using InferShapeRangeKernelFunc = ge::graphStatus (*)(InferShapeRangeContext*);

}  // namespace gert
