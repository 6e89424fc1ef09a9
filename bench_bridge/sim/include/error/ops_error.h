// kgen host-side emulation -- error/ops_error.h: the logging and check macros op_host code of the
// operator libraries uses.
//
// Documented behaviour followed:
//  * OPS_LOG_E/W/I/D(op, fmt, ...) log one message for operator `op` (a node name) at that level;
//    OPS_REPORT_VECTOR_INNER_ERR(op, fmt, ...) / OPS_REPORT_CUBE_INNER_ERR report an inner error (logged
//    at error level).
//  * OPS_CHECK(cond, log_func, expr): when cond holds, run log_func then expr (typically a return).
//  * OPS_LOG_E_IF_NULL(context, ptr, expr): when ptr is null, log an error naming ptr, then run expr.
//  * OPS_CHECK_NULL_WITH_CONTEXT(context, ptr): when ptr is null, log and return ge::GRAPH_FAILED;
//    OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) returns ret instead.
// Emulator: errors and warnings go to stderr as "[ERROR] <op>: <message>" (the kgen run shows them);
// info and debug messages are type-checked and dropped unless KGEN_HOST_LOG=1 is set at run time.
// Each macro is defined only when the including code has not defined it already.
//
// @api OPS_LOG_E OPS_LOG_W OPS_LOG_I OPS_LOG_D OPS_CHECK OPS_LOG_E_IF_NULL OPS_CHECK_NULL_WITH_CONTEXT OPS_CHECK_NULL_WITH_CONTEXT_RET OPS_REPORT_VECTOR_INNER_ERR OPS_REPORT_CUBE_INNER_ERR
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "graph/types.h"

namespace kgen {
namespace host {
inline bool host_log_verbose() {
    static const bool on = [] { const char* v = std::getenv("KGEN_HOST_LOG"); return v && v[0] == '1'; }();
    return on;
}
inline const char* log_name(const char* s) { return s ? s : "?"; }
inline const char* log_name(const std::string& s) { return s.c_str(); }
}  // namespace host
}  // namespace kgen

#define KGEN_OPS_LOG(level, always, op, fmt, ...)                                                              \
    do {                                                                                                   \
        if ((always) || ::kgen::host::host_log_verbose())                                                  \
            std::fprintf(stderr, "[" level "] %s: " fmt "\n", ::kgen::host::log_name(op), ##__VA_ARGS__);  \
    } while (0)

#ifndef OPS_LOG_E
#define OPS_LOG_E(op, fmt, ...) KGEN_OPS_LOG("ERROR", true, op, fmt, ##__VA_ARGS__)
#endif
#ifndef OPS_LOG_W
#define OPS_LOG_W(op, fmt, ...) KGEN_OPS_LOG("WARNING", true, op, fmt, ##__VA_ARGS__)
#endif
#ifndef OPS_LOG_I
#define OPS_LOG_I(op, fmt, ...) KGEN_OPS_LOG("INFO", false, op, fmt, ##__VA_ARGS__)
#endif
#ifndef OPS_LOG_D
#define OPS_LOG_D(op, fmt, ...) KGEN_OPS_LOG("DEBUG", false, op, fmt, ##__VA_ARGS__)
#endif
#ifndef OPS_REPORT_VECTOR_INNER_ERR
#define OPS_REPORT_VECTOR_INNER_ERR(op, fmt, ...) OPS_LOG_E(op, fmt, ##__VA_ARGS__)
#endif
#ifndef OPS_REPORT_CUBE_INNER_ERR
#define OPS_REPORT_CUBE_INNER_ERR(op, fmt, ...) OPS_LOG_E(op, fmt, ##__VA_ARGS__)
#endif
#ifndef OPS_CHECK
#define OPS_CHECK(cond, log_func, expr) \
    do {                                \
        if (cond) {                     \
            log_func;                   \
            expr;                       \
        }                               \
    } while (0)
#endif
#ifndef OPS_LOG_E_IF_NULL
#define OPS_LOG_E_IF_NULL(context, ptr, expr)                                                  \
    do {                                                                                       \
        if ((ptr) == nullptr) {                                                                \
            OPS_LOG_E((context)->GetNodeName(), "%s is nullptr", #ptr);                         \
            expr;                                                                              \
        }                                                                                      \
    } while (0)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OPS_LOG_E_IF_NULL(context, ptr, return ge::GRAPH_FAILED)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT_RET
#define OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) OPS_LOG_E_IF_NULL(context, ptr, return (ret))
#endif
