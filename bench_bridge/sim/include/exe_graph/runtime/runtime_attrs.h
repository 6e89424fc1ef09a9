// kgen host-side emulation -- gert::RuntimeAttrs: the operator attributes a TilingFunc reads.
//
// Documented behaviour followed:
//  * Attributes are indexed in the order the OpDef declares them with Attr(name).
//  * A list attribute read through an integer pointer (GetInt on the wrong index) yields, as on hardware,
//    the first word of the list's storage: its capacity (here its length); the emulator warns (attr-type).
//    Other type mismatches stop the run.
//  * GetInt/GetFloat/GetBool return pointers to int64_t/float/bool, GetStr a C string, GetListInt /
//    GetListFloat / GetListBool a TypedContinuousVector (GetSize, GetData); GetAttrPointer<T>(i) is the
//    generic form. An index past the declared attributes gives nullptr.
//  * Int attributes are stored as int64_t and Float attributes as float: reading one through a pointer
//    of another type reinterprets its bytes. The emulator reports that (error for int<->float, which
//    gives garbage; warning for an int of another width, which only works for small values).
//
// @api RuntimeAttrs GetAttrPointer GetInt GetFloat GetBool GetStr GetListInt GetListFloat GetListBool GetAttrNum TypedContinuousVector ContinuousVector
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "exe_graph/runtime/shape.h"

namespace gert {

class ContinuousVector {
public:
    ContinuousVector() = default;
    ContinuousVector(const void* data, size_t size) : data_(data), size_(size) {}
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return size_; }
    const void* GetData() const { return data_; }

protected:
    const void* data_ = nullptr;
    size_t size_ = 0;
};

template <typename T>
class TypedContinuousVector : public ContinuousVector {
public:
    using ContinuousVector::ContinuousVector;
    const T* GetData() const { return static_cast<const T*>(data_); }
};

}  // namespace gert

namespace kgen {
namespace host {

enum class AttrKind { None, Int, Float, Bool, Str, ListInt, ListFloat, ListBool, ListListInt };

inline const char* attr_kind_name(AttrKind k) {
    switch (k) {
        case AttrKind::Int: return "int";
        case AttrKind::Float: return "float";
        case AttrKind::Bool: return "bool";
        case AttrKind::Str: return "str";
        case AttrKind::ListInt: return "list_int";
        case AttrKind::ListFloat: return "list_float";
        case AttrKind::ListBool: return "list_bool";
        case AttrKind::ListListInt: return "list_list_int";
        default: return "none";
    }
}

/// One attribute value as the runtime stores it.
struct AttrValue {
    AttrKind kind = AttrKind::None;
    std::string name;
    int64_t i = 0;
    float f = 0.f;
    bool b = false;
    std::string s;
    std::vector<int64_t> li;
    std::vector<float> lf;
    std::unique_ptr<bool[]> lb;
    size_t lb_size = 0;
    std::vector<std::vector<int64_t>> lli;
    gert::TypedContinuousVector<int64_t> v_li;
    gert::TypedContinuousVector<float> v_lf;
    gert::TypedContinuousVector<bool> v_lb;
    int64_t list_head = 0;  // first word of a list attribute's storage on hardware: its capacity (= length)

    void seal() {
        list_head = static_cast<int64_t>(kind == AttrKind::ListInt ? li.size() : kind == AttrKind::ListFloat ? lf.size()
                                         : kind == AttrKind::ListBool ? lb_size : 0);
        v_li = gert::TypedContinuousVector<int64_t>(li.data(), li.size());
        v_lf = gert::TypedContinuousVector<float>(lf.data(), lf.size());
        v_lb = gert::TypedContinuousVector<bool>(lb.get(), lb_size);
    }
};

}  // namespace host
}  // namespace kgen

namespace gert {

class RuntimeAttrs {
public:
    RuntimeAttrs() = default;
    explicit RuntimeAttrs(std::vector<std::unique_ptr<kgen::host::AttrValue>>* values) : values_(values) {}

    size_t GetAttrNum() const { return values_ ? values_->size() : 0; }

    template <typename T>
    const T* GetAttrPointer(size_t index) const {
        using K = kgen::host::AttrKind;
        const kgen::host::AttrValue* v = at(index, "GetAttrPointer");
        if (!v) return nullptr;
        using U = std::remove_cv_t<T>;
        switch (v->kind) {
            case K::Int:
                if constexpr (std::is_same_v<U, int64_t>) return &v->i;
                else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
                    kgen::host::host_warn("attr-type", "attribute %zu ('%s') is an Int (stored as int64_t) read through a %zu-byte "
                                          "integer pointer: only the low bytes are read", index, v->name.c_str(), sizeof(U));
                    return reinterpret_cast<const T*>(&v->i);
                }
                break;
            case K::Float:
                if constexpr (std::is_same_v<U, float>) return &v->f;
                break;
            case K::Bool:
                if constexpr (std::is_same_v<U, bool>) return &v->b;
                break;
            case K::Str:
                if constexpr (std::is_same_v<U, char>) return v->s.c_str();
                break;
            case K::ListInt:
                if constexpr (std::is_same_v<U, ContinuousVector>) return &v->v_li;
                if constexpr (std::is_same_v<U, TypedContinuousVector<int64_t>>) return &v->v_li;
                break;
            case K::ListFloat:
                if constexpr (std::is_same_v<U, ContinuousVector>) return &v->v_lf;
                if constexpr (std::is_same_v<U, TypedContinuousVector<float>>) return &v->v_lf;
                break;
            case K::ListBool:
                if constexpr (std::is_same_v<U, ContinuousVector>) return &v->v_lb;
                if constexpr (std::is_same_v<U, TypedContinuousVector<bool>>) return &v->v_lb;
                break;
            default: break;
        }
        if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
            if (v->kind == K::ListInt || v->kind == K::ListFloat || v->kind == K::ListBool) {
                // hardware hands out the list's storage, whose first word is its capacity (= its length)
                kgen::host::host_warn("attr-type", "attribute %zu ('%s') is a %s read through a %zu-byte integer pointer: "
                                      "on hardware this reads the first word of the list's storage (its capacity, %lld here), "
                                      "not an element", index, v->name.c_str(), kgen::host::attr_kind_name(v->kind), sizeof(U),
                                      static_cast<long long>(v->list_head));
                return reinterpret_cast<const T*>(&v->list_head);
            }
        }
        kgen::host::host_fail("attr-type", "attribute %zu ('%s') is of type %s but is read as a different type (%zu-byte "
                              "element): on hardware this reinterprets its bytes", index, v->name.c_str(),
                              kgen::host::attr_kind_name(v->kind), sizeof(U));
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { return GetAttrPointer<TypedContinuousVector<int64_t>>(i); }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const { return GetAttrPointer<TypedContinuousVector<float>>(i); }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const { return GetAttrPointer<TypedContinuousVector<bool>>(i); }

private:
    const kgen::host::AttrValue* at(size_t index, const char* api) const {
        if (!values_ || index >= values_->size()) {
            kgen::host::host_warn("attr-index", "%s(%zu): the OpDef declares only %zu attributes (returns nullptr)", api, index,
                                  GetAttrNum());
            return nullptr;
        }
        return (*values_)[index].get();
    }
    std::vector<std::unique_ptr<kgen::host::AttrValue>>* values_ = nullptr;
};

}  // namespace gert
