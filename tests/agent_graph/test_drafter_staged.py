"""Staged ops (``agent_graph/drafter/stages.py``): a convolution with the epilogue chain its template takes, then
the rest of the reference (a pool, a norm, a reduction over the spatial dimensions) planned as a second stage by
the ordinary planners, in one kernel; built and verified on the emulator against PyTorch, and the refusals."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft, write_project
from agent_graph.drafter.stages import split_after
from bench_bridge.bench import BenchOptions, bench
from tests.agent_graph.drafter_checks import write_reference

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"


def _drafted(name: str, template: str) -> tuple:
    """The suite reference's spec, its draft (of ``template``) and the drafted kernel's text."""
    spec = SUITE / name / "kgen-task.toml"
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == template
    return spec, d, d.files[next(p for p in d.files if p.startswith("op_kernel/"))]


def _verified(spec: Path, d, tmp_path: Path) -> None:
    project = write_project(d.plan, tmp_path / "project")
    rep = bench(spec, BenchOptions(project=project, timeout=600))
    bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
    assert rep.compiled and rep.correct and not bad, bad or rep.message


@pytest.mark.parametrize("name, first, second", [
    # relu: the conv's epilogue; both convolutions on the cube (im2col + matmul, convcube.plan_first_stage)
    ("staged_conv2d_relu_maxpool", "convolution2d (im2col + matmul on the cube) -> relu", "max_pool2d kernel [2, 2]"),
    ("staged_conv2d_groupnorm", "convolution2d (im2col + matmul on the cube)", "layer_norm -> tanh"),   # groups as rows
    ("staged_convt2d_mean_bias", "conv_transpose2d (im2col + matmul on the cube)", "mean -> add"),   # [C, 1, 1]: stage 2
    ("staged_conv1d_bf16_layernorm", "convolution1d", "layer_norm"),      # bf16: the intermediate in bf16, as PyTorch
])
def test_staged_ops_verify(name, first, second, tmp_path):
    spec, d, kernel = _drafted(name, "staged")
    assert f"stage 1: ops: {first}: " in kernel and f"stage 2: ops: {second}" in kernel and "SyncAll();" in kernel
    _verified(spec, d, tmp_path)


def _ref(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "ref.py"
    p.write_text(textwrap.dedent("""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(2, 4, 3)
                self.scale = nn.Parameter(torch.randn(4, 1, 1))

            def forward(self, x):
        """) + textwrap.indent(textwrap.dedent(body), " " * 8) + textwrap.dedent("""

        def get_inputs():
            return [torch.randn(2, 2, 8, 9)]


        def get_init_inputs():
            return []
        """))
    return p


def test_second_stage_module_reads_the_intermediate_first(tmp_path):
    """The split: the ops after the node as a module whose input 0 is its value, the module tensors it reads
    (not of one value) as further inputs, in order."""
    import importlib.util
    path = _ref(tmp_path, "y = self.conv(x)\nreturn F.avg_pool2d(y * self.scale, 2)")
    spec = importlib.util.spec_from_file_location("ref", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    model = mod.Model()
    x = mod.get_inputs()[0]
    split = split_after(model, [x], "convolution")
    assert [k for k, _ in split.sources] == ["inter", "param"] and split.sources[1][1] == "scale"
    inter, scale = split.inputs
    assert list(inter.shape) == [2, 4, 6, 7]
    import torch
    with torch.no_grad():
        want = model(x)
        got = split.module(inter, scale)
    got = got[0] if isinstance(got, (tuple, list)) else got
    assert torch.allclose(got, want)


@pytest.mark.parametrize("body, words", [
    ("return torch.median(self.conv(x), dim=1)[0]",     # (a sort over channels is a second stage now)
     "after the convolution: core op aten.median.dim is not covered by the templates"),
    # (a cumsum over the channels is a col-template scan now)
    ("return torch.logcumsumexp(self.conv(x), dim=1)", "after the convolution: core op aten.logcumsumexp"),
])
def test_refusals_name_the_second_stage(tmp_path, body, words):
    d = draft(_ref(tmp_path, body))
    assert isinstance(d, Unsupported)
    assert words in str(d) and not d.user_error


@pytest.mark.parametrize("name", ["col_softmax_channels", "col_logsumexp_relu"])
def test_softmax_and_logsumexp_over_an_inner_dimension(name, tmp_path):
    """Softmax / logsumexp over the channels (not the last dimension): the col template's passes for the maximum,
    the sum of exp(x - max) and the values, vectorised along the positions; checked against PyTorch (fp32, fp16)."""
    spec, d, _ = _drafted(name, "col")
    assert d.plan.params.extra["mode"] in (1, 3)
    _verified(spec, d, tmp_path)


def test_inner_reduction_with_an_elementwise_epilogue(tmp_path):
    """torch.min over the channels (values only), then tanh, clamp and a scale on the reduced values (col
    template, the epilogue before the store); a 16-bit epilogue runs in a stage of its own (PyTorch rounds after
    every op)."""
    spec, d, kernel = _drafted("col_min_tanh_scale", "col")
    assert "Maxs(acc, acc, -0.5f, len);" in kernel and "Muls(acc, acc, 3.0f, len);" in kernel
    _verified(spec, d, tmp_path)
    ref = tmp_path / "half.py"
    ref.write_text(textwrap.dedent("""\
        import torch


        class Model(torch.nn.Module):
            def forward(self, x):
                return torch.sigmoid(x.amax(dim=1))


        def get_inputs():
            return [torch.randn(2, 5, 16).half()]
        """))
    staged = draft(ref)    # the reduction a stage of its own (rounded to float16 as PyTorch does), sigmoid another
    assert not isinstance(staged, Unsupported) and staged.plan.template == "staged", staged


def test_pooling_with_elementwise_chains_before_and_after(tmp_path):
    """hardswish(x - shift) before a max pool with padding (the padding stays -inf: the chain runs on the row's
    elements only), mish and a scale after it; checked against PyTorch."""
    spec, d, kernel = _drafted("pool_hardswish_max_mish", "pool")
    assert "// the ops before the pooling" in kernel and "// the ops after the pooling" in kernel
    _verified(spec, d, tmp_path)


def test_vector_ops_no_template_takes_whole_run_in_stages(tmp_path):
    """With no convolution or matmul: an Lp pool (a sum pool of x ** p, then a root) and a group norm whose weight
    and bias are forward tensors (suite group_norm_affine_inputs verifies it) are two vector stages."""
    d = draft(write_reference(tmp_path, "F.lp_pool2d(x, 2, 2)", "torch.randn(2, 3, 8, 10)"))
    assert not isinstance(d, Unsupported), str(d)
    kernel = d.files[next(p for p in d.files if p.startswith("op_kernel/"))]
    assert d.plan.template == "staged" and "stage 1: " in kernel and "stage 2: " in kernel and "SyncAll();" in kernel
    _, gn, kernel = _drafted("group_norm_affine_inputs", "staged")
    assert "stage 1: ops: layer_norm" in kernel and "its result to the workspace" in kernel


@pytest.mark.parametrize("dtype", ["half", "bfloat16"])
def test_a_16_bit_group_norm_with_a_per_channel_weight_keeps_its_normalised_value_in_float(dtype, tmp_path):
    """In fp16 / bf16 the group norm and its per-channel affine run in float32 and the result is rounded once, as
    PyTorch computes it: stage 1 normalises the groups and keeps its result in float32 in the workspace, stage 2
    scales and shifts it and rounds (refused before: reading a rounded normalised value was 2-4 ulp off)."""
    d = draft(write_reference(tmp_path, "F.group_norm(x, 2, w, b)",
                              f"torch.randn(2, 4, 6, 6).{dtype}() * 3 + 1, torch.rand(4).{dtype}() + 0.5, "
                              f"torch.randn(4).{dtype}()", sig="x, w, b"))
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == "staged"
    kernel = d.files[next(p for p in d.files if p.startswith("op_kernel/"))]
    assert "stage 1: ops: cast -> layer_norm" in kernel and "stage 2: " in kernel
    project = write_project(d.plan, tmp_path / "project")
    rep = bench(tmp_path / "ref.py", BenchOptions(project=project, timeout=600))
    assert rep.compiled and rep.correct, [(c.case_id, c.message) for c in rep.cases] or rep.message

def test_a_group_norm_of_weights_widened_before_they_are_viewed_per_channel_verifies(tmp_path):
    """npukb_group_norm_inputs (NPUKernelBench's GroupNormSwish spelling): ``F.group_norm(x.float(), g,
    gamma.float(), beta.float())`` of float32 / float16 / bfloat16 inputs, then SiLU. The per-channel weight
    reaches its [1, C, 1, 1] view through a cast; refused before ("a group norm's per-channel tensor is not
    covered"): only a reshape led from an input to the shape it broadcasts at."""
    from tests.agent_graph.drafter_checks import assert_verified
    d = assert_verified(Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_group_norm_inputs", tmp_path)
    assert d.plan.template == "staged"


def test_vector_stages_read_the_forwards_floats_as_attributes(tmp_path):
    # two results no template computes together (a row result, a column sum of a product: vector stages), and a
    # float forward argument with another value in each case (DeepNormGrad's alpha): every stage reads the numbers
    # that follow it as the op's float attribute; refused before ("scalar forward arguments ... a stage reads none")
    from tests.agent_graph.drafter_checks import assert_verified, write_spec

    t = '{{ shape = {}, dtype = "{}" }}'
    body = "[x * alpha + (x * w).sum(-1, keepdim=True), (x * (1.0 - alpha) * w).sum(0)]"
    cases = [[t.format([16, 64], "float32"), t.format([64], "float32")],
             [t.format([8, 64], "float32"), t.format([64], "float32")],
             [t.format([24, 40], "float16"), t.format([40], "float16")]]
    d = assert_verified(write_spec(tmp_path, body, "x, w, alpha", cases, args=[[0.5], [1.75], [-0.25]]),
                        tmp_path / "out")
    assert d.plan.template == "staged"
    host = next(v for k, v in d.plan.files.items() if k.startswith("op_host/") and k.endswith(".cpp"))
    assert 'this->Attr("alpha")' in host and host.count("GetAttrPointer<float>(0)") >= 2   # two stages read it
    assert "1 - alpha" in host      # 1.0 - alpha: a number of the host's, in double
