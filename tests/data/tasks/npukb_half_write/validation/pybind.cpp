// kgen team test task: the binding allocates the output and zero-fills it before the kernel runs.
#include <torch/extension.h>

at::Tensor half_write_impl(const at::Tensor &x)
{
    at::Tensor y = torch::empty(x.sizes(), x.options());
    y.fill_(0.0f);
    EXEC_NPU_CMD(aclnnHalfWrite, x, y);
    return y;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("half_write", &half_write_impl, "");
}
