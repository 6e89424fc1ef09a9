"""The reference worker's NPU stand-ins (bench_bridge.tasks.stubs): task generators written for the
NPU run on the CPU. Values are compared with draws made here from the same seed."""
from __future__ import annotations

import torch

from bench_bridge.tasks import stubs


def test_randn_serves_integer_dtypes_as_truncated_float_draws():
    stubs.install()
    torch.manual_seed(7)
    got = torch.randn((64, 3), dtype=torch.int8)
    torch.manual_seed(7)
    want = torch.trunc(torch.randn((64, 3), dtype=torch.float32)).to(torch.int8)
    assert got.dtype == torch.int8 and got.shape == (64, 3)
    assert torch.equal(got, want)
    assert got.abs().max() <= 6 and got.ne(0).any()  # small integers, not all zero


def test_randn_keeps_float_draws_and_bool():
    stubs.install()
    torch.manual_seed(3)
    a = torch.randn(5, dtype=torch.float16)
    torch.manual_seed(3)
    b = torch.randn(5).to(torch.float16)
    assert a.dtype == torch.float16 and torch.equal(a, b)
    assert torch.randn(4, dtype=torch.bool).dtype == torch.bool
    stubs.install()  # idempotent: not wrapped twice
    assert getattr(torch.randn, "kgen_integer_draws", False)


def test_rand_serves_integer_dtypes_as_truncated_float_draws():
    # ClipByValue's generator: torch.rand(shape, dtype=torch.int32) * 9 + 1 ("check_uniform_bounds" not
    # implemented for 'Int' on the CPU); uniform draws in [0, 1) truncate to 0
    stubs.install()
    torch.manual_seed(11)
    got = torch.rand((129, 4), dtype=torch.int32) * 9 + 1
    torch.manual_seed(11)
    want = torch.rand((129, 4), dtype=torch.float32).to(torch.int32) * 9 + 1
    assert got.dtype == torch.int32 and torch.equal(got, want)
    assert torch.equal(got, torch.ones((129, 4), dtype=torch.int32))
    f = torch.rand(64, dtype=torch.float16)       # float draws are untouched
    assert f.dtype == torch.float16 and 0 <= float(f.min()) and float(f.max()) < 1 and f.ne(0).any()
    assert getattr(torch.rand, "kgen_integer_draws", False)


def test_a_complex128_reference_result_is_kept_for_a_complex64_kernel(tmp_path):
    # complex64 x a float64 tensor promotes to complex128 in PyTorch (Muls's reference): the result is
    # saved as complex128 and compared per (real, imag) component with the kernel's complex64 output
    import numpy as np

    from bench_bridge.bench_compare import compare_outputs
    from bench_bridge.tasks import load_task
    from bench_bridge.tasks.worker import prepare

    ref = tmp_path / "cmuls.py"
    ref.write_text(
        "import torch\nimport torch.nn as nn\n\n"
        "class Model(nn.Module):\n    def forward(self, x, v):\n        return x * v\n\n"
        "def get_inputs():\n    return [torch.complex(torch.randn(6), torch.randn(6)), torch.tensor([1.5], dtype=float)]\n\n"
        "def get_init_inputs():\n    return []\n")
    out = tmp_path / "out"
    out.mkdir()
    e = prepare(load_task(ref), out)[0]
    assert e["status"] == "ok", e.get("message")
    assert e["refs"][0]["dtype"] == "complex128"
    x = np.load(out / e["dir"] / e["inputs"][0]["file"])
    assert x.dtype == np.complex64
    kernel = (x * np.float32(1.5)).astype(np.complex64)      # what a complex64 kernel computes
    [check] = compare_outputs(["y"], e["refs"], [kernel], ["complex64"], out / e["dir"])
    assert check.passed and check.threshold == 1e-5
    wrong = kernel.copy()
    wrong[2] += np.complex64(0.01j)
    [bad] = compare_outputs(["y"], e["refs"], [wrong], ["complex64"], out / e["dir"])
    assert not bad.passed and bad.mismatches == 1


def test_complex128_inputs_are_reported_as_unsupported(tmp_path):
    # complex64 is supported (kernels read it as float32 pairs); wider complex types are not
    from bench_bridge.tasks import load_task
    from bench_bridge.tasks.worker import prepare

    ref = tmp_path / "cdot.py"
    ref.write_text(
        "import torch\nimport torch.nn as nn\n\n"
        "class Model(nn.Module):\n    def forward(self, a, b):\n        return (a * b).sum()\n\n"
        "def get_inputs():\n    return [torch.randn(8, dtype=torch.complex128), torch.randn(8, dtype=torch.complex128)]\n\n"
        "def get_init_inputs():\n    return []\n")
    out = tmp_path / "out"
    out.mkdir()
    entries = prepare(load_task(ref), out)
    assert entries[0]["status"] == "error"
    assert entries[0]["message"].startswith("unsupported: complex128 tensors are not supported by the emulator")
    assert "reference failed" not in entries[0]["message"]


NPU_ONLY_REF = (
    "import torch\nimport torch.nn as nn\nimport torch_npu\n\n"
    "class Model(nn.Module):\n    def forward(self, x, r1, r2):\n"
    "        return torch_npu.npu_rotary_mul(x, r1, r2)\n\n"
    "def get_inputs():\n    return [torch.randn(1, 1, 4, 8), torch.randn(1, 1, 4, 8), torch.randn(1, 1, 4, 8)]\n\n"
    "def get_init_inputs():\n    return []\n")


def test_a_reference_computing_with_an_npu_only_operator_is_named(tmp_path):
    # the torch_npu stub returns None: no reference result exists on the CPU, and the case says why
    from bench_bridge.tasks import load_task
    from bench_bridge.tasks.worker import prepare

    ref = tmp_path / "rope.py"
    ref.write_text(NPU_ONLY_REF)
    out = tmp_path / "out"
    out.mkdir()
    entries = prepare(load_task(ref), out)
    assert entries[0]["status"] == "error"
    assert entries[0]["message"].startswith("unsupported: the reference computes with torch_npu.npu_rotary_mul, "
                                            "an NPU-only operator")
    assert stubs.npu_only_ops() == []      # read once, then forgotten

