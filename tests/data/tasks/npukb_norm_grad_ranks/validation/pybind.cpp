#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

std::vector<at::Tensor> custom_pybind_api(at::Tensor grad, at::Tensor x, at::Tensor mean, at::Tensor rstd,
                                          at::Tensor weight)
{
    at::Tensor dx = at::empty_like(x);
    at::Tensor dw = at::empty(weight.sizes(), x.options().dtype(at::kFloat));
    at::Tensor db = at::empty(weight.sizes(), x.options().dtype(at::kFloat));
    EXEC_NPU_CMD(aclnnNormGradRanks, grad, x, mean, rstd, weight, dx, dw, db);
    return {dx, dw, db};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("norm_grad_ranks", &custom_pybind_api, "a layer norm's backward over one or two trailing dimensions");
}
