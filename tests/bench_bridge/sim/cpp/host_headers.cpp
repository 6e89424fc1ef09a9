// Host-side header facts (kgen team test program): platform/platform_info.h brings std::vector,
// std::string and std::map into the global namespace, as CANN's does; op_host code relies on it.
#include <cstdio>
#include "register/op_def_registry.h"
#include "platform/platform_info.h"

namespace ops {
vector<int64_t> dims = {4, 5, 6};
string label = "dims";
map<string, int64_t> sizes;
}  // namespace ops

int main() {
    int64_t n = 1;
    for (int64_t d : ops::dims) n *= d;
    ops::sizes[ops::label] = n;
    std::printf("%s=%lld\n", ops::label.c_str(), static_cast<long long>(ops::sizes["dims"]));
    return 0;
}
