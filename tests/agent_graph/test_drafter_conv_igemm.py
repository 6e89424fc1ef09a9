"""2-D convolutions on the cube as an implicit GEMM (template conv_igemm, ``convigemm.py``): no im2col matrix in GM,
the vector cores write 5HD input-row records (zero-padded) and the weight as L0A fractals, the cube core builds L0B
from the rows in L1 and Fixpipes into y, the vector cores apply the epilogue in place. Team-written references
(padding, odd channel counts, a bias or none, per-channel and output-shaped epilogue tensors) drafted, built and
verified on every case; the modelled time against the im2col path; the convolutions that keep im2col."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, convigemm, draft, prebuild, write_project
from bench_bridge.bench import BenchOptions, bench
from tests.agent_graph.test_drafter_review import _unused


def _spec(tmp: Path, init: str, forward: str, sig: str, cases: list[tuple[str, str]]) -> Path:
    """A spec whose Model(*init) builds ``init`` (statements over its arguments ``cin, cout, k``) and returns
    ``forward``; each case is (TOML inputs, TOML init list)."""
    (tmp / "reference.py").write_text(textwrap.dedent(f"""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Model(nn.Module):
            def __init__(self, cin, cout, k):
                super().__init__()
                {init}

            def forward(self, {sig}):
                return {forward}
        """))
    entries = "".join(f'\n[[cases]]\nid = "c{i}"\ninputs = [{ins}]\ninit = {ini}\n' for i, (ins, ini) in enumerate(cases))
    spec = tmp / "kgen-task.toml"
    spec.write_text(f'name = "conv_igemm"\nreference = "reference.py"\nseed = 2\n{entries}')
    return spec


def _verified(spec: Path, out: Path, template: str = "conv_igemm") -> Path:
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == template and d.plan.category == ("convolution" if template != "staged" else d.plan.category)
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert _unused(kernel) == [] and "PIPE_ALL" not in kernel   # what a reviewer checks first (test_drafter_review)
    project = write_project(d.plan, out)
    builds = prebuild(project, jobs=2)
    assert builds and all(b.ok for b in builds), [g.format() for b in builds for g in b.diagnostics][:3]
    rep = bench(spec, BenchOptions(project=project, timeout=600))
    bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
    assert rep.compiled and rep.correct and not bad, bad or rep.message
    assert len(rep.cases) >= 2
    return project


def _x(*shape: int, dtype: str = "float32") -> str:
    return f'{{ shape = {list(shape)}, dtype = "{dtype}" }}'


@pytest.mark.parametrize("init, forward, sig, cases", [
    # nn.Conv2d with its bias and padding 1, mish: odd input and output channel counts (C0 and 16-row padding),
    # output rows narrower than one 16-column fractal
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1)", "F.mish(self.conv(x))", "x",
     [(_x(2, 17, 9, 13), "[17, 19, 3]"), (_x(1, 32, 16, 40), "[32, 48, 3]")]),
    # no bias in the convolution: a per-channel parameter added after it, relu, a scale and a tensor of the
    # output's shape; a 5 x 5 kernel over padding 1 and a 3 x 3 one
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1, bias=False); self.bias = nn.Parameter(torch.randn(cout, 1, 1))",
     "torch.relu(self.conv(x) + self.bias) * 0.5 + r", "x, r",
     [(f"{_x(2, 21, 11, 7)}, {_x(2, 33, 9, 5)}", "[21, 33, 5]"), (f"{_x(3, 16, 6, 30)}, {_x(3, 8, 6, 30)}", "[16, 8, 3]")]),
    # a residual that is the convolution's own input (x read by the records and by the epilogue), a one-element
    # forward input as the epilogue's scalar
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1)", "torch.sigmoid((self.conv(x) + x) * s)", "x, s",
     [(f"{_x(2, 16, 9, 13)}, {_x(1)}", "[16, 16, 3]"), (f"{_x(1, 24, 12, 20)}, {_x(1)}", "[24, 24, 3]")]),
    # forward floats (a slope and a scale, other values in each case): the epilogue reads them as runtime attributes
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1)", "F.leaky_relu(self.conv(x), slope) * alpha - alpha",
     "x, alpha: float, slope: float",
     [(f"{_x(2, 17, 9, 13)}, {{ value = 0.75 }}, {{ value = 0.2 }}", "[17, 19, 3]"),
      (f"{_x(1, 16, 8, 20)}, {{ value = -1.5 }}, {{ value = 0.1 }}", "[16, 24, 3]")]),
    # no bias and no epilogue: y is what Fixpipe writes (the vector cores convert rows only)
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1, bias=False)", "self.conv(x)", "x",
     [(_x(2, 16, 9, 13), "[16, 32, 3]"), (_x(1, 24, 12, 20), "[24, 48, 3]")]),
    # no padding, a 1 x 3 kernel, no epilogue besides the bias; 130 output channels over rows of 298 positions:
    # two column tiles per output row
    ("self.conv = nn.Conv2d(cin, cout, (1, k))", "self.conv(x)", "x",
     [(_x(2, 24, 5, 21), "[24, 40, 3]"), (_x(1, 40, 3, 300), "[40, 130, 3]")]),
])
def test_a_stride_1_convolution_is_an_implicit_gemm(tmp_path, monkeypatch, init, forward, sig, cases):
    monkeypatch.setattr(convigemm, "MIN_ROWS_PER_CORE", 0)   # small cases through the kernel's every branch
    _verified(_spec(tmp_path, init, forward, sig, cases), tmp_path / "out")


@pytest.mark.parametrize("init, forward, sig, cases", [
    # fp16: C0 = 16 channels a block (21 and 40 input channels: one padded block each), the per-channel parameter
    # and the output-shaped tensor widened to float, every op rounded to half as PyTorch rounds it
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1, bias=False).half(); "
     "self.bias = nn.Parameter(torch.randn(cout, 1, 1).half())",
     "torch.relu(self.conv(x) + self.bias) * 0.5 + r", "x, r",
     [(f"{_x(2, 21, 11, 7, dtype='float16')}, {_x(2, 33, 9, 5, dtype='float16')}", "[21, 33, 5]"),
      (f"{_x(3, 40, 6, 30, dtype='float16')}, {_x(3, 8, 6, 30, dtype='float16')}", "[40, 8, 3]")]),
    # bf16 with the convolution's own bias, mish
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1).to(torch.bfloat16)", "F.mish(self.conv(x))", "x",
     [(_x(2, 17, 9, 13, dtype="bfloat16"), "[17, 19, 3]"), (_x(1, 32, 16, 40, dtype="bfloat16"), "[32, 48, 3]")]),
])
def test_a_16_bit_convolution_sums_in_float_and_rounds_as_pytorch(tmp_path, monkeypatch, init, forward, sig, cases):
    """fp16 / bf16: the cube multiplies 16-bit fractals into float, Fixpipe writes the float product to the workspace
    and the vector cores compute the epilogue in float, rounding where PyTorch rounds and once into y."""
    monkeypatch.setattr(convigemm, "MIN_ROWS_PER_CORE", 0)
    _verified(_spec(tmp_path, init, forward, sig, cases), tmp_path / "out")


def test_padded_rows_and_columns_are_zero_records(tmp_path, monkeypatch):
    """Padding 2 on inputs of 3 rows (3 columns): most output rows read zero records (rows in the padding), every
    record has two zero positions at each end. The convolution's bias, read once by the epilogue, is one ``Adds`` per
    tile row (no tile of repeated bias values)."""
    spec = _spec(tmp_path, "self.conv = nn.Conv2d(cin, cout, k, padding=2)", "torch.tanh(self.conv(x))", "x",
                 [(_x(2, 16, 3, 5), "[16, 16, 3]"), (_x(2, 20, 7, 3), "[20, 24, 3]")])
    monkeypatch.setattr(convigemm, "MIN_ROWS_PER_CORE", 0)
    project = _verified(spec, tmp_path / "out")
    host = next((project / "op_host").glob("*.cpp")).read_text()
    assert "PAD_H = 2, PAD_W = 2" in host
    kernel = next((project / "op_kernel").glob("*.cpp")).read_text()
    assert re.search(r"Adds\(\w+\[k \* lenAl\], XI0\[k \* lenAl\], static_cast<float>\(cv1\.GetValue", kernel), kernel
    assert "Duplicate(XI1" not in kernel and "f1_" not in kernel


@pytest.mark.parametrize("init, forward, sig, cases", [
    # the minimum over channels (keepdim), then tanh twice: a reduction the epilogue does not take
    ("self.conv = nn.Conv2d(cin, cout, k)", "torch.tanh(torch.tanh(torch.min(self.conv(x), dim=1, keepdim=True)[0]))",
     "x", [(_x(2, 16, 9, 13), "[16, 24, 3]"), (_x(1, 17, 12, 20), "[17, 19, 3]")]),
    # a scale in the convolution's epilogue, then the sum over channels
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1)", "(self.conv(x) * 1.5).sum(dim=1)",
     "x", [(_x(2, 20, 7, 11), "[20, 32, 3]"), (_x(1, 16, 10, 9), "[16, 40, 3]")]),
    # a forward float in the epilogue (a runtime attribute the stage-1 TilingFunc reads through the staged op's
    # context: the template keyword), then the maximum over channels
    ("self.conv = nn.Conv2d(cin, cout, k, padding=1, bias=False)", "torch.amax(self.conv(x) * scale, dim=1)",
     "x, scale: float", [(f"{_x(2, 20, 7, 11)}, {{ value = 0.7 }}", "[20, 24, 3]"),
                         (f"{_x(1, 17, 10, 9)}, {{ value = -1.3 }}", "[17, 19, 3]")]),
])
def test_a_staged_op_starts_with_the_implicit_gemm(tmp_path, monkeypatch, init, forward, sig, cases):
    """A convolution followed by a reduction over channels: stage 1 is the implicit GEMM (MIX, its epilogue's
    prefix included), its result in the workspace; stage 2 the reduction, on every vector core after SyncAll."""
    monkeypatch.setattr(convigemm, "MIN_ROWS_PER_CORE", 0)
    spec = _spec(tmp_path, init, forward, sig, cases)
    project = _verified(spec, tmp_path / "out", template="staged")
    kernel = next((project / "op_kernel").glob("*.cpp")).read_text()
    assert "stage 1: ops: convolution2d (implicit GEMM on the cube" in kernel
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)" in kernel and "if ASCEND_IS_AIC {" in kernel


def test_blocks_of_many_rows_span_images(tmp_path):
    """Cube cores of several output rows each: 3 images of 29 rows over 24 cores (blocks that start in one image and
    end in the next: two segments in a block's input-row list), and 2 images of 216 rows of a 5 x 5 kernel (18 rows
    a core, 9 groups: the cube core waits on its vector cores once MAX_LAG groups are outstanding)."""
    spec = _spec(tmp_path, "self.conv = nn.Conv2d(cin, cout, k, padding=1)", "F.gelu(self.conv(x)) - 0.5", "x",
                 [(_x(3, 16, 29, 20), "[16, 24, 3]"), (_x(2, 18, 218, 6), "[18, 20, 5]")])
    _verified(spec, tmp_path / "out")


def _modelled_over_eager(spec: Path, project: Path) -> float:
    """The performance model's time of the largest case over its eager time."""
    from agent_graph.drafter import measure
    from bench_bridge.tasks import load_task
    m = measure.modelled(load_task(spec), project)
    assert "error" not in m, m
    return m["kernel_us"] / m["eager_us"]


