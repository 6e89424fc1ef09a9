// kgen host-side emulation -- gert::InferShapeContext and gert::InferDataTypeContext, as the
// functions registered with SetInferShape / SetInferDataType (or IMPL_OP_INFERSHAPE) receive them.
//
// Documented behaviour followed:
//  * InferShape: GetInputShape(i) gives the (origin) shape of input i, GetOutputShape(i) a mutable
//    shape the function fills; GetOptionalInputShape(ir) is nullptr for an absent optional input.
//  * InferDataType: GetInputDataType(i) reads, SetOutputDataType(i, dt) writes.
// The kgen harness runs InferShape (when registered) and compares its result with the output shapes the
// reference produced: a difference is reported as a warning naming the output.
//
// @api InferShapeContext InferDataTypeContext InferShapeRangeContext GetInputShape GetOutputShape GetOptionalInputShape GetInputDataType GetOutputDataType SetOutputDataType GetInputTensor GetAttrs GetNodeName
#pragma once
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tensor.h"

namespace gert {

class InferShapeContext {
public:
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
    const char* GetNodeName() const { return kgen_node_name.c_str(); }
    const char* GetNodeType() const { return kgen_node_type.c_str(); }
    size_t GetComputeNodeInputNum() const { return kgen_in.size(); }
    size_t GetComputeNodeOutputNum() const { return kgen_out.size(); }

    std::vector<Shape> kgen_in, kgen_out;
    std::vector<int> kgen_in_ir;
    std::vector<const Tensor*> kgen_tensors;
    const RuntimeAttrs* kgen_attrs = nullptr;
    std::string kgen_node_name, kgen_node_type;
};

class InferDataTypeContext {
public:
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
    const char* GetNodeName() const { return kgen_node_name.c_str(); }
    const char* GetNodeType() const { return kgen_node_type.c_str(); }

    std::vector<ge::DataType> kgen_in, kgen_out;
    std::vector<int> kgen_in_ir;
    const RuntimeAttrs* kgen_attrs = nullptr;
    std::string kgen_node_name, kgen_node_type;
};

/// Shape-range inference is accepted at registration and never called by the emulator.
class InferShapeRangeContext {
public:
    const char* GetNodeName() const { return ""; }
};

using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
using InferShapeRangeKernelFunc = ge::graphStatus (*)(InferShapeRangeContext*);

}  // namespace gert
