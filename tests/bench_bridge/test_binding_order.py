"""The op inputs take the NPUKernelBench binding's parameters in the order its EXEC_NPU_CMD passes them
(NPUKernelBench's AddLayerNorm: ModelNew calls the binding with (x1, x2, bias, gamma, beta) and the binding
runs the op with (x1, x2, gamma, beta, bias)) unless an input is named after a parameter (a drafted op takes
the forward's tensors by name, in ModelNew's order), and the tensors it returns are the op's outputs in the
order of its result list (AddLayerNorm returns {xOut, yOut} of the op's (y, mean, rstd, x)). A team-written
binding file; the permutations are worked out by hand."""
from __future__ import annotations

from bench_bridge.bench_case import _binding_input_order, _binding_output_order

BINDING = """#include "pytorch_npu_helper.hpp"
// a helper that also takes tensors, before the binding
static int count(at::Tensor a) { return 1; }
std::vector<at::Tensor> scaled_norm(at::Tensor a, at::Tensor b, c10::optional<at::Tensor> shift, at::Tensor w,
                                    double eps)
{
    at::Tensor y = torch::empty_like(a), r = torch::empty_like(a), s = torch::empty_like(a);
    if (shift.has_value()) {
        EXEC_NPU_CMD(aclnnScaledNorm, a, b, w, shift, eps, y, r, s);   // w before shift
    } else {
        at::Tensor none = at::Tensor();
        EXEC_NPU_CMD(aclnnScaledNorm, a, b, w, none, eps, y, r, s);
    }
    std::vector<at::Tensor> result;
    if (eps > 0) {
        result = {s, y};
    } else {
        result = {y};
    }
    return result;
}
"""


def _task(tmp_path, text):
    (tmp_path / "validation").mkdir()
    (tmp_path / "validation" / "pybind.cpp").write_text(text)
    return tmp_path


def test_inputs_follow_the_binding_s_exec_order(tmp_path):
    # an answer's inputs, named otherwise: the EXEC_NPU_CMD's order
    assert _binding_input_order(_task(tmp_path, BINDING), ["x1", "x2", "x3", "x4"]) == [0, 1, 3, 2]
    # named as the binding's parameters: each its own, whatever the place (the EXEC's order, or the call's)
    assert _binding_input_order(tmp_path, ["a", "b", "w", "shift"]) == [0, 1, 3, 2]
    assert _binding_input_order(tmp_path, ["a", "b", "shift", "w"]) == []


def test_inputs_named_after_the_call_keep_its_order_and_the_rest_follow_the_exec(tmp_path):
    """A drafted op: the forward's tensors by name in ModelNew's order, the model's own weight after them under
    its module name; the weight is the EXEC argument no name took (``w``)."""
    assert _binding_input_order(_task(tmp_path, BINDING), ["a", "b", "shift", "p_norm_weight"]) == []
    assert _binding_input_order(tmp_path, ["b", "a", "shift", "p_norm_weight"]) == [1, 0, 2, 3]


def test_the_parameters_own_order_and_no_binding_change_nothing(tmp_path):
    same = BINDING.replace("a, b, w, shift, eps", "a, b, shift, w, eps")
    assert _binding_input_order(_task(tmp_path, same), ["x1", "x2", "x3", "x4"]) == []
    assert _binding_input_order(tmp_path / "absent", ["x1", "x2", "x3", "x4"]) == []


def test_returned_tensors_follow_the_binding_s_result_list(tmp_path):
    task = _task(tmp_path, BINDING)
    # 4 inputs, 1 attribute, 3 outputs (y, r, s): {s, y} is outputs 2 and 0; {y} is the outputs' own order
    assert _binding_output_order(task, 3, 2, 8) == [2, 0]
    assert _binding_output_order(task, 3, 1, 8) == []
    # a call with another argument count runs another operator: no mapping
    assert _binding_output_order(task, 3, 2, 9) == []
