// kgen host-side emulation -- tiling data definition macros (register/tilingdata_base.h).
//
// Documented behaviour followed:
//  * BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF; defines a class with, for every field,
//    set_<field>(v) and get_<field>(); TILING_DATA_FIELD_DEF(type, f) adds a scalar field,
//    TILING_DATA_FIELD_DEF_ARR(type, n, f) an array (set_f copies exactly n elements from the pointer
//    given; get_f returns a pointer), TILING_DATA_FIELD_DEF_STRUCT(Other, f) a nested tiling class
//    (accessed as obj.f.set_x(...)).
//  * Field types: int8_t..uint64_t and float. Each field sits at an offset that is a multiple of its
//    size (the framework pads otherwise); the kernel sees a struct with the same fields in the same order.
//  * SaveToBuffer(buf, capacity) serialises the fields; GetDataSize() is the serialised size.
//  * REGISTER_TILING_DATA_CLASS(OpType, Name) binds the class to an operator type: GET_TILING_DATA in
//    that operator's kernel yields it. "OpType_<key>" binds a class used for one tiling key;
//    "<Name>Op" registers a class only used nested in others.
//  * END_TILING_DATA_DEF closes the class including its semicolon, so both `END_TILING_DATA_DEF;` and a
//    bare `END_TILING_DATA_DEF` followed by REGISTER_TILING_DATA_CLASS compile (CANN's macro ends in `};`).
// Emulator: the host class is laid out exactly as the kernel-side struct (the fields are its data
// members, in order, zero-initialised), and the kgen project build generates the kernel-side struct
// from the registered field list, as the CANN build does.
//
// @api BEGIN_TILING_DATA_DEF TILING_DATA_FIELD_DEF TILING_DATA_FIELD_DEF_ARR TILING_DATA_FIELD_DEF_STRUCT END_TILING_DATA_DEF REGISTER_TILING_DATA_CLASS SaveToBuffer GetDataSize
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kgen_sim/host_registry.h"

namespace kgen {
namespace host {
/// Runs a field's describe function at start-up, in declaration order.
struct TilingFieldReg {
    [[gnu::noinline]] TilingFieldReg(std::vector<void (*)(TilingClass&)>& list, void (*fn)(TilingClass&)) { list.push_back(fn); }
};
struct TilingClassReg {
    TilingClassReg(const char* op_type, const char* cls, TilingDescribeFn fn) {
        tiling_classes()[cls] = fn;
        tiling_registrations().emplace_back(op_type, cls);
    }
};
}  // namespace host
}  // namespace kgen

#define BEGIN_TILING_DATA_DEF(class_name)                                                              \
    class class_name {                                                                                 \
        using kgen_self = class_name;                                                                  \
        static std::vector<void (*)(::kgen::host::TilingClass&)>& kgen_field_fns() {                   \
            static std::vector<void (*)(::kgen::host::TilingClass&)> v;                                \
            return v;                                                                                  \
        }                                                                                              \
                                                                                                       \
    public:                                                                                            \
        static const char* kgen_class_name() { return #class_name; }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                   \
    public:                                                                                            \
        data_type field_name{};                                                                        \
        void set_##field_name(data_type v) { field_name = v; }                                         \
        data_type get_##field_name() const { return field_name; }                                      \
        static void kgen_describe_##field_name(::kgen::host::TilingClass& c) {                         \
            ::kgen::host::add_tiling_field(c, #field_name, #data_type, sizeof(data_type), 1, offsetof(kgen_self, field_name), false); \
        }                                                                                              \
        static inline ::kgen::host::TilingFieldReg kgen_reg_##field_name{kgen_field_fns(), &kgen_describe_##field_name};

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                      \
    public:                                                                                            \
        arr_type field_name[arr_size]{};                                                               \
        void set_##field_name(const arr_type* v) { std::memcpy(field_name, v, sizeof(field_name)); }  \
        arr_type* get_##field_name() { return field_name; }                                            \
        static void kgen_describe_##field_name(::kgen::host::TilingClass& c) {                         \
            ::kgen::host::add_tiling_field(c, #field_name, #arr_type, sizeof(arr_type), (arr_size), offsetof(kgen_self, field_name), false); \
        }                                                                                              \
        static inline ::kgen::host::TilingFieldReg kgen_reg_##field_name{kgen_field_fns(), &kgen_describe_##field_name};

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                          \
    public:                                                                                            \
        struct_type field_name{};                                                                      \
        void set_##field_name(const struct_type& v) { field_name = v; }                                \
        struct_type& get_##field_name() { return field_name; }                                         \
        static void kgen_describe_##field_name(::kgen::host::TilingClass& c) {                         \
            ::kgen::host::add_tiling_field(c, #field_name, struct_type::kgen_class_name(), sizeof(struct_type), 1, \
                                           offsetof(kgen_self, field_name), true);                     \
        }                                                                                              \
        static inline ::kgen::host::TilingFieldReg kgen_reg_##field_name{kgen_field_fns(), &kgen_describe_##field_name};

#define END_TILING_DATA_DEF                                                                            \
    public:                                                                                            \
        void SaveToBuffer(void* pdata, size_t capacity) const {                                        \
            if (sizeof(kgen_self) > capacity)                                                          \
                ::kgen::host::host_fail("tiling-overflow", "%s::SaveToBuffer: %zu bytes of tiling data do not fit a buffer of %zu bytes", \
                                        kgen_class_name(), sizeof(kgen_self), capacity);               \
            if (!pdata) ::kgen::host::host_fail("tiling-null", "%s::SaveToBuffer into a null buffer", kgen_class_name()); \
            std::memcpy(pdata, static_cast<const void*>(this), sizeof(kgen_self));                     \
        }                                                                                              \
        size_t GetDataSize() const { return sizeof(kgen_self); }                                       \
        void SetDataPtr(void*) {}                                                                      \
        static void kgen_describe(::kgen::host::TilingClass& c) {                                      \
            c.name = kgen_class_name();                                                                \
            c.size = sizeof(kgen_self);                                                                \
            c.align = alignof(kgen_self);                                                              \
            c.fields.clear();                                                                          \
            for (auto fn : kgen_field_fns()) fn(c);                                                    \
        }                                                                                              \
    };

#define KGEN_TILING_CAT2(a, b) a##b
#define KGEN_TILING_CAT(a, b) KGEN_TILING_CAT2(a, b)
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                \
    static ::kgen::host::TilingClassReg KGEN_TILING_CAT(kgen_tiling_reg_##op_type##_##class_name##_, __LINE__)( \
        #op_type, #class_name, &class_name::kgen_describe);
