"""The tile DSL (docs/dsl.md): invalid programs get one line naming the line and the mistake; the UB budget
the host sizes tiles with is the one the kernel allocates; example programs lower to projects that build
and verify on the emulator on every case."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent_graph.drafter import prebuild
from agent_graph.drafter.dsl import DslError, find_program, lower, lower_text, parse, write_project
from agent_graph.drafter.dsl import budget
from agent_graph.drafter.dsl.lang import Kernel
from bench_bridge.api import soc_facts
from bench_bridge.bench import BenchOptions, bench

DATA = Path(__file__).resolve().parents[1] / "data" / "dsl"
DOC = Path(__file__).resolve().parents[2] / "docs" / "dsl.md"

HEAD = 'k = Kernel("flat")\nx = k.input(["float32"])\ny = k.output(x)\nxt = k.tile(x)\nyt = k.tile(y)\n'


@pytest.mark.parametrize("body, expected", [
    ("k.exp(yt, xt\n", "line 6: syntax error"),
    ("import os\nos.system('true')\n", "line 7: only calls of the kernel's methods"),
    ("for i in range(3):\n    k.exp(yt, xt)\n", "line 6: For statements are not allowed"),
    ("k.exp(yt, zt)\n", "line 6: zt is not defined"),
    ("k.exp(xt, yt)\n", "line 6: exp(): xt is an input tile (read-only)"),
    ("k.evaluate(yt, xt)\n", "line 6: k.evaluate is not a DSL method"),
    ('h = k.ub("float16")\nk.cast(h, xt)\nk.add(yt, xt, h)\n', "line 8: add(): yt and h have different element types (float32 vs float16)"),
    ("m = k.reduce_max(xt)\n", "line 6: reduce_max(): row reductions need the rows schedule"),
    ("k.adds(yt, xt, xt)\n", "line 6: adds(): a scalar operand must be a number"),
    ("k.muls(yt, xt, 1.0 / 0)\n", "line 6: division by zero"),
    ("k.exp(yt, xt, __import__('os'))\n", "line 6: Call expressions are not allowed"),
    ("k.exp(yt, xt)\nt = k.ub(\"float32\")\n", "line 7: buffer t must be declared"),
    ("", "line 5: the output tile yt is never written"),
    ('t = k.ub("float32")\nk.add(t, t, xt)\n', "line 7: add(): t is read before any statement writes it"),
    ('k.exp(yt, xt)\nrow = 1\n', "line 7: row = ...: the right side must be a k.<method>(...) call"),
])
def test_invalid_programs_name_the_line(body, expected):
    with pytest.raises(DslError) as e:
        lower_text(HEAD + body, "BadCustom")
    msg = str(e.value)
    assert expected in msg and "\n" not in msg, msg


def test_program_start_and_tensor_rules():
    with pytest.raises(DslError, match=r"line 1: the program starts with k = Kernel"):
        parse('x = 1\n')
    with pytest.raises(DslError, match=r"line 1: unknown schedule 'tiles'"):
        parse('k = Kernel("tiles")\n')
    with pytest.raises(DslError, match=r"line 3: y has 1 dtypes, the first input 2"):
        parse('k = Kernel("flat")\nx = k.input(["float32", "float16"])\ny = k.input(["float32"])\n')
    with pytest.raises(DslError, match=r"line 6: exp\(\): the vector unit does not compute in bfloat16"):
        parse('k = Kernel("flat")\nx = k.input(["bfloat16"])\ny = k.output(x)\nxt = k.tile(x)\nyt = k.tile(y)\n'
              'k.exp(yt, xt)\n')
    with pytest.raises(DslError, match=r"taken by the lowering"):
        parse('k = Kernel("rows")\nx = k.input(["float32"])\nrow = k.output(x)\n')


def test_budget_terms_are_the_kernels_buffers_and_the_socs_ub():
    k = parse((DATA / "softmax" / "program.dsl").read_text())
    files = lower(k, "SoftmaxRowsCustom")
    host = files["op_host/softmax_rows_custom.cpp"]
    kernel = files["op_kernel/softmax_rows_custom.cpp"]
    # the host's per-element bytes are the sum of the terms, one per InitBuffer of the kernel
    per = re.search(r"BYTES_PER_ELEM = ([0-9 +]+);", host).group(1)
    assert sum(int(v) for v in per.split("+")) == budget.per_elem(k) == 2 * 4 + 2 * 4 + 4 + 1
    assert kernel.count("pipe_.InitBuffer(") == len(budget.terms(k)) == 5
    for t in budget.terms(k):
        assert f"//   {t.why}" in host
        assert re.search(rf"InitBuffer\({t.name}(Queue_|Buf_)", kernel), t.name
    # a row that cannot fit the SoC's UB is refused with the numbers
    cap = soc_facts().ub_bytes
    with pytest.raises(DslError, match=rf"a row of 20000 elements needs \d+ bytes of the {cap} in UB"):
        budget.check(k, row_len=20000)
    budget.check(k, row_len=4000)


@pytest.mark.parametrize("name", ["gated_relu", "softmax", "rms_norm", "matmul"])
def test_emitted_kernels_are_reviewable(name):
    files = lower_text((DATA / name / "program.dsl").read_text(), "ReviewCustom")
    kernel, host = files["op_kernel/review_custom.cpp"], files["op_host/review_custom.cpp"]
    assert "PIPE_ALL" not in kernel and "PipeBarrier" not in kernel
    # every member, local and helper is used; every tiling field is read by the kernel
    for m in re.findall(r"^    (?:[\w:]+(?:<[^;]*>)?) (\w+_)(?: = [^;]+)?;", kernel, re.M):
        assert kernel.count(m) >= 2, m
    for local in re.findall(r"^ +(?:LocalTensor<\w+>|float|const float|u?int\d+_t) (\w+) = ", kernel, re.M):
        assert len(re.findall(rf"\b{local}\b", kernel)) >= 2, local
    if "ConvertTile" in kernel:
        assert kernel.count("ConvertTile(") >= 2
    for field in re.findall(r"TILING_DATA_FIELD_DEF\(uint32_t, (\w+)\);", files["op_host/review_custom_tiling.h"]):
        assert f"tiling.{field}" in kernel, field
        assert f"set_{field}(" in host, field
    # every host constant has its derivation in the comment lines above it (or above its group)
    lines = [ln.strip() for ln in host.splitlines()]
    for i, ln in enumerate(lines):
        if ln.startswith("constexpr "):
            j = i - 1
            while lines[j].startswith("constexpr "):
                j -= 1
            assert lines[j].startswith("//"), ln


def test_init_takes_the_tiling_struct():
    kernel = lower_text((DATA / "softmax" / "program.dsl").read_text(), "SoftmaxRowsCustom")["op_kernel/softmax_rows_custom.cpp"]
    assert "__aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxRowsCustomTilingData& tiling)" in kernel
    # the flat elementwise kernel declares no reduction machinery
    flat = lower_text((DATA / "gated_relu" / "program.dsl").read_text(), "GatedReluCustom")["op_kernel/gated_relu_custom.cpp"]
    assert "reduce" not in flat and "HardEvent" not in flat


def test_docs_examples_are_the_tested_programs():
    doc = DOC.read_text()
    for name in ("gated_relu", "softmax"):
        assert (DATA / name / "program.dsl").read_text().strip() in doc, name
    # the reply parser finds the last kgen-dsl block
    assert find_program("text\n```kgen-dsl\nA\n```\nmore\n```kgen-dsl\nB\n```\n") == "B\n"
    assert find_program("```cpp\nint x;\n```") is None


def test_python_embedded_program_lowers_like_its_text():
    k = Kernel("flat")
    x = k.input(["float32", "float16"], "x")
    gate = k.input(["float32", "float16"], "gate")
    y = k.output(x, "y")
    xt, gt, yt = k.tile(x, "xTile"), k.tile(gate, "gateTile"), k.tile(y, "yTile")
    xf, gf, act = k.ub("float32", "xf"), k.ub("float32", "gatef"), k.ub("float32", "act")
    k.cast(xf, xt)
    k.cast(gf, gt)
    k.relu(act, xf)
    k.mul(act, act, gf)
    k.muls(xf, xf, -0.25)
    k.add(act, act, xf)
    k.cast(yt, act)
    assert lower(k, "GatedReluCustom") == lower_text((DATA / "gated_relu" / "program.dsl").read_text(), "GatedReluCustom")


def _verify(name: str, op_type: str, tmp_path: Path, ncases: int) -> str:
    spec = DATA / name / "kgen-task.toml"
    files = lower_text((DATA / name / "program.dsl").read_text(), op_type)
    project = write_project(files, op_type, tmp_path / name, spec)
    builds = prebuild(project, jobs=1)
    assert builds and all(b.ok for b in builds), [d.format() for b in builds for d in b.diagnostics][:3]
    rep = bench(spec, BenchOptions(project=project, timeout=600))
    assert rep.compiled, rep.message
    assert rep.correct and [c.status for c in rep.cases] == ["pass"] * ncases, [(c.case_id, c.message) for c in rep.cases]
    return files[next(p for p in files if p.startswith("op_kernel/"))]


def test_elementwise_with_a_tail_builds_and_verifies(tmp_path):
    kernel = _verify("gated_relu", "GatedReluCustom", tmp_path, 2)
    assert "Relu(act, xf, count);" in kernel


def test_row_softmax_builds_and_verifies(tmp_path):
    kernel = _verify("softmax", "SoftmaxRowsCustom", tmp_path, 2)
    assert "ReduceMax(reduceOut, vals, reduceWork, count);" in kernel


@pytest.mark.slow
def test_rms_norm_with_the_row_length_builds_and_verifies(tmp_path):
    kernel = _verify("rms_norm", "RmsNormRowsCustom", tmp_path, 1)
    assert "const float rowLen = static_cast<float>(rowLen_);" in kernel


def test_matmul_block_builds_and_verifies(tmp_path):
    kernel = _verify("matmul", "MatmulBlockCustom", tmp_path, 2)
    assert "cube.IterateAll(cGm_);" in kernel and "KERNEL_TYPE_MIX_AIC_1_2" in kernel


def test_matmul_block_rules_and_l0c_budget():
    head = 'k = Kernel("matmul")\na = k.input(["float16"])\nb = k.input(["float16"])\nc = k.output(a)\n'
    l0c = soc_facts().l0c_bytes
    with pytest.raises(DslError, match=rf"line 5: L0C overflow: a 256 x 512 base block of float accumulators needs 524288 bytes of the {l0c}"):
        lower_text(head + "k.matmul(c, a, b, base_m=256, base_n=512)\n", "MmCustom")
    with pytest.raises(DslError, match=r"line 5: matmul\(\): base_n must be a positive multiple of 16"):
        lower_text(head + "k.matmul(c, a, b, base_n=100)\n", "MmCustom")
    with pytest.raises(DslError, match=r"line 5: tile at: the matmul schedule moves GM to GM"):
        lower_text(head + "at = k.tile(a)\n", "MmCustom")
    with pytest.raises(DslError, match=r"line 5: matmul\(\): c is an output"):
        lower_text(head + "k.matmul(a, c, b)\n", "MmCustom")
    files = lower_text(head + "k.matmul(c, a, b, transpose_b=True)\n", "MmCustom")
    assert "MatmulType<TPosition::GM, CubeFormat::ND, half, true>" in files["op_kernel/mm_custom.cpp"]
    assert "cube.SetFixSplit(128, 128, -1);" in files["op_host/mm_custom.cpp"]
