#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor custom_pybind_api(std::vector<int64_t> shape, at::Tensor value)
{
    at::Tensor y = at::empty(shape, value.options());
    EXEC_NPU_CMD(aclnnFillValue, value, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("fill_value", &custom_pybind_api, "a tensor of the given shape holding value's one element");
}