def test_the_implicit_gemm_is_modelled_faster_than_im2col(tmp_path, monkeypatch):
    """conv2d 64 -> 128 channels, 3 x 3, padding 1, then mish twice on [2, 64, 128, 128]: the im2col path writes and
    reads a matrix nine times the input; the implicit GEMM reads the input about once. Both drafted, built, verified
    and modelled (the planner picks the implicit GEMM by itself; figures in docs/drafter.md)."""
    spec = _spec(tmp_path, "self.conv = nn.Conv2d(cin, cout, k, padding=1)", "F.mish(F.mish(self.conv(x)))", "x",
                 [(_x(2, 64, 128, 128), "[64, 128, 3]"), (_x(1, 24, 5, 9), "[24, 40, 3]")])
    igemm = _modelled_over_eager(spec, _verified(spec, tmp_path / "igemm"))
    monkeypatch.setattr(convigemm, "MIN_CHANNELS", 1 << 20)   # the im2col path, as for a convolution of few channels
    im2col = _modelled_over_eager(spec, _verified(spec, tmp_path / "im2col", template="cube"))
    assert igemm < 0.8 * im2col, (igemm, im2col)


@pytest.mark.parametrize("init, x, why", [
    ("self.conv = nn.Conv2d(cin, cout, k)", _x(4, 3, 40, 40), "few input channels"),
    ("self.conv = nn.Conv2d(cin, cout, k, stride=2)", _x(4, 32, 40, 40), "a stride"),
    ("self.conv = nn.Conv2d(cin, cout, k, dilation=2)", _x(4, 32, 40, 40), "a dilation"),
    ("self.conv = nn.Conv2d(cin, cout, k)", _x(1, 32, 20, 20), "18 output rows for 24 cube cores"),
])
def test_im2col_keeps(tmp_path, init, x, why):
    """Few input channels (a short K), a stride or a dilation, few output rows a cube core: the im2col path
    (template cube)."""
    cin = 3 if ", 3, 40" in x else 32
    spec = _spec(tmp_path, init, "torch.relu(self.conv(x))", "x", [(x, f"[{cin}, 32, 3]")])
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == "cube", why


def test_the_fits_check_refuses_what_the_host_refuses():
    """The planner's mirror of the host's buffer checks: a weight too large for L1 with its row slots, more output
    channels than one L0A chunk buffer takes, a kernel of more rows than the row slots' event ids."""
    assert convigemm.fits((1, 64, 32, 32), (128, 64, 3, 3), (1, 1), 16, 1) == ""
    assert "L1" in convigemm.fits((1, 512, 32, 32), (256, 512, 3, 3), (1, 1), 16, 1)
    assert "output channels" in convigemm.fits((1, 16, 32, 32), (1024, 16, 3, 3), (1, 1), 16, 1)
    assert "8-row kernel" in convigemm.fits((1, 16, 32, 32), (32, 16, 8, 8), (0, 0), 16, 1)
