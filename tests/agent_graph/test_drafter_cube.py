"""The drafter's cube template: references holding a matmul (``torch.matmul``/``@``/``bmm``/``F.linear``/
``nn.Linear``/``addmm``) drafted as a MIX kernel (Matmul API on the cube core, the epilogue on the vector
cores), built and verified on the emulator against their own references; refusals that name the op and
shape; the eager model pricing a matmul as one cube kernel at its dtype's rate.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch

from agent_graph.drafter import Unsupported, draft, prebuild, write_project
from bench_bridge.bench import BenchOptions, bench
from bench_bridge.perf.costs import load as load_costs
from bench_bridge.perf.eager import op_time_us, record_ops


def _write(tmp: Path, name: str, init_body: str, body: str, sig: str, inputs: str, init: str = "") -> Path:
    ref = tmp / f"{name}.py"
    ref.write_text(textwrap.dedent(f"""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Model(nn.Module):
            def __init__(self, *args):
                super().__init__()
        {textwrap.indent(init_body or "pass", " " * 8)}

            def forward(self, {sig}):
                return {body}


        def get_inputs():
            torch.manual_seed(0)
            return [{inputs}]


        def get_init_inputs():
            return [{init}]
        """))
    return ref


def _verified(ref: Path, tmp: Path):
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == "cube"
    project = write_project(d.plan, tmp / "project")
    builds = prebuild(project, jobs=1)
    assert builds and all(b.ok for b in builds), [x.format() for b in builds for x in b.diagnostics][:3]
    rep = bench(ref, BenchOptions(project=project, timeout=600))
    bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
    assert rep.compiled, rep.message
    assert rep.correct and not bad, bad or rep.message
    return d.plan, project


def test_linear_with_random_weights_and_an_activation_is_one_verified_mix_kernel(tmp_path):
    # KernelBench's Gemm spelling: nn.Linear built in __init__ (random weight and bias), a scale, a clamp
    ref = _write(tmp_path, "gemm_scale_clamp", "self.fc = nn.Linear(37, 29)",
                 "torch.clamp(self.fc(x) * 0.5, min=-0.25, max=1.0)", "x", "torch.randn(21, 37)")
    plan, project = _verified(ref, tmp_path)
    # the project benches on its own, from the kgen-task.toml written with it (the forward's x only)
    rep = bench(project / "kgen-task.toml", BenchOptions(project=project, timeout=600))
    assert rep.correct and all(c.status == "pass" for c in rep.cases), [c.message for c in rep.cases]
    kernel = next(t for p, t in plan.files.items() if p.startswith("op_kernel/"))
    host = next(t for p, t in plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "KERNEL_TYPE_MIX_AIC_1_2" in kernel and "mm.Iterate()" in kernel and "GetTensorC" in kernel
    assert "Maxs(" in kernel and "Mins(" in kernel and "Muls(" in kernel      # the epilogue on the vector unit
    assert "SetFixSplit(baseM, baseN, -1)" in host and "CoreMemType::L0_C" in host
    # the module's weight and bias are op inputs after the forward input; the weight is read transposed
    assert [p.name for p in plan.params.inputs] == ["x", "p_fc_weight", "p_fc_bias"]
    assert "mm.SetTensorB(bGm_[static_cast<uint64_t>(b) * td.bBatchStride + static_cast<uint64_t>(n0) * t.Ka], true)" in kernel


@pytest.mark.slow   # a second build (1-2 min on an idle machine); the suite covers it too
def test_batched_half_matmul_with_broadcast_transposed_operand(tmp_path):
    # q @ k^T with k shared by the batch, fp16 in (fp32 accumulation, rounded to half as PyTorch returns it), + residual
    ref = _write(tmp_path, "qk_residual", "", "torch.matmul(q, k.transpose(-2, -1)) + r", "q, k, r",
                 "torch.randn(3, 19, 24).half(), torch.randn(1, 33, 24).half(), torch.randn(3, 19, 33).half()")
    plan, _ = _verified(ref, tmp_path)
    assert plan.params.outputs[0].dtypes == ["float16"]


def _refusal(tmp: Path, body: str, sig: str, inputs: str) -> str:
    d = draft(_write(tmp, "r", "", body, sig, inputs))
    assert isinstance(d, Unsupported) and not d.user_error, d
    return d.reason


def test_refusals_name_the_op_and_the_shape(tmp_path):
    r = _refusal(tmp_path, "torch.relu(a) @ b", "a, b", "torch.randn(5, 7), torch.randn(7, 3)")
    assert "aten.relu" in r and "[5, 7]" in r and "before the matmul" in r
    r = _refusal(tmp_path, "(a @ b).logcumsumexp(0)", "a, b", "torch.randn(5, 7), torch.randn(7, 3)")
    # a second stage no template plans is refused as the second stage's op ((a @ b).sum() and a cumprod over the
    # rows, the col template's scan, are staged ops now)
    assert r.startswith("after the matmul: ") and "aten.logcumsumexp" in r
    r = _refusal(tmp_path, "(a @ b) @ c", "a, b, c", "torch.randn(5, 7), torch.randn(7, 3), torch.randn(3, 4)")
    assert "2 matmuls" in r and "[5, 3]" in r and "[5, 4]" in r
    r = _refusal(tmp_path, "a @ b.permute(1, 0, 2)", "a, b", "torch.randn(2, 5, 7), torch.randn(7, 2, 3)")
    assert "permuted" in r and "[2, 7, 3]" in r
    r = _refusal(tmp_path, "a @ b", "a, b", "torch.randn(2, 1, 5, 7), torch.randn(1, 3, 7, 4)")
    assert "aten.bmm" in r and "[2, 1, 5, 7]" in r and "part of the batch" in r
    # an input broadcast against the matmul result over its batch: the add is a second, vector stage
    d = draft(_write(tmp_path, "r", "", "a @ b + r", "a, b, r", "torch.randn(2, 5, 7), torch.randn(7, 4), torch.randn(5, 4)"))
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d
    # it once drafted a kernel that did not build (the groups ignored); now the norm is a staged op's second stage
    d = draft(_write(tmp_path, "r", "", "F.group_norm(a @ b, 4)", "a, b", "torch.randn(6, 7), torch.randn(7, 32)"))
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d


def test_operands_cast_up_to_float32_are_read_as_the_16_bit_inputs(tmp_path):
    # torch.matmul(a.to(torch.float32), b.to(torch.float32)) of float16 inputs: the cube's fp32 accumulation of the
    # 16-bit product (each product exact in fp32), written as float32; an int8 product's int32 sums returned as they
    # are stay refused (int8 operands with a float epilogue: test_drafter_cube_rows.py), a float cast to int too
    d = draft(_write(tmp_path, "up", "", "torch.matmul(a.to(torch.float32), b.float())", "a, b",
                     "torch.randn(20, 33).half(), torch.randn(33, 17).half()"))
    assert not isinstance(d, Unsupported) and d.plan.template == "cube", d
    assert d.plan.params.inputs[0].dtypes == ["float16"] and d.plan.params.outputs[0].dtypes == ["float32"]
    r = _refusal(tmp_path, "torch.matmul(a.to(torch.int32), b.to(torch.int32))", "a, b",
                 "torch.randint(-5, 5, (6, 7), dtype=torch.int8), torch.randint(-5, 5, (7, 3), dtype=torch.int8)")
    assert "dtype int32" in r
    r = _refusal(tmp_path, "torch.matmul(a.to(torch.int32), b.to(torch.int32)).float()", "a, b",
                 "torch.randn(6, 7), torch.randn(7, 3)")
    assert "aten._to_copy" in r and "before the matmul" in r


def test_a_number_scaling_an_operand_scales_the_product(tmp_path):
    # (a * alpha) @ (0.5 * b) with alpha a forward float: both factors applied to the fp32 product in the epilogue,
    # alpha an attribute of the op (not the number of the drafted case)
    ref = _write(tmp_path, "scaled_operands", "", "torch.matmul(a * alpha, 0.5 * b)", "a, b, alpha",
                 "torch.randn(21, 30), torch.randn(30, 19), 1.75")
    plan, _ = _verified(ref, tmp_path)
    host = next(t for p, t in plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    kernel = next(t for p, t in plan.files.items() if p.startswith("op_kernel/"))
    assert 'this->Attr("alpha")' in host and "attr0_" in kernel and "0.5f" in kernel


def test_eager_matmul_is_one_cube_kernel_at_its_dtypes_rate():
    costs = load_costs()
    a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
    ops32, _ = record_ops(lambda x, y: torch.relu(x @ y), a, b)
    assert [o.name for o in ops32] == ["mm", "relu"] and ops32[0].cube and not ops32[1].cube
    ops16, _ = record_ops(lambda x, y: x @ y, a.half(), b.half())
    t32, t16 = op_time_us(ops32[0], costs), op_time_us(ops16[0], costs)
    comp16 = 2 * 1024 ** 3 / costs.peak_cube_flops * 1e6
    # compute-bound at this size: an fp32 product takes two cube cycles per fp16 one (16 x 16 x 8 fractals)
    assert t32 - t16 == pytest.approx(comp16, rel=0.05)
    assert t16 > comp16 + costs.launch_overhead_us
