#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// the operator takes the indices before the dimension
at::Tensor custom_pybind_api(at::Tensor x, at::Tensor dim, at::Tensor index)
{
    int64_t d = dim.item<int64_t>();
    if (d < 0) {
        d += x.dim();
    }
    auto sizes = x.sizes().vec();
    sizes[d] = index.numel();
    at::Tensor y = at::empty(sizes, x.options());
    EXEC_NPU_CMD(aclnnSelectAlong, x, index, dim, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("select_along", &custom_pybind_api, "x.index_select(dim, index)");
}
