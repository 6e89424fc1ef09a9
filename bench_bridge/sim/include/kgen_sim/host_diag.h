// kgen host-side emulation -- located diagnostics for host code (TilingFunc, InferShape, OpDef).
//
// The same reporting as kernel diagnostics (kgen_sim/diag.h): `file:line: error: message [code]`
// at the innermost user frame. An error ends the program (exit status 3) because hardware or the
// CANN framework would have rejected the call or produced garbage there.
#pragma once
#include <cstdarg>
#include <string>

#include "kgen_sim/diag.h"

namespace kgen {
namespace host {

[[noreturn]] inline void host_fail(const char* code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string msg = kgen::vformat(fmt, ap);
    va_end(ap);
    kgen::report(kgen::Severity::Error, code, msg);
    kgen::abort_program();
}
inline void host_warn(const char* code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string msg = kgen::vformat(fmt, ap);
    va_end(ap);
    kgen::report(kgen::Severity::Warning, code, msg);
}

}  // namespace host
}  // namespace kgen
