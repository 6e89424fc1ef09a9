"""The graph with no model: the offline drafter drafts, the emulator builds and verifies, the run says so."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_graph import api
from agent_graph.events import from_dict, to_dict
from tests.agent_graph.agent_helpers import settings

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("offline")
    model, agent = settings(tmp, None, profile=True)
    events = []
    out = api.run(api.Request(task=str(ADD), output=tmp / "out"), model, agent, on_event=events.append)
    return tmp, out, events


@pytest.mark.slow
def test_offline_run_is_verified_and_says_it_used_the_drafter(offline_run):
    tmp, out, events = offline_run
    assert out.status == "verified", out.message
    assert events[0].kind == "run_started" and events[0].model == "offline drafter" and not events[0].resumed
    assert any(e.kind == "note" and e.text == "no model configured: using the offline drafter" for e in events)
    assert out.project == tmp / "out"
    for rel in ("op_host/add_custom.cpp", "op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp", "CMakeLists.txt",
                "add_custom.json", "kgen-task.toml", "reference.py", "report.json"):
        assert (out.project / rel).is_file(), rel
    rep = json.loads((out.project / "report.json").read_text())
    assert rep == out.report and rep["correct"] and rep["project"] == str(out.project)
    assert [(e.index, e.total, e.case_id, e.status) for e in events if e.kind == "case_result"] == \
        [(1, 2, "fp16-multicore", "pass"), (2, 2, "fp32-tail", "pass")]
    # profiling on: the benchmark node reports the modelled time of the verified project
    bench = next(e for e in events if e.kind == "node_finished" and e.node == "benchmark")
    times = rep["performance"]["modelled_us"]
    assert bench.ok and f"modelled {min(times):.1f}-{max(times):.1f} us per case (2 cases)" in bench.detail
    assert any(e.kind == "report" and e.report["correct"] for e in events)


@pytest.mark.slow
def test_offline_event_order(offline_run):
    _, out, events = offline_run
    kinds = [e.kind for e in events]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished" and kinds.count("run_finished") == 1
    assert kinds.index("report") < kinds.index("run_finished")
    started = [e.node for e in events if e.kind == "node_started"]
    finished = [e.node for e in events if e.kind == "node_finished"]
    assert started == finished == ["understand", "plan", "retrieve", "draft", "build", "verify", "benchmark", "report"]
    # every node's events sit between its NodeStarted and NodeFinished
    depth = 0
    for e in events[1:-1]:
        depth += {"node_started": 1, "node_finished": -1}.get(e.kind, 0)
        assert depth in (0, 1) and (depth == 1 or e.kind in ("node_finished", "node_started"))
    written = [e for e in events if e.kind == "files_written"]
    assert len(written) == 1 and written[0].round == 0 and written[0].reason == "draft"
    assert set(written[0].files) == {"op_host/add_custom.cpp", "op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp"}


@pytest.mark.slow
def test_offline_run_folder(offline_run):
    tmp, out, events = offline_run
    run_dir = Path(events[0].run_dir)
    assert run_dir == tmp / "data" / "runs" / out.run_id
    request = json.loads((run_dir / "request.json").read_text())
    assert request["task"] == str(ADD) and request["output"] == str(tmp / "out") and "api_key" not in request["model"]
    recorded = [from_dict(json.loads(x)) for x in (run_dir / "events.jsonl").read_text().splitlines()]
    assert [to_dict(e) for e in recorded] == [to_dict(e) for e in events]
    r0 = run_dir / "rounds" / "0"
    assert (r0 / "files" / "op_kernel" / "add_custom.cpp").is_file()
    assert json.loads((r0 / "diagnostics.json").read_text()) == [] or all(
        d["severity"] != "error" for d in json.loads((r0 / "diagnostics.json").read_text()))
    assert json.loads((r0 / "report.json").read_text())["correct"] is True
    assert (run_dir / "final" / "op_kernel" / "add_custom.cpp").read_text() == \
        (out.project / "op_kernel" / "add_custom.cpp").read_text()
    assert (tmp / "data" / "checkpoints.sqlite").is_file()
    info = {r.run_id: r for r in api.list_runs(settings(tmp, None)[1])}[out.run_id]
    assert info.status == "verified" and info.model == "offline drafter" and info.updated >= info.started


def test_unsupported_reference_ends_as_unsupported_with_the_reason(tmp_path):
    spec = tmp_path / "t"
    spec.mkdir()
    (spec / "reference.py").write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                                       "    def forward(self, a, b):\n        return torch.flip(a, [0]) * b\n")
    (spec / "kgen-task.toml").write_text('reference = "reference.py"\n[[cases]]\n'
                                         'inputs = [{ shape = [4, 8] }, { shape = [4, 8] }]\n')
    model, agent = settings(tmp_path, None)
    events = []
    out = api.run(api.Request(task=str(spec / "kgen-task.toml"), output=tmp_path / "o"), model, agent,
                  on_event=events.append)
    assert out.status == "unsupported" and "aten.flip" in out.message and "\n" not in out.message
    assert out.project is None and out.report is None and not (tmp_path / "o").exists()
    assert events[-1].kind == "run_finished" and events[-1].status == "unsupported"
    assert "draft" not in [e.node for e in events if e.kind == "node_started"]


def test_words_without_a_model_need_one(tmp_path):
    model, agent = settings(tmp_path, None)
    out = api.run(api.Request(words="a relu kernel"), model, agent)
    assert out.status == "error" and "needs a model" in out.message


@pytest.mark.slow
def test_repair_project_offline_verifies_an_existing_project_without_touching_it(tmp_path, offline_run):
    _, first, _ = offline_run
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(first.project, proj)
    before = {p: p.read_text() for p in proj.rglob("*.cpp")}
    model, agent = settings(tmp_path, None)
    out = api.repair_project(proj, None, model, agent)
    assert out.status == "verified", out.message
    assert {p: p.read_text() for p in proj.rglob("*.cpp")} == before


def test_repair_project_without_a_task_says_so(tmp_path):
    proj = tmp_path / "p"
    (proj / "op_host").mkdir(parents=True)
    (proj / "op_kernel").mkdir()
    model, agent = settings(tmp_path, None)
    out = api.repair_project(proj, None, model, agent)
    assert out.status == "error" and "no task to verify it against" in out.message
