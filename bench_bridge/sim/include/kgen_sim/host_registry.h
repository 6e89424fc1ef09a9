// kgen host-side emulation -- the registries that OpDef, OP_ADD, IMPL_OP_* and the tiling-data macros
// fill at program start, and that the kgen project harness reads.
//
// Nothing here is an AscendC API: it is the emulator's bookkeeping (what CANN's op compiler and
// runtime learn from the same registrations).
#pragma once
#include <cstdarg>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "kgen_sim/host_diag.h"

namespace kgen {
namespace host {

// ---- tiling data classes (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS) -------------------
struct TilingField {
    std::string name;
    std::string type;     // the C++ type as written
    size_t elem_size = 0;
    size_t count = 1;     // array length (1 for scalars)
    size_t offset = 0;
    bool is_struct = false;
};
struct TilingClass {
    std::string name;
    size_t size = 0;
    size_t align = 1;
    std::vector<TilingField> fields;
};
using TilingDescribeFn = void (*)(TilingClass&);

/// One field of a tiling class, appended by its describe function. Out of line (noinline): every host
/// translation unit that includes the advanced APIs' tiling classes emits a describe function for each of
/// their hundreds of fields, and the vector code inlined into each one made every host source take seconds
/// of compiler back end.
[[gnu::noinline]] inline void add_tiling_field(TilingClass& c, const char* name, const char* type, size_t elem_size,
                                               size_t count, size_t offset, bool is_struct) {
    c.fields.push_back({name, type, elem_size, count, offset, is_struct});
}

inline std::map<std::string, TilingDescribeFn>& tiling_classes() {
    static std::map<std::string, TilingDescribeFn> m;
    return m;
}
/// (op type or "OpType_key", class name), in registration order.
inline std::vector<std::pair<std::string, std::string>>& tiling_registrations() {
    static std::vector<std::pair<std::string, std::string>> v;
    return v;
}

// ---- op implementation functions (OpDef::SetInferShape, AICore().SetTiling, IMPL_OP_*) ----------
struct OpImpl {
    gert::TilingKernelFunc tiling = nullptr;
    gert::InferShapeKernelFunc infer_shape = nullptr;
    gert::InferDataTypeKernelFunc infer_dtype = nullptr;
    std::function<ge::graphStatus(gert::TilingParseContext*)> tiling_parse;
    std::function<std::shared_ptr<void>()> make_compile_info;
    std::vector<int> value_depend_inputs;
};
inline std::map<std::string, OpImpl>& op_impls() {
    static std::map<std::string, OpImpl> m;
    return m;
}

}  // namespace host
}  // namespace kgen
