// kgen test project: a helper defined (not just declared) in a header that both op_host files include,
// as operator libraries do: CANN links the two files into different libraries, the emulator into one.
#pragma once
#include <cstdint>

namespace optiling {
int64_t RoundUpTo(int64_t value, int64_t unit) { return (value + unit - 1) / unit * unit; }
}  // namespace optiling
