"""``kgen generate -o DIR --profile``: the generated project folder holds its report.json and, in
``DIR/profile/``, every case's Chrome trace and timeline picture; the report names them there and the
printed summary says where they are. A later run without a profile leaves no stale pictures behind.
Real ``kgen generate --offline`` runs of examples/tasks/add (the offline drafter, the emulator)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench_bridge.perf import chrome_trace

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CASES = ("fp16-multicore", "fp32-tail")       # the example spec's shape cases

pytestmark = pytest.mark.slow


def _kgen(data: Path, *args: str, cmd: str = "generate") -> subprocess.CompletedProcess:
    env = {**os.environ, "KGEN_DATA_DIR": str(data)}
    env.pop("KGEN_LLM_URL", None)
    return subprocess.run([sys.executable, "-m", "assistant.cli", cmd, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=1200)


@pytest.fixture(scope="module")
def profiled(tmp_path_factory):
    base = tmp_path_factory.mktemp("gen")
    out = base / "out"
    r = _kgen(base / "data", str(EXAMPLE), "--offline", "--profile", "-o", str(out))
    assert r.returncode == 0, r.stderr[-3000:]
    return base, out.resolve(), r


def test_the_project_folder_holds_the_report_and_every_cases_trace_and_picture(profiled):
    _, out, _ = profiled
    rep = json.loads((out / "report.json").read_text())
    assert rep["correct"] and [c["case_id"] for c in rep["cases"]] == list(CASES)
    a = rep["artifacts"]
    assert a["dir"] == str(out / "profile") and a["case_id"] == CASES[0]
    assert sorted(p.name for p in (out / "profile").iterdir()) == sorted(
        f"case-{c}{ext}" for c in CASES for ext in (".trace.json", ".timeline.png"))
    assert a["trace"] == a["cases"][CASES[0]]["trace"] and a["timeline_png"] == a["cases"][CASES[0]]["timeline_png"]
    for case in rep["cases"]:
        files = a["cases"][case["case_id"]]
        assert files == {"trace": str(out / "profile" / f"case-{case['case_id']}.trace.json"),
                         "timeline_png": str(out / "profile" / f"case-{case['case_id']}.timeline.png")}
        doc = json.loads(Path(files["trace"]).read_text())
        assert chrome_trace.validate(doc) == []
        blocks = {e["args"]["block"] for e in doc["traceEvents"] if e.get("cat") == "block"}
        assert len(blocks) == case["block_dim"], case["case_id"]     # this case's own launch
        assert Path(files["timeline_png"]).read_bytes()[:8] == PNG_MAGIC


def test_the_printed_summary_names_the_report_the_trace_and_the_picture(profiled):
    _, out, r = profiled
    lines = r.stdout.splitlines()
    assert f"trace: {out / 'profile' / f'case-{CASES[0]}.trace.json'} (open in Perfetto / chrome://tracing)" in lines
    assert f"timeline: {out / 'profile' / f'case-{CASES[0]}.timeline.png'}" in lines
    assert f"(+ the trace and timeline of 1 more case(s) in {out / 'profile'})" in lines
    assert lines[-1] == f"report: {out / 'report.json'}"


def test_the_run_folder_keeps_its_own_copy(profiled):
    base, out, _ = profiled
    (run,) = (base / "data" / "runs").iterdir()
    (round_report,) = (run / "rounds").glob("*/report.json")
    a = json.loads(round_report.read_text())["artifacts"]
    assert Path(a["dir"]) == round_report.parent / "profile"           # where the verify step wrote them
    assert Path(a["trace"]).is_file() and Path(a["timeline_png"]).is_file()
    assert (run / "final" / "profile" / f"case-{CASES[1]}.timeline.png").read_bytes() == \
        (out / "profile" / f"case-{CASES[1]}.timeline.png").read_bytes()


def test_a_run_without_profile_into_the_same_folder_leaves_no_stale_files(profiled):
    base, out, _ = profiled
    assert (out / "profile").is_dir()
    r = _kgen(base / "data2", str(EXAMPLE), "--offline", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr[-3000:]
    a = json.loads(r.stdout)["artifacts"]
    assert a["trace"] is None and a["timeline_png"] is None and a["cases"] == {}
    assert not (out / "profile").exists()
    assert json.loads((out / "report.json").read_text())["artifacts"]["cases"] == {}


def test_fixing_a_users_project_keeps_the_profile_in_the_run_folder(profiled, tmp_path):
    """``repair_project`` (kgen chat /fix, the LSP's fix command) leaves the user's folder as it was:
    the profile's files stay in the run's final/profile/, where the report names them."""
    import shutil

    from agent_graph import api
    from agent_graph.settings import AgentSettings, ModelSettings

    _, out, _ = profiled
    proj = tmp_path / "mine"
    shutil.copytree(out, proj, ignore=shutil.ignore_patterns("profile", "report.json"))
    before = sorted(p.relative_to(proj) for p in proj.rglob("*"))
    agent = AgentSettings(retrieve=False, profile=True, data_dir=tmp_path / "data")
    res = api.repair_project(proj, None, ModelSettings(url=None), agent)
    assert res.status == "verified", res.message
    assert sorted(p.relative_to(proj) for p in proj.rglob("*")) == before
    a = res.report["artifacts"]
    (run,) = (tmp_path / "data" / "runs").iterdir()
    assert a["dir"] == str((run / "final" / "profile").resolve())
    assert sorted(a["cases"]) == sorted(CASES)
    assert all(Path(f).parent == Path(a["dir"]) and Path(f).is_file() for e in a["cases"].values() for f in e.values())
