"""Offline drafter units: analysis, classification, lowering, planner (no kernel builds)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from agent_graph.drafter import Unsupported, draft, instantiate
from agent_graph.drafter.analysis import AnalysisError, analyse, classify
from agent_graph.drafter.lowering import lower
from agent_graph.drafter.planner import op_type_for

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"


def _graph(fn, *inputs):
    """Op graph of fn(*inputs) wrapped in a Model with one named forward argument per input."""
    if len(inputs) == 1:
        class M(nn.Module):
            def forward(self, x):
                return fn(x)
    else:
        class M(nn.Module):
            def forward(self, x, y):
                return fn(x, y)
    return analyse(M(), list(inputs))


def test_analysis_records_ops_shapes_and_dtypes():
    class M(nn.Module):
        def forward(self, x, y, alpha: float):
            return torch.relu(x + alpha * y).to(x.dtype)

    x = torch.randn(4, 33, dtype=torch.float16)
    g = analyse(M(), [x, x.clone(), 0.5])
    assert [n.name for n in g.inputs] == ["x", "y"] and [a.name for a in g.attrs] == ["alpha"]
    assert [n.op for n in g.nodes] == ["mul", "add", "relu", "cast"]
    assert g.nodes[0].shape == (4, 33) and g.nodes[0].dtype == "float16"
    assert g.attrs[0].kwargs["value"] == 0.5


def test_analysis_turns_shape_queries_into_constants():
    class M(nn.Module):
        def forward(self, x, w, b):
            return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)

    g = analyse(M(), [torch.randn(3, 8), torch.randn(8), torch.randn(8)])
    assert g.nodes[-1].op == "layer_norm" and tuple(g.nodes[-1].args[1]) == (8,)


@pytest.mark.parametrize("fn,inputs,category", [
    (lambda x: torch.sigmoid(x) * x, [torch.randn(4, 8)], "elementwise"),
    (lambda x: x.sum(-1), [torch.randn(4, 8)], "reduction"),
    (lambda x: torch.softmax(x, -1), [torch.randn(4, 8)], "normalization"),
    (lambda x: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6), [torch.randn(4, 8)], "normalization"),
    (lambda a, b: F.mse_loss(a, b), [torch.randn(4, 8), torch.randn(4, 8)], "loss"),
    (lambda x: torch.cumsum(x, -1), [torch.randn(4, 8)], "scan"),
])
def test_classify(fn, inputs, category):
    assert classify(_graph(fn, *inputs)) == category


def test_lowering_picks_flat_for_plain_elementwise_and_row_for_broadcast():
    assert lower(_graph(lambda x, y: x * y + 1.0, torch.randn(4, 8), torch.randn(4, 8))).mode == "flat"
    p = lower(_graph(lambda x, b: torch.relu(x + b), torch.randn(4, 8), torch.randn(8)))
    assert p.mode == "row" and [i.kind for i in p.inputs] == ["full", "bvec"]


def test_lowering_rounds_half_results_per_op():
    p = lower(_graph(lambda x: x * 2.0 + 1.0, torch.randn(4, 8, dtype=torch.float16)))
    # the product is rounded to half; the sum is the output, which the store rounds
    assert sum("CAST_RINT" in ln for ln in p.body) == 1 and p.round_types == {"float16"}
    p32 = lower(_graph(lambda x: (x.float() * 2.0 + 1.0).half() * 3.0, torch.randn(4, 8, dtype=torch.float16)))
    assert sum("CAST_RINT" in ln for ln in p32.body) == 1  # the narrowing cast; nothing in float32


def test_analysis_rejects_untraceable_and_unknown_ops():
    with pytest.raises(AnalysisError, match="matmul"):
        _graph(lambda a, b: torch.matmul(a, b), torch.randn(4, 8), torch.randn(8, 4))

    class Params(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(8))

        def forward(self, x):
            return x * self.w
    with pytest.raises(AnalysisError, match="forward input"):
        analyse(Params(), [torch.randn(4, 8)])


def _spec(tmp: Path, body: str, shapes=((4, 8),), sig="x") -> Path:
    (tmp / "reference.py").write_text(textwrap.dedent(f"""
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Model(nn.Module):
            def forward(self, {sig}):
                return {body}
        """))
    ins = ", ".join(f'{{ shape = {list(s)}, dtype = "float32" }}' for s in shapes)
    (tmp / "kgen-task.toml").write_text(f'name = "t"\nreference = "reference.py"\n[[cases]]\ninputs = [{ins}]\n')
    return tmp / "kgen-task.toml"


def test_unsupported_names_the_op(tmp_path):
    res = draft(_spec(tmp_path, "torch.flip(x, [0]) * y", shapes=((4, 8), (4, 8)), sig="x, y"))
    assert isinstance(res, Unsupported)
    # the canonical front end names the core ATen op and the shape it was given
    assert "aten.flip" in str(res) and "[4, 8]" in str(res) and "not covered" in str(res) and res.op == "flip"


def test_inner_dimension_reduction_uses_the_col_template(tmp_path):
    d = draft(_spec(tmp_path, "x.sum(dim=0)", shapes=((4, 8),)))
    assert not isinstance(d, Unsupported) and d.plan.template == "col"
    d = draft(_spec(tmp_path, "x.sum(dim=0) * 2.0", shapes=((4, 8),)))   # an epilogue on the reduced values
    assert not isinstance(d, Unsupported) and d.plan.params.extra["epilogue"] == ["Muls(acc, acc, 2.0f, len);"]


def test_long_rows_take_the_split_row_path(tmp_path):
    d = draft(_spec(tmp_path, "torch.softmax(x, -1)", shapes=((2, 200000),)))
    assert not isinstance(d, Unsupported) and d.plan.params.extra["split"]
    host = d.files["op_host/t_custom.cpp"]
    assert "chunkLen = static_cast<uint32_t>" in host  # the host picks the path from the runtime shape
    assert "rowCores = coreNum / rows" in host  # fewer rows than cores: cores share a row
    kernel = d.files["op_kernel/t_custom.cpp"]
    assert kernel.count("RowCombine(r") == 2 and "SyncAll();" in kernel  # max and sum partials combined
    # a row program that indexes into the row cannot be streamed: said plainly
    res = draft(_spec(tmp_path, "torch.argmax(x, -1)", shapes=((2, 200000),)))
    assert isinstance(res, Unsupported) and "split-row" in res.reason and "argmax" in res.reason


def _passes(fn, *inputs):
    from agent_graph.drafter import splitrow

    return splitrow.analyse(lower(_graph(fn, *inputs)).body)


def test_split_row_passes():
    # softmax: a max pass, a sum-of-exp pass, then the write pass
    sp = _passes(lambda x: torch.softmax(x, -1), torch.randn(2, 64))
    assert [[r.api for r in p.reds] for p in sp.passes] == [["ReduceMax"], ["ReduceSum"]]
    assert sp.passes[0].vec == [] and any(ln.startswith("Exp(") for ln in sp.passes[1].vec)
    assert all(ln.endswith("cn);") for p in sp.passes for ln in p.vec)  # every vector statement runs per chunk
    # layer norm: the sum of squares and the sum of residuals share the second pass
    sp = _passes(lambda x: F.layer_norm(x, (64,), None, None, 1e-5), torch.randn(2, 64))
    assert [[r.api for r in p.reds] for p in sp.passes] == [["ReduceSum"], ["ReduceSum", "ReduceSum"]]
    assert any("/ static_cast<float>(cols_)" in ln for ln in sp.passes[0].scalar_after)  # the mean: once, whole row
    # the write pass only recomputes what the output needs (no squares)
    from agent_graph.drafter.splitrow import _prune

    prog = lower(_graph(lambda x: F.layer_norm(x, (64,), None, None, 1e-5), torch.randn(2, 64)))
    write = _prune(sp.write, {prog.outputs[0].val.tile})
    assert write and not any(ln.startswith("Mul(") and ln.split(",")[1].strip() == ln.split(",")[2].strip() for ln in write)
    # a row sum: one pass, nothing to write per element
    sp = _passes(lambda x: x.sum(-1), torch.randn(2, 64))
    assert len(sp.passes) == 1 and sp.write == []


def test_a_reduction_whose_buffer_is_reused_before_the_next_keeps_its_own_pass():
    # a norm gradient's two sums (DeepNormGrad's d_var and d_mean): the row program reduces S2, then writes S2 again
    # for the second sum; sharing a pass would fold S2's later value into the first accumulator
    from agent_graph.drafter import splitrow, sync

    body = ["Mul(S0, XI0[o], W3, cols_);", "Mul(S1, XI1[o], XI2[o], cols_);", "Muls(S2, S0, -0.5f, cols_);",
            "Mul(S3, S2, S1, cols_);", "ReduceSum<float>(SC0, S3, WK, cols_);", sync.VECTOR_TO_SCALAR,
            "float r1 = SC0.GetValue(0);", "Muls(S3, S0, -1.0f, cols_);", "ReduceSum<float>(SC0, S3, WK, cols_);",
            sync.VECTOR_TO_SCALAR, "float r2 = SC0.GetValue(0);", "Muls(S1, S1, r1, cols_);", "Adds(S1, S1, r2, cols_);"]
    sp = splitrow.analyse(body)
    assert [[r.name for r in p.reds] for p in sp.passes] == [["r1"], ["r2"]]
    assert sp.passes[0].vec[-1] == "Mul(S3, S2, S1, cn);"           # each pass computes its own S3
    assert sp.passes[1].vec == ["Mul(S0, XI0[o], W3, cn);", "Muls(S3, S0, -1.0f, cn);"]
    # two sums of different buffers still share one pass (a layer norm's sum of squares and of residuals)
    body[7] = "Muls(S2, S0, -1.0f, cols_);"
    body[8] = "ReduceSum<float>(SC0, S2, WK, cols_);"
    assert [[r.name for r in p.reds] for p in splitrow.analyse(body).passes] == [["r1", "r2"]]


def test_draft_renders_the_three_project_files():
    d = draft(SUITE / "softmax" / "kgen-task.toml")
    assert not isinstance(d, Unsupported)
    assert set(d.files) == {"op_host/softmax_custom.cpp", "op_host/softmax_custom_tiling.h", "op_kernel/softmax_custom.cpp"}
    k = d.files["op_kernel/softmax_custom.cpp"]
    assert "DataCopyPad" in k and "BUFFER_NUM = 2" in k and "#if" not in k  # fp16 and fp32 need the same code
    chain = draft(SUITE / "tanh_chain" / "kgen-task.toml").files["op_kernel/tanh_chain_custom.cpp"]
    assert "ORIG_DTYPE_X == DT_FLOAT16" in chain and "RH_half" in chain  # per-op rounding for fp16 only
    assert "GetCoreNumAiv" in d.files["op_host/softmax_custom.cpp"]


def test_instantiate_takes_the_parameter_dict():
    d = draft(SUITE / "relu" / "kgen-task.toml")
    from dataclasses import asdict

    files = instantiate("flat", asdict(d.plan.params))
    assert files == d.files
    with pytest.raises(ValueError, match="unknown template"):
        instantiate("conv", asdict(d.plan.params))


def test_op_type_names():
    assert op_type_for("softmax_fp16") == "SoftmaxFp16Custom"
    assert op_type_for("3d-add") == "Op3dAddCustom"
    assert op_type_for("hypot") == "HypotCustom"  # never a C library name


def test_comparisons_and_where_lower_to_compare_and_select():
    p = lower(_graph(lambda x, y: torch.where(x > y, x, 0.5) + (x <= 0.25).float(), torch.randn(4, 8), torch.randn(4, 8)))
    assert p.mode == "flat" and p.nmasks == 2
    assert any(ln.startswith("Compare(M0, XI0, XI1, CMPMODE::GT, (n + 63) / 64 * 64)") for ln in p.body)
    assert any(ln.startswith("Compares(M1, XI0,") and "CMPMODE::LE" in ln for ln in p.body)
    assert any("VSEL_TENSOR_SCALAR_MODE" in ln for ln in p.body)
    # a number on the left mirrors the mode: 0.5 < x is x > 0.5
    p = lower(_graph(lambda x: torch.where(0.5 < x, x, -x), torch.randn(4, 8)))
    assert any("CMPMODE::GT" in ln for ln in p.body)
    # a comparison as the output (a bool tensor): the mask as 0/1 values, stored as bool bytes by the output
    p = lower(_graph(lambda x: x > 0, torch.randn(4, 8)))
    assert p.outputs[0].kind == "vec" and any(ln.startswith("Compares(M0, XI0, static_cast<float>(0.0f)") or
                                             ln.startswith("Compares(M0, XI0,") for ln in p.body)
    assert any("VSEL_TENSOR_SCALAR_MODE" in ln for ln in p.body)


def test_native_half_only_for_nodes_that_are_exact_or_rounded_once():
    from agent_graph.drafter.native import native_exact
    assert native_exact(["Add(S0, XI0, XI1, n);"])
    assert native_exact(["Maxs(S0, XI0, -0.5f, n);", "Mins(S0, S0, 0.5f, n);"])       # clamp to half values
    assert not native_exact(["Maxs(S0, XI0, 0.1f, n);"])                            # 0.1 is not a half value
    assert not native_exact(["Mul(S1, XI1, XI2, n);", "Muls(S1, S1, 0.5f, n);", "Add(S0, XI0, S1, n);"])  # addcmul: one rounding in PyTorch
    assert not native_exact(["Div(S0, XI0, XI1, n);"])                              # half Div rounding not documented
    assert not native_exact(["Exp(S0, XI0, n);"])
    assert not native_exact(["Muls(S0, XI0, attr0_, n);"])                          # runtime scalar


@pytest.mark.parametrize("name,native", [("add", True), ("clamp", True), ("relu", True), ("addcmul", False),
                                         ("gelu", False), ("where_select", False)])
def test_flat_kernels_compute_fp16_natively_only_when_exact(name, native):
    from bench_bridge.tasks import load_task
    d = draft(load_task(SUITE / name / "kgen-task.toml"))
    assert not isinstance(d, Unsupported), str(d)
    src = next(v for k, v in d.plan.files.items() if k.startswith("op_kernel/"))
    assert ("using TC = half;" in src) == native
    assert "using TC = float;" in src                       # the float32/bfloat16 combinations
    # the last op writes the output-queue tensor when the output has the compute type: no UB->UB copy
    assert "SlotOrOut<TC>(yt0, sb" in src and "StoreOut(yt0, " in src
    host = next(v for k, v in d.plan.files.items() if k.startswith("op_host/") and k.endswith(".cpp"))
    assert ("CHUNK = 64" in host) == (name == "where_select")    # comparisons need whole float repeats


@pytest.mark.parametrize("name,kind", [("row_sum", "Sum"), ("row_mean", "Sum"), ("row_amax", "Max"), ("row_min", "Min"),
                                       ("softmax", None), ("argmax", None)])
def test_pure_row_reductions_reduce_a_whole_tile_with_two_instructions(name, kind):
    from bench_bridge.tasks import load_task
    d = draft(load_task(SUITE / name / "kgen-task.toml"))
    assert not isinstance(d, Unsupported), str(d)
    src = next(v for k, v in d.plan.files.items() if k.startswith("op_kernel/"))
    host = next(v for k, v in d.plan.files.items() if k.startswith("op_host/") and k.endswith(".cpp"))
    if kind is None:
        assert "BlockReduce" not in src and "(cols + 16 - 1) / 16 * 16" in host
        return
    assert f"BlockReduce{kind}<float>(WK[q * 8], XI0[q * 64], k, 64, 1, 1, 8);" in src
    assert f"WholeReduce{kind}<float>(RO0[q]" in src
    assert "if (cols_ <= 512 && colsPad_ % 64 == 0)" in src            # longer rows keep the per-row loop
    assert "(cols + 64 - 1) / 64 * 64" in host                          # 256-byte float row pitch
    pad = {"Sum": "0", "Max": "-INFINITY", "Min": "INFINITY"}[kind]
    assert f"RightPad<TI0>(cols_), static_cast<TI0>({pad})" in src       # a row's last block padded with the neutral value
    assert ("Muls(RO0, RO0, 1.0f / static_cast<float>(cols_), n);" in src) == (name == "row_mean")


def test_drafts_are_the_same_on_every_run():
    # the build cache is keyed by content: string-hash order (PYTHONHASHSEED) must not move slots around
    import subprocess
    import sys
    code = ("from pathlib import Path; from agent_graph.drafter import draft; from bench_bridge.tasks import load_task; "
            "d = draft(load_task(Path(r'%s'))); print(d.plan.files['op_kernel/hypot_custom.cpp'])" % (SUITE / "hypot" / "kgen-task.toml"))
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300,
                           env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2, 3, 4)}
    assert len(outs) == 1


def test_a_division_by_a_power_of_two_is_one_multiply(tmp_path):
    """x / 2^k equals x * 2^-k bit for bit (both round the same exact quotient): one Muls by the inverse, no tile
    of the divisor; any other divisor (3, an attribute, a value whose inverse leaves the normal range) keeps Div.
    Both drafted and verified against PyTorch's division in float16 and float32."""
    from agent_graph.drafter.vecops import exact_inverse
    from tests.agent_graph.drafter_checks import assert_verified, write_reference

    assert [exact_inverse(s) for s in ("2.0f", "0.25f", "-8.0f", "1.0f")] == ["0.5f", "4.0f", "-0.125f", "1.0f"]
    assert [exact_inverse(s) for s in ("3.0f", "0.1f", "attr0_", "(a / b)", "0.0f", "1e-45f")] == [None] * 6
    for divisor, kept in (("4", False), ("3", True)):
        d = tmp_path / divisor
        d.mkdir()
        ref = write_reference(d, f"torch.tanh(x) / {divisor}", "torch.randn(3, 70).half()")
        kernel = next(t for p, t in assert_verified(ref, d).plan.files.items() if p.startswith("op_kernel/"))
        assert ("Div(" in kernel) == kept and ("0.25f" in kernel) != kept, kernel


