// kgen host-side emulation -- operator prototype registration (register/op_def_registry.h).
//
// Documented behaviour followed:
//  * class X : public OpDef { X(const char* name) : OpDef(name) { Input(..)...; Output(..)...; Attr(..)...;
//    AICore().SetTiling(f).AddConfig("ascend910b"); } }; OP_ADD(X);
//  * Inputs and outputs are registered in kernel-entry order (inputs, then outputs; the kernel entry
//    takes them, then workspace, then tiling).
//  * ParamType: REQUIRED, OPTIONAL, DYNAMIC. DataType({...}) and Format({...}) list, position by
//    position, the supported combinations: entry k of every input/output forms combination k, so all
//    lists must have the same length. DataTypeList / FormatList give types usable with every
//    combination (expanded against the others). UnknownShapeFormat is a deprecated alias of Format.
//    Follow(name) copies another input's dtype/format lists.
//  * Attr(name) with AttrType(REQUIRED|OPTIONAL) and a type: Bool/Float/Int/String/ListBool/ListFloat/
//    ListInt/ListListInt, each optionally with a default value (required for OPTIONAL attributes).
//  * AddConfig(soc[, OpAICoreConfig]) lists the SoCs; a config may redefine the inputs/outputs for that
//    SoC. SetInferShape / SetInferDataType register the shape and dtype inference functions.
//  * The kernel entry of operator type "AddCustom" is named add_custom (upper-camel to snake case).
// Emulator: OP_ADD records a factory; the kgen project harness builds the OpDef, reports its
// combinations and checks the lists have equal lengths.
//
// @api OpDef OpParamDef OpAttrDef OpAICoreDef OpAICoreConfig OP_ADD Input Output Attr ParamType DataType DataTypeList Format FormatList UnknownShapeFormat ValueDepend Follow AttrType Bool Float Int String ListBool ListFloat ListInt ListListInt SetInferShape SetInferDataType SetInferShapeRange AICore SetTiling AddConfig SetCheckSupport SetOpSelectFormat
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "graph/utils/type_utils.h"
#include "kgen_sim/host_registry.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace ge {
/// Graph-level tensor description (graph/tensor.h in CANN): shape, dtype, format.
class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(const Shape& shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT) : shape_(shape), format_(format), dtype_(dt) {}
    Shape GetShape() const { return shape_; }
    Shape GetOriginShape() const { return shape_; }
    void SetShape(const Shape& s) { shape_ = s; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dt) { dtype_ = dt; }
    Format GetFormat() const { return format_; }
    Format GetOriginFormat() const { return format_; }
    void SetFormat(Format f) { format_ = f; }

private:
    Shape shape_;
    Format format_ = FORMAT_ND;
    DataType dtype_ = DT_FLOAT;
};

