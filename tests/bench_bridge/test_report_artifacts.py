"""The bench report names the files a profile leaves (``artifacts``, docs/report-schema.md version 2):
the Chrome trace and the timeline PNG of every profiled case and the build folder, written where they
outlive the bench process. Real ``kgen bench`` runs of examples/add/add.asc and of an NPUKernelBench
task; the trace's contents are checked against figures computed by hand from the kernel's sizes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bench_bridge import artifacts as arts_mod
from bench_bridge import perf
from bench_bridge.bench import BenchOptions, bench
from bench_bridge.perf import chrome_trace
from bench_bridge.perf.events import synthetic
from bench_bridge.report import SCHEMA_VERSION, BenchReport, CaseReport, render_text

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add" / "add.asc"
SCALED_ADD = ROOT / "tests" / "data" / "tasks" / "npukb_scaled_add"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=900)


@pytest.fixture(scope="module")
def add_profiled():
    r = kgen("bench", str(ADD), "--profile", "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    return json.loads(r.stdout)


def test_profiled_report_names_a_trace_a_picture_and_the_build(add_profiled):
    rep = add_profiled
    assert rep["schema_version"] == SCHEMA_VERSION == 2
    a = rep["artifacts"]
    assert a["case_id"] == "0" and set(a["cases"]) == {"0"}
    assert a["cases"]["0"] == {"trace": a["trace"], "timeline_png": a["timeline_png"]}
    folder = Path(a["dir"])
    assert Path(a["trace"]).parent == folder and Path(a["timeline_png"]).parent == folder
    assert (Path(a["build_dir"]) / "a.out").is_file()          # the emulator executable of this bench
    with Image.open(a["timeline_png"]) as img:
        assert img.format == "PNG" and img.size[0] >= 800


def test_the_trace_is_this_kernels_modelled_timeline(add_profiled):
    """add.asc: 8 blocks x 8 tiles of 1024 halfs; x and y copied in (2 x 131072 bytes), z out (131072)."""
    doc = json.loads(Path(add_profiled["artifacts"]["trace"]).read_text())
    assert chrome_trace.validate(doc) == []
    spans = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    by_cat = lambda cat: [e for e in spans if e.get("cat") == cat]     # noqa: E731
    assert sum(e["args"]["bytes"] for e in by_cat("MTE2")) == 2 * 8 * 8 * 1024 * 2
    assert sum(e["args"]["bytes"] for e in by_cat("MTE3")) == 8 * 8 * 1024 * 2
    assert [e["name"] for e in by_cat("V")] == ["Add"] * 64
    cores = {e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "process_name"} - {"kernel launches"}
    assert cores == {f"core {c}" for c in range(8)}
    # the timeline ends when the report says the kernel ends (launch overhead included)
    end = max(e["ts"] + e["dur"] for e in spans)
    assert end == pytest.approx(add_profiled["cases"][0]["performance"]["modelled_us"], rel=1e-9)


def test_human_output_says_where_the_trace_is():
    r = kgen("bench", str(ADD), "--profile")
    assert r.returncode == 0, r.stderr
    (line,) = [ln for ln in r.stdout.splitlines() if ln.startswith("trace: ")]
    path = line[len("trace: "):].removesuffix(" (open in Perfetto / chrome://tracing)")
    assert line.endswith("(open in Perfetto / chrome://tracing)") and Path(path).is_file()
    (png,) = [ln[len("timeline: "):] for ln in r.stdout.splitlines() if ln.startswith("timeline: ")]
    assert Path(png).read_bytes()[:8] == PNG_MAGIC


def test_without_profile_only_the_build_is_named():
    r = kgen("bench", str(ADD), "--json")
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)["artifacts"]
    assert a["trace"] is None and a["timeline_png"] is None and a["dir"] is None and a["cases"] == {}
    assert (Path(a["build_dir"]) / "a.out").is_file()
    assert "trace: " not in kgen("bench", str(ADD)).stdout


@pytest.mark.slow
def test_every_profiled_case_of_a_task_has_its_files_in_the_given_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "case-old.trace.json").write_text("{}")          # a previous bench's case: not this report's
    (out / "notes.txt").write_text("mine")
    rep = bench(SCALED_ADD, BenchOptions(profile=True, artifacts_dir=out))
    assert rep.correct, render_text(rep)
    a = rep.artifacts
    assert a.dir == str(out.resolve()) and a.case_id == "0"
    assert sorted(a.cases) == ["0", "1", "2"]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["notes.txt"] + [f"case-{i}.trace.json" for i in range(3)] + [f"case-{i}.timeline.png" for i in range(3)])
    assert rep.cases[0].block_dim == 32        # 8 x 1000 halfs in 256-element chunks -> 32 blocks
    for case in rep.cases:
        files = a.cases[case.case_id]
        doc = json.loads(Path(files["trace"]).read_text())
        blocks = {e["args"]["block"] for e in doc["traceEvents"] if e.get("cat") == "block"}
        assert len(blocks) == case.block_dim, case.case_id     # the trace is this case's launch (its TilingFunc's blockDim)
        assert Path(files["timeline_png"]).read_bytes()[:8] == PNG_MAGIC
    # the JSON round trip keeps them, and the human table names the first case's and counts the others
    back = BenchReport(**{**json.loads(rep.to_json()), "cases": []})
    assert back.artifacts == a
    text = render_text(rep)
    assert f"trace: {a.trace} (open in Perfetto / chrome://tracing)" in text
    assert f"(+ the trace and timeline of 2 more case(s) in {a.dir})" in text


def _toy_perf():
    ev = [("DataCopy", "MTE2", 4096, 1, 0, 0, 2), ("Add", "V", 4096, 16, 0, 0, 2), ("DataCopy", "MTE3", 4096, 1, 0, 0, 2)]
    return perf.model_launches([synthetic(ev * 2, blocks=2, kernel="toy")])


def test_run_folders_in_the_cache_are_fresh_and_the_oldest_are_pruned(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(arts_mod, "KEEP_RUNS", 3)
    made = []
    for _ in range(5):
        w = arts_mod.ArtifactWriter("Odd name/1")
        w.add_case("tail<1>", _toy_perf())
        made.append(Path(w.artifacts.dir))
        assert Path(w.artifacts.trace).name == "case-tail_1.trace.json"
    assert len(set(made)) == 5 and all(p.name.startswith("Odd_name_1-") for p in made)
    assert set((tmp_path / "cache" / "bench").iterdir()) == set(made[-3:])
    # and fewer when together they would be too big: only the newest run and those that fit are kept
    one = sum(f.stat().st_size for f in made[-1].iterdir())
    monkeypatch.setattr(arts_mod, "KEEP_BYTES", int(one * 1.5))
    w = arts_mod.ArtifactWriter("Odd name/1")
    w.add_case("0", _toy_perf())
    assert set((tmp_path / "cache" / "bench").iterdir()) == {made[-1], Path(w.artifacts.dir)}


def test_case_ids_that_read_the_same_get_their_own_files(tmp_path):
    w = arts_mod.ArtifactWriter("t", tmp_path / "o")
    w.add_case("a/b", _toy_perf())
    w.add_case("a b", _toy_perf())
    assert [Path(w.artifacts.cases[c]["trace"]).name for c in ("a/b", "a b")] == ["case-a_b.trace.json",
                                                                                  "case-a_b-2.trace.json"]
    assert w.artifacts.trace == w.artifacts.cases["a/b"]["trace"]


def test_a_version_1_report_still_loads_and_renders():
    v1 = {"schema": "kgen.bench-report", "schema_version": 1, "task": "t", "task_format": "kernel-launch", "path": "/p",
          "backend": "sim", "project": None, "compiled": True, "correct": True, "message": "", "seconds": 0.1,
          "build_diagnostics": [], "performance": None,
          "cases": [CaseReport(case_id="0", params={}, input_shapes=[], dtypes=[], status="pass")]}
    rep = BenchReport(**v1)
    assert rep.artifacts.trace is None and "trace: " not in render_text(rep)
