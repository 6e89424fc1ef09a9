"""Reading a reference's shape arithmetic: a constant tensor built from sizes and read back with ``.item()``
(``torch.tensor(x.shape[1:]).prod().item()``, NPUKernelBench's MulSigmoid spelling) is only a shape check, not an
op input; a tensor filled with a number read out of a one-element input (``torch.full(x.shape, v.item())``) is that
input broadcast; a reshape of a row kernel's result as it is stored (the rows written in order) changes nothing the kernel
writes. Both verified on the emulator against PyTorch."""
from __future__ import annotations

import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference


@pytest.mark.parametrize("body, inputs, sig", [
    # the flattened size computed through a constant tensor and .item() (MulSigmoid's spelling): torch.export lifts
    # the tensor and asserts on the item; the reshape of w to [1, n] fixes n, so nothing of it reaches the result
    ("(torch.sigmoid(x * 0.5).reshape(-1, torch.prod(torch.tensor(w.shape[1:])).item())"
     " * w.reshape(1, torch.prod(torch.tensor(w.shape[1:])).item())).reshape(x.shape[0], *w.shape[1:])",
     "torch.randn(6, 120), torch.randn(1, 5, 24)", "x, w"),
    # a row broadcast (w over the rows of x: a row kernel), the result reshaped so its last dimension changes
    ("(x * w + 1.0).reshape(x.shape[0], 4, -1)", "torch.randn(9, 96), torch.randn(1, 96)", "x, w"),
])
def test_shape_arithmetic_around_an_elementwise_chain_verifies(body, inputs, sig, tmp_path):
    d = assert_verified(write_reference(tmp_path, body, inputs, sig=sig), tmp_path)
    assert d.plan.template in ("flat", "row"), d.plan.template


@pytest.mark.parametrize("body, inputs", [
    # the fill value a float32 input, the tensor float16 (PyTorch converts the number once, as the kernel does)
    ("torch.maximum(x, torch.full(x.shape, v.item(), dtype=x.dtype))", "torch.randn(37, 65).half(), torch.randn(1)"),
    ("x * torch.full_like(x, v.item()) - torch.full([x.shape[-1]], v.item())", "torch.randn(5, 300), torch.randn(())"),
])
def test_a_tensor_filled_with_a_number_read_from_an_input_verifies(body, inputs, tmp_path):
    """Refused before: "core op aten.full.default is not covered" (the export fills with the item's symbol)."""
    d = assert_verified(write_reference(tmp_path, body, inputs, sig="x, v"), tmp_path)
    assert d.plan.template in ("flat", "row"), d.plan.template
