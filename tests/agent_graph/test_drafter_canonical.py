"""What the canonical front end (core ATen through torch.export) adds to the drafter, each drafted, built
and verified on the emulator against its own reference: arg-reductions over an inner dimension,
cumprod and reversed/exclusive scans, reductions over several adjacent inner dimensions, norms over several trailing dimensions (layer, instance and group
norm), one-element tensor inputs, integer tensors and casts, comparisons returned as bool tensors, bool masks as inputs, in-place optimizer steps; and how the
front end refuses (naming the core op) and how a broken reference is the user's error.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified
from tests.bench_bridge.tasks.test_worker_stubs import NPU_ONLY_REF

REFS = {
    "argmax_inner": ("torch.argmax(x, dim=1)", "x", "torch.randn(4, 37, 21)"),
    "min_indices_dim0": ("torch.min(x, dim=0).indices", "x", "torch.randn(29, 50).half()"),
    "cumprod": ("torch.cumprod(x, dim=-1)", "x", "torch.rand(6, 40) + 0.5"),
    "exclusive_cumsum": ("torch.cat((torch.zeros_like(x[:, :1]), torch.cumsum(x[:, :-1], dim=1)), dim=1)", "x",
                         "torch.randn(5, 33)"),
    "layer_norm_3d": ("F.layer_norm(x, x.shape[1:])", "x", "torch.randn(3, 4, 5, 7)"),
    "instance_norm": ("F.instance_norm(x)", "x", "torch.randn(2, 3, 6, 10)"),
    "group_norm": ("F.group_norm(x, 2)", "x", "torch.randn(2, 4, 3, 5)"),
    "scalar_tensor_input": ("x + a * b * value", "x, a, b, value",
                            "torch.randn(9, 40), torch.randn(9, 40), torch.randn(9, 40), torch.tensor(0.3)"),
    "int_arith": ("(-x) * 3 + 1", "x", "torch.randint(-500, 500, (13, 31), dtype=torch.int32)"),
    "cast_to_int": ("(x * 10).to(torch.int32)", "x", "torch.randn(11, 23)"),
    "compare_to_bool": ("torch.less_equal(a, b)", "a, b", "torch.randn(17, 45).half(), torch.randn(17, 45).half()"),
    "masked_fill": ("x.masked_fill(mask, -1.5) * 2", "x, mask", "torch.randn(23, 71), torch.rand(23, 71) > 0.5"),
    "masked_cumsum": ("torch.cumsum(x * mask, dim=1)", "x, mask", "torch.randn(6, 90), torch.rand(6, 90) > 0.3"),
    "int8_neg": ("torch.neg(x)", "x", "torch.randint(-100, 100, (33, 70), dtype=torch.int8)"),
    "int8_less": ("torch.less(a, b)", "a, b",
                  "torch.randint(-100, 100, (17, 90), dtype=torch.int8), torch.randint(-100, 100, (17, 90), dtype=torch.int8)"),
    "prod_inner_dim": ("torch.prod(x, dim=1)", "x", "torch.rand(4, 9, 30) + 0.5"),
    "prod_last_dim_half": ("x.prod(-1, keepdim=True) * 2", "x", "(torch.rand(7, 20) + 0.6).half()"),
    # a number raised to a step held in a one-element int64 tensor (Adam's bias correction) in a flat kernel
    "bias_corrected_moment": ("(m * 0.9 + g * 0.1) / (1.0 - 0.9 ** step)", "m, g, step",
                              "torch.randn(40, 300), torch.randn(40, 300), torch.tensor([7])"),
    "sgd_inplace": ("w.sub_(g.mul(lr))", "w, g, lr: float", "torch.randn(20, 17), torch.randn(20, 17), 0.1"),
    # several adjacent dimensions before the last reduced at once (their product is one reduced run)
    "sum_leading_dims": ("x.sum(dim=(0, 1))", "x", "torch.randn(5, 7, 33)"),
    "mean_middle_dims_half": ("torch.mean(x, dim=[1, 2], keepdim=True)", "x", "torch.randn(3, 6, 5, 40).half()"),
    # a tuple argument (torch.export takes it apart, one input an item): its numbers are constants of the graph
    "clamp_bounds_tuple": ("torch.clamp(x * 3.0, bounds[0], bounds[1])", "x, bounds", "torch.randn(7, 33), (-0.5, 0.75)"),
    # pow: a tensor exponent (negative bases with integral exponents are defined), and a number exponent of a
    # 16-bit tensor, which PyTorch rounds to the tensor's dtype first (1.7 -> 1.703125 in bfloat16)
    "pow_tensor_exponent": ("torch.pow(x, e) - 1.0", "x, e",
                            "torch.randn(11, 45), torch.randint(-2, 4, (11, 45)).float()"),
    "pow_number_exponent_bf16": ("x.abs().pow(p) + x.abs() ** 1.3", "x, p: float",
                                 "torch.randn(9, 40, dtype=torch.bfloat16), 1.7"),
    # a detached copy of a value read after the value's own last read (MultiKernelBench's original_x): the copy
    # shares the value's slot, which stays taken while either is read again (it was reused: wrong results)
    "clone_detach_reused": ("(lambda y: (lambda o: (y + b + o) * o + o)(y.clone().detach()))(x * 2.0)", "x, b",
                            "torch.randn(16, 100), torch.randn(16, 100)"),
    # a count computed from the shape through a small constant tensor (torch.fx cannot trace torch.tensor of a
    # shape; torch.export keeps the constant's values on a second try, so the count is a number)
    "count_from_shape_tensor": ("x.sum(dim=(-2, -1), keepdim=True) / float(torch.prod(torch.tensor(x.shape[-2:])))",
                                "x", "torch.randn(6, 4, 15)"),
    # nll_loss on log-probabilities the reference was given (not cross_entropy): aten.nll_loss, its defaults
    "nll_loss_sum_ignored": ("F.nll_loss(logp, target, reduction='sum', ignore_index=ign)", "logp, target, ign: int",
                             "torch.randn(30, 5).log_softmax(1), torch.randint(0, 5, (30,)), 1"),
}


def _write(tmp: Path, name: str, body: str, sig: str, inputs: str) -> Path:
    ref = tmp / f"{name}.py"
    ref.write_text(textwrap.dedent(f"""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Model(nn.Module):
            def forward(self, {sig}):
                return {body}


        def get_inputs():
            torch.manual_seed(0)
            return [{inputs}]


        def get_init_inputs():
            return []
        """))
    return ref


@pytest.mark.parametrize("name", sorted(REFS))
def test_canonical_reference_drafts_a_verified_kernel(name, tmp_path):
    assert_verified(_write(tmp_path, name, *REFS[name]), tmp_path)


def test_refusal_names_the_core_op_and_shape(tmp_path):
    # (SwiGLU's chunk, the form this test once read, is covered: test_drafter_windows.py)
    ref = _write(tmp_path, "cummax", "torch.cummax(x, 1)[0] * 2", "x", "torch.randn(4, 16)")
    d = draft(ref)
    assert isinstance(d, Unsupported) and not d.user_error
    assert "aten.cummax" in d.reason and "[4, 16]" in d.reason, d


def test_nll_loss_over_spatial_positions_is_refused_naming_its_shape(tmp_path):
    ref = _write(tmp_path, "nll3d", "F.nll_loss(logp, target)", "logp, target",
                 "torch.randn(2, 5, 7).log_softmax(1), torch.randint(0, 5, (2, 7))")
    d = draft(ref)
    assert isinstance(d, Unsupported) and not d.user_error
    assert "aten.nll_loss2d_forward" in d.reason and "[2, 5, 1, 7]" in d.reason   # PyTorch views [N, C, d] as 4-D


@pytest.mark.parametrize("body, verify", [
    # a group norm's rows (each group's channels and positions) and a reduction over the channels: it used to
    # plan one row kernel that reduced the wrong elements; now the norm is one vector stage, the rest another
    ("torch.logsumexp(F.group_norm(x, 2) + x, dim=1, keepdim=True)", True),
    ("torch.softmax(F.instance_norm(x), dim=-1)", False),
])
def test_a_norm_over_several_dims_with_another_reduction_runs_in_stages(tmp_path, body, verify):
    ref = _write(tmp_path, "gn_lse", body, "x", "torch.randn(2, 4, 5, 6)")
    d = assert_verified(ref, tmp_path) if verify else draft(ref)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert d.plan.template == "staged" and "stage 1: ops: layer_norm" in kernel and "stage 2: " in kernel


@pytest.mark.parametrize("body, inputs, words", [
    # over all elements of a matrix: not one row of the row template
    ("torch.argmax(x)", "torch.randn(6, 5)", "aten.argmax over all elements"),
    # an index plus a fraction is a float in PyTorch: only + - * of a whole number stays an index
    ("torch.argmax(x) + 0.5", "torch.randn(40)", "on integer indices"),
    # a randomized leaky relu in training mode draws a slope per element: no reference value to verify against
    ("F.rrelu(x, training=True)", "torch.randn(6, 40)", "rrelu in training mode"),
])
def test_forms_still_refused(tmp_path, body, inputs, words):
    d = draft(_write(tmp_path, "arg_all", body, "x", inputs))
    assert isinstance(d, Unsupported) and not d.user_error
    assert words in d.reason, d.reason


def test_repeat_interleave_is_refused_not_drafted_as_a_view(tmp_path):
    # aten.expand then a reshape materialises copies: read as a view it drafted an elementwise copy of the wrong size
    ref = _write(tmp_path, "rep", "torch.repeat_interleave(x, 2, dim=0) * 2", "x", "torch.randn(6, 5)")
    d = draft(ref)
    assert isinstance(d, Unsupported) and not d.user_error
    assert "aten.expand copied into a tensor of its own" in d.reason and "[6, 1, 5]" in d.reason


def test_a_list_of_tensors_argument_is_refused_naming_it(tmp_path):
    ref = _write(tmp_path, "stack_sum", "torch.stack(xs).sum(0) * 2", "xs", "[torch.randn(4, 8), torch.randn(4, 8)]")
    d = draft(ref)
    assert isinstance(d, Unsupported) and not d.user_error
    # a list argument is read as a foreach op (one function per tensor); this one combines the tensors
    assert "does not return one list of tensors, one per item of its input lists" in d.reason


def test_an_npu_only_reference_is_the_users_to_fix(tmp_path):
    ref = tmp_path / "rope.py"
    ref.write_text(NPU_ONLY_REF)
    d = draft(ref)
    assert isinstance(d, Unsupported) and d.user_error
    assert "torch_npu.npu_rotary_mul" in d.reason and "write its math in PyTorch ops" in d.reason


def _generate(ref: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", "generate", str(ref), "--offline", "--json",
                           "-o", str(out)], capture_output=True, text=True, timeout=600)


def test_json_report_of_a_refusal(tmp_path):
    ref = _write(tmp_path, "flip", "torch.flip(x, [0]) * y", "x, y", "torch.randn(4, 8), torch.randn(4, 8)")
    p = _generate(ref, tmp_path / "out")
    assert p.returncode == 3, p.stderr
    rep = json.loads(p.stdout)                    # a report object even though nothing was built
    assert rep["schema"] == "kgen.bench-report" and rep["outcome"] == "unsupported"
    assert rep["compiled"] is False and rep["cases"] == [] and "aten.flip" in rep["message"]


def test_broken_reference_is_the_users_error(tmp_path):
    ref = _write(tmp_path, "broken", "x + y", "x, y", "torch.randn(4, 8), torch.randn(5, 3)")
    p = _generate(ref, tmp_path / "out")
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and "fails on case 0 as written" in p.stderr
    rep = json.loads(p.stdout)
    assert rep["outcome"] == "invalid" and "RuntimeError" in rep["message"]


def test_a_trace_that_computes_something_else_is_not_used(tmp_path):
    """torch.fx follows one path through Python code on a forward argument: a dict lookup on a traced int
    falls to its default (float32). The drafter compares the trace with the eager result and reads the
    reference through torch.export instead, which specialises on the argument (int32 here)."""
    ref = tmp_path / "cast_by_code.py"
    ref.write_text(textwrap.dedent("""\
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def forward(self, x, dst_type: int):
                return x.to({0: torch.float16, 3: torch.int32}.get(dst_type, torch.float32))


        def get_inputs():
            return [torch.randn(8, 40) * 10, 3]
        """))
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.params.outputs[0].dtypes == ["int32"]
    assert "Cast(" in next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))


def test_tensor_given_to_init_is_an_op_input(tmp_path):
    """A weight handed to ``__init__`` (NPUKernelBench's RmsNorm gamma) is read by the module, so torch.export
    lifts it as a constant; the harness passes init tensors after the inputs, so the op takes it there."""
    ref = tmp_path / "scaled_rms.py"
    ref.write_text(textwrap.dedent("""\
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def __init__(self, gamma, eps):
                super().__init__()
                self.gamma, self.eps = gamma, eps

            def forward(self, x):
                return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.gamma


        def get_inputs():
            torch.manual_seed(1)
            return [torch.randn(12, 96)]


        def get_init_inputs():
            torch.manual_seed(2)
            return [torch.randn(96), 1e-6]
        """))
    d = assert_verified(ref, tmp_path)
    assert [p.kind for p in d.plan.params.inputs] == ["full", "bvec"]


def test_a_data_dependent_export_prints_nothing_to_the_terminal(tmp_path, capfd):
    # PyTorch prints the partial graph of an export stopped on a data-dependent value (a print to stderr) and
    # warns through its logger; the drafter retries with constants kept (a plan), the user sees neither
    ref = _write(tmp_path, "count_quiet", *REFS["count_from_shape_tensor"])
    d = draft(ref)
    assert not isinstance(d, Unsupported), d
    err = capfd.readouterr().err
    assert "def forward" not in err and "Unable to find user code" not in err, err[:400]
