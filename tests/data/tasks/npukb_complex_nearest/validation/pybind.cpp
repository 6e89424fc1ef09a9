#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor custom_pybind_api(at::Tensor x, int64_t count)
{
    at::Tensor y = at::empty({}, x.options().dtype(at::kInt));
    EXEC_NPU_CMD(aclnnComplexNearest, x, count, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("complex_nearest", &custom_pybind_api, "1 + the index of the smallest |re| + |im| of x's first count elements");
}
