// kgen host-side emulation -- IMPL_OP / IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE registration.
//
// Documented behaviour followed: an operator's runtime functions can be registered apart from its
// OpDef, by operator type: .Tiling(TilingFunc), .TilingParse<CompileInfo>(ParseFunc) (run once before
// tiling; its CompileInfo object is what TilingContext::GetCompileInfo<T>() returns), .InferShape(f),
// .InferDataType(f), .InferShapeRange(f), .TilingInputsDataDependency({idx...}) / .InputsDataDependency
// (inputs whose values the host may read). Registrations made in the OpDef (SetTiling, SetInferShape)
// take precedence over these.
//
// @api IMPL_OP IMPL_OP_OPTILING IMPL_OP_INFERSHAPE OpImplRegisterV2 Tiling TilingParse InferShape InferDataType InferShapeRange TilingInputsDataDependency InputsDataDependency
#pragma once
#include <initializer_list>
#include <memory>
#include <string>

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "kgen_sim/host_registry.h"

namespace gert {

class OpImplRegisterV2 {
public:
    explicit OpImplRegisterV2(const char* op_type) : op_(op_type) { kgen::host::op_impls()[op_]; }
    OpImplRegisterV2& Tiling(TilingKernelFunc f, size_t = 0) { impl().tiling = f; return *this; }
    template <typename CompileInfoT, typename F>
    OpImplRegisterV2& TilingParse(F f) {
        impl().make_compile_info = [] { return std::shared_ptr<void>(new CompileInfoT(), [](void* p) { delete static_cast<CompileInfoT*>(p); }); };
        impl().tiling_parse = [f](TilingParseContext* c) { return static_cast<ge::graphStatus>(f(c)); };
        return *this;
    }
    template <typename F>
    OpImplRegisterV2& TilingParse(F f) {
        impl().tiling_parse = [f](TilingParseContext* c) { return static_cast<ge::graphStatus>(f(c)); };
        return *this;
    }
    OpImplRegisterV2& InferShape(InferShapeKernelFunc f) { impl().infer_shape = f; return *this; }
    OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f) { impl().infer_dtype = f; return *this; }
    OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc) { return *this; }
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> idx) {
        for (int32_t i : idx) impl().value_depend_inputs.push_back(i);
        return *this;
    }
    template <typename... A>
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> idx, A&&...) { return TilingInputsDataDependency(idx); }
    OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> idx) { return TilingInputsDataDependency(idx); }
    template <typename... A>
    OpImplRegisterV2& PrivateAttr(A&&...) { return *this; }
    OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }

private:
    kgen::host::OpImpl& impl() { return kgen::host::op_impls()[op_]; }
    std::string op_;
};

}  // namespace gert

#define KGEN_IMPL_CAT2(a, b) a##b
#define KGEN_IMPL_CAT(a, b) KGEN_IMPL_CAT2(a, b)
#define IMPL_OP(op_type) \
    static ::gert::OpImplRegisterV2 KGEN_IMPL_CAT(kgen_impl_op_##op_type##_, __COUNTER__) = ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
