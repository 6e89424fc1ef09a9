#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// the operator takes the weight before the optional shift
at::Tensor custom_pybind_api(at::Tensor x, c10::optional<at::Tensor> shift, at::IntArrayRef normalizedShape,
                             at::Tensor weight, double eps)
{
    at::Tensor y = at::empty_like(x);
    if (shift.has_value()) {
        EXEC_NPU_CMD(aclnnCustomOp, x, weight, shift, normalizedShape, eps, y);
    } else {
        at::Tensor none = at::Tensor();
        EXEC_NPU_CMD(aclnnCustomOp, x, weight, none, normalizedShape, eps, y);
    }
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("shifted_rms_norm", &custom_pybind_api, "x / rms(x) * weight + shift");
}
