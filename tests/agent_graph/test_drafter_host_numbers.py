"""Python numbers computed from a one-element input read with ``.item()`` (an optimizer's step count, a learning
rate given as a tensor): the reference computes them in Python, in double, and a tensor op takes each as one float.
The drafted host computes them the same way (agent_graph/drafter/hostnum.py): it reads the input (declared
``ValueDepend``) and the attributes as written, and hands the kernel the float nearest each number. Computed in
float on the kernel, ``1 - 0.99 ** 2`` is 2e-6 (relative) from PyTorch's, and bfloat16 results round to the other
side for some elements (the harness allows 1e-3: one bfloat16 step is 4e-3). Verified against PyTorch on the
emulator."""
from __future__ import annotations

import re

import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference


def _files(d) -> tuple[str, str]:
    host = next(v for k, v in d.plan.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    kernel = next(v for k, v in d.plan.files.items() if k.startswith("op_kernel/"))
    return host, kernel


@pytest.mark.parametrize("body, inputs, sig", [
    # Adam's second-moment bias correction, the step an int64 count, the result rounded to bfloat16 (failed before:
    # the kernel's powf(0.99f, 2.0f) put 1 - beta2 ** t 2e-6 away, and elements rounded to the other bfloat16)
    ("(v / (1 - 0.99 ** (step.item() + 1))).bfloat16()",
     "torch.rand(64, 1024), torch.tensor([1])", "v, step"),
    # the learning rate a float32 one-element tensor, the step an int32 one; a float16 result; a method spelling
    ("x.mul(-lr.item() / (1.0 - 0.9 ** step.item())).add(x)",
     "torch.randn(48, 1000).half(), torch.tensor([0.001]), torch.tensor([7], dtype=torch.int32)", "x, lr, step"),
    # the step read with float() (Python's float() of an input stops torch.export: read as .item() is), int64
    ("p - 0.01 / (1 - 0.9 ** (float(step) + 1)) * g",
     "torch.randn(40, 96), torch.randn(40, 96), torch.tensor(4)", "p, g, step"),
    # the number as add's alpha (x.add(g, alpha=...): x + alpha * g in float, rounded once), float16
    ("x.add(g, alpha=-lr.item() / (1 - 0.9 ** (step.item() + 1)))",
     "torch.randn(33, 65).half(), torch.randn(33, 65).half(), torch.tensor([3e-3]), torch.tensor([9])", "x, g, lr, step"),
])
def test_numbers_computed_from_an_item_are_the_hosts_in_double(body, inputs, sig, tmp_path):
    d = assert_verified(write_reference(tmp_path, body, inputs, sig=sig), tmp_path)
    host, kernel = _files(d)
    assert re.search(r'this->Input\("step"\)[^;]*\.ValueDepend\(REQUIRED\);', host), host
    assert "std::pow(" in host and "static double InputNumber(" in host
    assert "powf" not in kernel and "step" not in kernel.split("Init(")[1].split(")")[0]


@pytest.mark.parametrize("body, inputs, dtype", [
    ("x * s.item() + 1", "torch.randn(16, 256), torch.tensor([3])", "float32"),
    # a Python float times an int32 tensor is float32 (the default dtype), as in PyTorch: not float64
    ("x * s.item()", "torch.randint(-50, 50, (16, 64), dtype=torch.int32), torch.tensor(0.37)", "float32"),
])
def test_a_number_used_as_it_is_stays_the_kernels(body, inputs, dtype, tmp_path):
    """A number read and used without Python arithmetic in double (``x * s.item()``): the kernel reads the one
    value itself; the input is no ValueDepend (the host would wait for the device's copy for nothing)."""
    d = assert_verified(write_reference(tmp_path, body, inputs, sig="x, s"), tmp_path)
    host, kernel = _files(d)
    assert "ValueDepend" not in host and "InputNumber" not in host
    assert d.plan.params.outputs[0].dtypes == [dtype]
