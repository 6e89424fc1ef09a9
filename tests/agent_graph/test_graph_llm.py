"""The agent against a real OpenAI-compatible HTTP server (ScriptedOpenAI) replying with scripted
kernels: each defect must end as a user would expect (repaired and verified, or a clear failure)."""
from __future__ import annotations

import json

import pytest

from agent_graph import api
from agent_graph.api import list_runs
from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.agent_helpers import run_agent, settings, user_text
from tests.agent_graph.openai_server import ScriptedOpenAI

KERNEL = f"op_kernel/{sk.OP}.cpp"
HOST = f"op_host/{sk.OP}.cpp"


def _final_files(ran) -> dict[str, str]:
    root = ran.outcome.project
    return {rel: (root / rel).read_text() for rel in sk.GOOD}


@pytest.mark.slow
def test_hallucinated_api_is_repaired_after_the_diagnostic(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_DATA_DIR", str(tmp_path / "kb"))      # retrieval's index, private to the test
    with ScriptedOpenAI([sk.reply(sk.HALLUCINATED), sk.reply(sk.GOOD)]) as srv:
        ran = run_agent(tmp_path, srv.url, retrieve=True)
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert len(requests) == 2
    # the compiler's complaint reached the model in the repair prompt
    diag = ran.of("diagnostics")[0]
    assert diag.round == 0 and any("ElementwiseAdd" in d["message"] and d["severity"] == "error" for d in diag.items)
    repair_prompt = user_text(requests[1])
    assert "ElementwiseAdd" in repair_prompt and ("is not a member of" in repair_prompt       # g++
                                                  or "no member named" in repair_prompt)     # clang++
    assert "ElementwiseAdd" not in user_text(requests[0])
    # rounds: draft, then a build repair; the final project is the repaired one and benches correct
    written = [(e.round, e.reason) for e in ran.of("files_written")]
    assert written == [(0, "draft"), (1, "build repair")]
    assert _final_files(ran) == sk.GOOD
    assert ran.outcome.report["correct"] and [c["status"] for c in ran.outcome.report["cases"]] == ["pass", "pass"]
    rounds = ran.run_dir / "rounds"
    assert json.loads((rounds / "0" / "prompt.json").read_text())[0]["role"] == "system"
    assert (rounds / "0" / "reply.md").read_text() == sk.reply(sk.HALLUCINATED)
    assert any("ElementwiseAdd" in d["message"] for d in json.loads((rounds / "0" / "diagnostics.json").read_text()))
    assert json.loads((rounds / "1" / "report.json").read_text())["correct"] is True
    assert (rounds / "1" / "files" / KERNEL).read_text() == sk.GOOD[KERNEL]
    # the draft streamed: its tokens put together are the reply
    draft_tokens = "".join(e.text for e in ran.of("token") if e.node == "draft")
    assert draft_tokens == sk.reply(sk.HALLUCINATED)
    # the events file holds the same events, RunFinished exactly once and last
    lines = [json.loads(x) for x in (ran.run_dir / "events.jsonl").read_text().splitlines()]
    assert [x["kind"] for x in lines].count("run_finished") == 1 and lines[-1]["status"] == "verified"
    assert (ran.run_dir / "final" / KERNEL).read_text() == sk.GOOD[KERNEL]


@pytest.mark.slow
def test_tiling_bug_wrong_on_one_case_is_repaired_after_the_mismatch_report(tmp_path):
    with ScriptedOpenAI([sk.reply(sk.TILING_BUG), sk.reply(sk.GOOD)]) as srv:
        ran = run_agent(tmp_path, srv.url)
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    cases = [(e.case_id, e.status) for e in ran.of("case_result")]
    # 385 elements over 48 cores rounded down to 8 each: the last element is never written (the
    # "even" case, 3072 = 48 x 64, is right): first round even pass / tail fail, then both pass
    assert cases == [("even", "pass"), ("tail", "fail"), ("even", "pass"), ("tail", "pass")]
    prompt = user_text(requests[1])
    assert "tail" in prompt and "[4, 76]" in prompt and "only partly written" in prompt
    first = json.loads((ran.run_dir / "rounds" / "0" / "report.json").read_text())
    tail = next(c for c in first["cases"] if c["case_id"] == "tail")
    assert tail["outputs"][0]["mismatches"] == 1 and tail["outputs"][0]["first_mismatch"] == [4, 76]
    assert [(e.round, e.reason) for e in ran.of("files_written")] == [(0, "draft"), (1, "correctness repair")]
    assert _final_files(ran)[HOST] == sk.GOOD[HOST]


@pytest.mark.slow
def test_unparseable_reply_gets_a_parse_repair_then_succeeds(tmp_path):
    with ScriptedOpenAI([sk.UNPARSEABLE, sk.reply(sk.GOOD, preface="Sorry, here are the files.")]) as srv:
        ran = run_agent(tmp_path, srv.url)
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert len(requests) == 2
    complaint = user_text(requests[1])
    assert f"op_host/{sk.OP}_tiling.h" in complaint and "block found" in complaint
    assert [(e.round, e.reason) for e in ran.of("files_written")] == [(1, "parse repair")]
    assert any(e.kind == "note" and "could not be parsed" in e.text for e in ran.events)


def test_replies_that_never_parse_end_as_a_clear_failure(tmp_path):
    with ScriptedOpenAI(default=sk.UNPARSEABLE) as srv:
        ran = run_agent(tmp_path, srv.url)
        n = len(srv.requests)
    assert ran.outcome.status == "failed"
    assert "could not be parsed" in ran.outcome.message and "\n" not in ran.outcome.message
    assert n == 3          # the draft and two parse repairs
    assert ran.outcome.project is None and not (tmp_path / "out").exists()
    assert ran.of("run_finished")[0].status == "failed"


def test_server_timeout_ends_with_status_error_and_one_line(tmp_path):
    with ScriptedOpenAI([{"text": sk.reply(sk.GOOD), "delay": 6.0}]) as srv:
        ran = run_agent(tmp_path, srv.url, model_timeout=1.0)
    out = ran.outcome
    assert out.status == "error" and out.message and "\n" not in out.message
    assert "time" in out.message.lower()
    assert ran.of("run_finished")[0].status == "error"
    # the run is recorded and listed, resumable from its last completed node
    runs = {r.run_id: r for r in list_runs(__import__("tests.agent_graph.agent_helpers", fromlist=["settings"])
                                           .settings(tmp_path, srv.url)[1])}
    assert runs[out.run_id].status == "error"


def test_unreachable_server_is_an_error_not_a_traceback(tmp_path):
    ran = run_agent(tmp_path, "http://127.0.0.1:9/v1", model_timeout=5.0)
    assert ran.outcome.status == "error" and "\n" not in ran.outcome.message
    assert not (ran.run_dir / "error.txt").exists()      # a model error, not an internal one


@pytest.mark.slow
def test_two_samples_keep_the_verified_one(tmp_path):
    with ScriptedOpenAI([sk.reply(sk.HALLUCINATED), sk.reply(sk.GOOD)]) as srv:
        ran = run_agent(tmp_path, srv.url, samples=2)
        n = len(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert n == 2         # the verified sample ended the other's repairs
    assert _final_files(ran) == sk.GOOD
    assert sorted(e.round for e in ran.of("files_written")) == [0, 0]
    assert sorted(p.name for p in (ran.run_dir / "rounds").iterdir()) == ["0", "0-s1"]


@pytest.mark.slow
def test_a_kernel_wrong_on_every_case_reports_its_run_not_a_build_failure(tmp_path):
    wrong = sk.files(add="AscendC::Sub")         # compiles, runs, every value wrong
    with ScriptedOpenAI(default=sk.reply(wrong)) as srv:
        ran = run_agent(tmp_path, srv.url, correctness_repairs=0)
    assert ran.outcome.status == "failed"
    assert "best candidate compiled, 0/2 cases correct" in ran.outcome.message, ran.outcome.message
    rep = json.loads((tmp_path / "out" / "report.json").read_text())
    assert rep["compiled"] is True and rep["correct"] is False
    assert [c["status"] for c in rep["cases"]] == ["fail", "fail"]


@pytest.mark.slow
def test_build_repairs_are_bounded(tmp_path):
    with ScriptedOpenAI(default=sk.reply(sk.HALLUCINATED)) as srv:
        ran = run_agent(tmp_path, srv.url, build_repairs=1)
        n = len(srv.requests)
    assert ran.outcome.status == "failed" and "no repairs left" in ran.outcome.message
    assert n == 2
    assert [e.node for e in ran.of("node_started")].count("build") == 2


@pytest.mark.slow
def test_repair_project_fixes_an_existing_project_in_place(tmp_path):
    proj = tmp_path / "mine"
    for rel, text in sk.TILING_BUG.items():
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)
    with ScriptedOpenAI([sk.reply(sk.GOOD)]) as srv:
        model, agent = settings(tmp_path, srv.url)
        events = []
        out = api.repair_project(proj, str(sk.TASK), model, agent, on_event=events.append)
        requests = list(srv.requests)
    assert out.status == "verified", out.message
    assert len(requests) == 1 and "tail" in user_text(requests[0])     # no draft: the first turn is the repair
    assert (proj / HOST).read_text() == sk.GOOD[HOST]                   # written back
    assert [(e.round, e.reason) for e in events if e.kind == "files_written"] == [(0, "draft"), (1, "correctness repair")]


SPEC_REPLY = """I will write the task.

```python reference.py
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y):
        return x + y
```

```toml kgen-task.toml
name = "add"
reference = "reference.py"
description = "z = x + y"
[[cases]]
id = "odd"
inputs = [{ shape = [3, 37], dtype = "float32" }, { shape = [3, 37], dtype = "float32" }]
```
"""


@pytest.mark.slow
def test_request_in_words_the_model_writes_the_task_then_the_kernel(tmp_path):
    with ScriptedOpenAI(["Let me think.", SPEC_REPLY, sk.reply(sk.GOOD)]) as srv:
        model, agent = settings(tmp_path, srv.url)
        events = []
        out = api.run(api.Request(words="add two float tensors", output=tmp_path / "o"), model, agent,
                      on_event=events.append)
        requests = list(srv.requests)
    assert out.status == "verified", out.message
    assert "add two float tensors" in user_text(requests[0])
    assert "no ```python reference.py and ```toml kgen-task.toml block found" in user_text(requests[1])
    run_dir = next(e for e in events if e.kind == "run_started").run_dir
    spec = __import__("pathlib").Path(run_dir) / "task" / "kgen-task.toml"
    assert spec.is_file() and any(e.kind == "note" and str(spec) in e.text for e in events)
    assert [c["case_id"] for c in out.report["cases"]] == ["odd"] and out.report["correct"]
