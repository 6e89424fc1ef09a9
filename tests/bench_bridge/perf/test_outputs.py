"""Chrome trace, PNG, cost-table document, eager op recording and the CLI."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench_bridge import perf
from bench_bridge.perf import chrome_trace
from bench_bridge.perf.costs import COST_FILE, load, to_markdown
from bench_bridge.perf.events import load_trace, synthetic

ROOT = Path(__file__).resolve().parents[3]
VECIN = 9 * 32 + 9


def _report():
    ev = [("AllocTensor", "S", 0, 0, 0, 1, 0, 64, VECIN), ("DataCopy", "MTE2", 8192, 1, 0, 0, 2),
          ("EnQue", "S", 0, 0, 4, 1, 0, 64, VECIN), ("DeQue", "S", 0, 0, 5, 1, 0, 64, VECIN),
          ("Add", "V", 8192, 32, 0, 0, 2), ("FreeTensor", "S", 0, 0, 0, 1, 0, 64, VECIN),
          ("DataCopy", "MTE3", 8192, 1, 0, 0, 2)] * 4
    return perf.model_launches([synthetic(ev, blocks=4, kernel="toy")])


def test_chrome_trace_is_valid_and_has_per_core_pipe_lanes(tmp_path):
    path = perf.write_chrome_trace(_report(), tmp_path / "t.json")
    doc = json.loads(path.read_text())
    assert chrome_trace.validate(doc) == []
    names = {(e["pid"], e["args"]["name"]) for e in doc["traceEvents"] if e["name"] == "thread_name"}
    for core in range(4):
        for lane in ("MTE2", "V", "MTE3"):
            assert (core + 1, lane) in names
    procs = {e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "process_name"}
    assert {"core 0", "core 3", "kernel launches"} <= procs
    spans = [e for e in doc["traceEvents"] if e["ph"] == "X" and e.get("cat") == "V"]
    assert len(spans) == 16 and all(e["name"] == "Add" for e in spans)


def test_validator_rejects_broken_traces():
    assert chrome_trace.validate([]) != []
    assert chrome_trace.validate({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": -1, "dur": 1}]})


def test_png_is_a_valid_image(tmp_path):
    pil = pytest.importorskip("PIL.Image")
    path = perf.write_png(_report(), tmp_path / "t.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pil.open(path) as img:
        img.verify()
    with pil.open(path) as img:
        assert img.size[0] >= 800 and img.size[1] >= 400
        assert len(img.convert("RGB").getcolors(maxcolors=1 << 20)) > 5     # not a blank picture


def test_every_cost_constant_has_a_unit_and_a_source_or_is_an_assumption():
    for soc in ("910B2", "910B4"):
        table = load(soc)
        assert table.entries()
        for e in table.entries():
            assert e.unit, e.name
            assert e.assumption or e.source.startswith("[ini-") or e.source.startswith("[facts]"), (e.name, e.source)
            if e.assumption:
                assert len(e.source) > len("assumption: ") + 10, f"{e.name}: an assumption needs a justification"
    text = COST_FILE.read_text()
    assert "hicann/runtime" in text and "Ascend910B2.ini" in text
    md = to_markdown(load("910B2"))
    assert "| `hbm_gbps` |" in md and "assumption" in md


def test_eager_baseline_of_torch_add_counts_three_tensors():
    torch = pytest.importorskip("torch")
    x = torch.randn(1000, dtype=torch.float32)
    y = torch.randn(1000, dtype=torch.float32)
    base = perf.eager_baseline(torch.add, x, y)
    assert len(base.ops) == 1 and base.ops[0].name == "add"
    assert base.ops[0].bytes == 3 * 1000 * 4
    assert base.input_bytes + base.output_bytes == 3 * 1000 * 4
    assert base.time_us > load().launch_overhead_us


def test_eager_chain_prices_each_op_as_a_kernel():
    torch = pytest.importorskip("torch")
    x = torch.randn(64, 64)
    w = torch.randn(64, 64)
    base = perf.eager_baseline(lambda a, b: torch.relu(a @ b + 1.0).sum(), x, w)
    names = [o.name for o in base.ops]
    assert names[0] == "mm" and base.ops[0].cube and base.ops[0].flops == 2 * 64 * 64 * 64
    assert "relu" in names and "sum" in names
    assert base.time_us == pytest.approx(sum(base.per_op_us))
    assert base.time_us >= len(base.ops) * load().launch_overhead_us


def test_old_traces_without_the_new_fields_still_load(tmp_path):
    p = tmp_path / "old.jsonl"
    p.write_text('{"launch":1,"kernel":"k","block":0,"ub_bytes":0,"events":[["DataCopy","MTE2",2048,0,0,0],'
                 '["Add","V",2048,8,0,0]]}\n')
    (ln,) = load_trace(p)
    assert ln.blocks[0].events[0].buf == -1 and ln.block_num == 1
    assert perf.profile(p).modelled_us > 0


def test_kgen_sim_run_profile(tmp_path):
    out = subprocess.run([sys.executable, "-m", "assistant.cli", "sim", "run", "--profile", "--trace-out",
                          str(tmp_path / "t.json"), "--png", str(tmp_path / "t.png"), str(ROOT / "examples/add/add.asc")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "modelled kernel time" in out.stdout and "PASS" in out.stdout
    assert chrome_trace.validate(json.loads((tmp_path / "t.json").read_text())) == []
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