/// The graph operator handed to SetCheckSupport / SetOpSelectFormat callbacks. kgen registers those
/// callbacks (they compile) but never calls them: it runs the cases' static shapes with the op's
/// tiling, as the kernel launch after a successful check would. An Operator built here holds nothing:
/// GetInputDescByName / GetOutputDescByName give an empty TensorDesc and GetAttr returns GRAPH_FAILED.
class Operator {
public:
    AscendString GetName() const { return AscendString(""); }
    TensorDesc GetInputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetInputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(uint32_t) const { return TensorDesc(); }
    size_t GetInputsSize() const { return 0; }
    size_t GetOutputsSize() const { return 0; }
    template <typename V>
    graphStatus GetAttr(const char*, V&) const { return GRAPH_FAILED; }
};
}  // namespace ge

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FollowType { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class DependScope { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class CommentSection { BRIEF = 0, CONSTRAINTS, RESTRICTIONS, SEE, THIRDPARTYFWKCOMPAT, SECTION_MAX };
enum class FormatCheckOption { DEFAULT = 0, STRICT, MAX };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

class OpParamDef {
public:
    explicit OpParamDef(const char* name) : name_(name ? name : "") {}
    OpParamDef& ParamType(Option t) { param_type_ = t; return *this; }
    OpParamDef& DataType(std::vector<ge::DataType> types) { dtypes_ = std::move(types); dtype_is_list_ = false; return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType> types) { dtypes_ = std::move(types); dtype_is_list_ = true; return *this; }
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType>) { return *this; }
    OpParamDef& Format(std::vector<ge::Format> formats) { formats_ = std::move(formats); format_is_list_ = false; return *this; }
    OpParamDef& FormatList(std::vector<ge::Format> formats) { formats_ = std::move(formats); format_is_list_ = true; return *this; }
    OpParamDef& FormatForBinQuery(std::vector<ge::Format>) { return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats) { if (formats_.empty()) formats_ = std::move(formats); return *this; }
    OpParamDef& ValueDepend(Option v) { value_depend_ = v; return *this; }
    OpParamDef& ValueDepend(Option v, DependScope) { value_depend_ = v; return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& Version(uint32_t) { return *this; }
    template <typename T>
    OpParamDef& InitValue(const T&) { return *this; }
    /// The output's shape is known only once the kernel has run (NonZero, MaskedSelect): the kernel gets one
    /// more GM argument after the outputs, where it writes the shape (see kgen_sim/host_harness.h).
    OpParamDef& OutputShapeDependOnCompute() { shape_depends_on_compute_ = true; return *this; }
    OpParamDef& Follow(const char* other) { follow_ = other ? other : ""; return *this; }
    OpParamDef& Follow(const char* other, FollowType) { return Follow(other); }
    OpParamDef& Comment(const char*) { return *this; }

    // ---- read by the kgen harness -----------------------------------------------------------
    const std::string& kgen_name() const { return name_; }
    Option kgen_param_type() const { return param_type_; }
    const std::vector<ge::DataType>& kgen_dtypes() const { return dtypes_; }
    const std::vector<ge::Format>& kgen_formats() const { return formats_; }
    bool kgen_dtype_is_list() const { return dtype_is_list_; }
    bool kgen_format_is_list() const { return format_is_list_; }
    bool kgen_value_depend() const { return value_depend_ == REQUIRED || value_depend_ == OPTIONAL; }
    const std::string& kgen_follow() const { return follow_; }
    bool kgen_shape_depends_on_compute() const { return shape_depends_on_compute_; }

private:
    std::string name_;
    Option param_type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
    bool dtype_is_list_ = false;
    bool format_is_list_ = false;
    Option value_depend_ = IGNORE;
    std::string follow_;
    bool shape_depends_on_compute_ = false;
};

class OpAttrDef {
public:
    explicit OpAttrDef(const char* name) : name_(name ? name : "") {}
    OpAttrDef& AttrType(Option t) { attr_type_ = t; return *this; }
    OpAttrDef& Bool() { kind_ = kgen::host::AttrKind::Bool; return *this; }
    OpAttrDef& Bool(bool v) { Bool(); has_default_ = true; b_ = v; return *this; }
    OpAttrDef& Float() { kind_ = kgen::host::AttrKind::Float; return *this; }
    OpAttrDef& Float(float v) { Float(); has_default_ = true; f_ = v; return *this; }
    OpAttrDef& Int() { kind_ = kgen::host::AttrKind::Int; return *this; }
    OpAttrDef& Int(int64_t v) { Int(); has_default_ = true; i_ = v; return *this; }
    OpAttrDef& String() { kind_ = kgen::host::AttrKind::Str; return *this; }
    OpAttrDef& String(const char* v) { String(); has_default_ = true; s_ = v ? v : ""; return *this; }
    OpAttrDef& ListBool() { kind_ = kgen::host::AttrKind::ListBool; return *this; }
    OpAttrDef& ListBool(std::vector<bool> v) { ListBool(); has_default_ = true; lb_ = std::move(v); return *this; }
    OpAttrDef& ListFloat() { kind_ = kgen::host::AttrKind::ListFloat; return *this; }
    OpAttrDef& ListFloat(std::vector<float> v) { ListFloat(); has_default_ = true; lf_ = std::move(v); return *this; }
    OpAttrDef& ListInt() { kind_ = kgen::host::AttrKind::ListInt; return *this; }
    OpAttrDef& ListInt(std::vector<int64_t> v) { ListInt(); has_default_ = true; li_ = std::move(v); return *this; }
    OpAttrDef& ListListInt() { kind_ = kgen::host::AttrKind::ListListInt; return *this; }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> v) { ListListInt(); has_default_ = true; lli_ = std::move(v); return *this; }
    OpAttrDef& Version(uint32_t) { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }
    ge::AscendString GetName() const { return ge::AscendString(name_); }
    bool IsRequired() const { return attr_type_ == REQUIRED; }

    // ---- read by the kgen harness -----------------------------------------------------------
    const std::string& kgen_name() const { return name_; }
    kgen::host::AttrKind kgen_kind() const { return kind_; }
    bool kgen_has_default() const { return has_default_; }
    int64_t kgen_i() const { return i_; }
    float kgen_f() const { return f_; }
    bool kgen_b() const { return b_; }
    const std::string& kgen_s() const { return s_; }
    const std::vector<int64_t>& kgen_li() const { return li_; }
    const std::vector<float>& kgen_lf() const { return lf_; }
    const std::vector<bool>& kgen_lb() const { return lb_; }
    const std::vector<std::vector<int64_t>>& kgen_lli() const { return lli_; }

private:
    std::string name_;
    Option attr_type_ = REQUIRED;
    kgen::host::AttrKind kind_ = kgen::host::AttrKind::None;
    bool has_default_ = false;
    int64_t i_ = 0;
    float f_ = 0.f;
    bool b_ = false;
    std::string s_;
    std::vector<int64_t> li_;
    std::vector<float> lf_;
    std::vector<bool> lb_;
    std::vector<std::vector<int64_t>> lli_;
};

/// Per-SoC overrides of the inputs/outputs and compile flags.
class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* name) { return find(inputs_, name); }
    OpParamDef& Output(const char* name) { return find(outputs_, name); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }

    std::vector<OpParamDef> inputs_, outputs_;