def test_mish_is_one_exp_and_one_divide_and_logsigmoid_keeps_its_negation(tmp_path):
    """mish(x) = x * tanh(softplus(x)) is drafted as x * m / (m + 2) with m = e (e + 2), e = exp(min(x, 20)): no
    Ln, no Tanh, and x read as it is (no ``Muls(t, x, 1.0f)`` copy); logsigmoid keeps its one negation. Verified
    against PyTorch in float32 over x in about [-60, 60] (past softplus's threshold of 20 both ways) and bfloat16."""
    from tests.agent_graph.drafter_checks import assert_verified, write_reference

    for name, body, inputs in (("mish", "F.mish(x) * 2", "torch.randn(4, 50) * 15"),
                               ("logsig", "F.logsigmoid(x)", "torch.randn(3, 33).to(torch.bfloat16) * 8")):
        d = tmp_path / name
        d.mkdir()
        kernel = next(t for p, t in assert_verified(write_reference(d, body, inputs), d).plan.files.items()
                      if p.startswith("op_kernel/"))
        assert not re.search(r"Muls\(\w+, \w+, 1\.0f,", kernel), kernel
        if name == "mish":
            assert "Ln(" not in kernel and "Tanh(" not in kernel and kernel.count("Exp(") == 1, kernel
        else:
            assert "Abs(" in kernel and re.search(r"Muls\(\w+, \w+, -1\.0f,", kernel), kernel