private:
    static OpParamDef& find(std::vector<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.kgen_name() == name) return p;
        v.emplace_back(name);
        return v.back();
    }
};

class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(gert::TilingKernelFunc f) { tiling_ = f; return *this; }
    template <typename F>
    OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSupportInfo(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSpecInfo(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetParamGeneralize(F) { return *this; }
    OpAICoreDef& AddConfig(const char* soc) { configs_.emplace_back(soc ? soc : "", OpAICoreConfig()); return *this; }
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& cfg) { configs_.emplace_back(soc ? soc : "", cfg); return *this; }
    OpAICoreDef& LaunchWithZeroEleOutputTensors(bool) { return *this; }

    gert::TilingKernelFunc tiling_ = nullptr;
    std::vector<std::pair<std::string, OpAICoreConfig>> configs_;
};

class OpDef {
public:
    explicit OpDef(const char* type) : type_(type ? type : "") {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* name) { return find(inputs_, name); }
    OpParamDef& Output(const char* name) { return find(outputs_, name); }
    OpAttrDef& Attr(const char* name) {
        for (auto& a : attrs_)
            if (a.kgen_name() == name) return a;
        attrs_.emplace_back(name);
        return attrs_.back();
    }
    OpDef& SetInferShape(gert::InferShapeKernelFunc f) { infer_shape_ = f; return *this; }
    OpDef& SetInferShapeRange(gert::InferShapeRangeKernelFunc) { return *this; }
    OpDef& SetInferDataType(gert::InferDataTypeKernelFunc f) { infer_dtype_ = f; return *this; }
    OpAICoreDef& AICore() { return aicore_; }
    OpDef& EnableFallBack() { return *this; }
    OpDef& Comment(CommentSection, const char*) { return *this; }
    OpDef& FormatMatchMode(FormatCheckOption) { return *this; }

    // ---- read by the kgen harness -----------------------------------------------------------
    const std::string& kgen_type() const { return type_; }
    std::vector<OpParamDef> inputs_, outputs_;
    std::vector<OpAttrDef> attrs_;
    gert::InferShapeKernelFunc infer_shape_ = nullptr;
    gert::InferDataTypeKernelFunc infer_dtype_ = nullptr;
    OpAICoreDef aicore_;

private:
    static OpParamDef& find(std::vector<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.kgen_name() == name) return p;
        v.emplace_back(name);
        return v.back();
    }
    std::string type_;
};

}  // namespace ops

namespace kgen {
namespace host {
using OpFactory = std::function<std::unique_ptr<ops::OpDef>()>;
inline std::vector<std::pair<std::string, OpFactory>>& op_defs() {
    static std::vector<std::pair<std::string, OpFactory>> v;
    return v;
}
struct OpDefReg {
    OpDefReg(const char* name, OpFactory f) { op_defs().emplace_back(name, std::move(f)); }
};
}  // namespace host
}  // namespace kgen

#define OP_ADD(opType, ...)                                                                            \
    static ::kgen::host::OpDefReg kgen_op_def_reg_##opType(#opType, [] {                               \
        return std::unique_ptr<::ops::OpDef>(new opType(#opType));                                     \
    })
