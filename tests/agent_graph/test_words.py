"""A request in words through agent_graph.api.run with a ``confirm`` callback, against the scripted
OpenAI-compatible server: a declined spec ends the run "cancelled" naming the spec (which stays on
disk, and no kernel is asked for); an accepted one goes on, and the plan line says "model-written"."""
from __future__ import annotations

from pathlib import Path

import pytest

from agent_graph import api
from assistant.commands.spec_confirm import describe_case, format_spec, parse_answer
from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.agent_helpers import settings, user_text
from tests.agent_graph.openai_server import ScriptedOpenAI

SPEC_REPLY = """Here is the task.

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
[[cases]]
id = "row"
inputs = [{ shape = [2, 64], dtype = "float32" }, { shape = [2, 64], dtype = "float32" }]
```
"""


def test_declined_spec_ends_the_run_cancelled_naming_the_spec(tmp_path):
    asked: list[Path] = []

    def confirm(spec: Path) -> bool:
        asked.append(spec)
        assert spec.is_file()            # asked only once the spec is written
        return False

    with ScriptedOpenAI([SPEC_REPLY], default="no more requests expected") as srv:
        model, agent = settings(tmp_path, srv.url)
        events = []
        out = api.run(api.Request(words="add two tensors", output=tmp_path / "o"), model, agent,
                      on_event=events.append, confirm=confirm)
        n_requests = len(srv.requests)
    run_dir = Path(next(e for e in events if e.kind == "run_started").run_dir)
    spec = run_dir / "task" / "kgen-task.toml"
    assert asked == [spec]
    assert out.status == "cancelled" and str(spec) in out.message and out.project is None
    assert f"kgen generate {spec}" in out.message
    assert spec.is_file() and 'id = "row"' in spec.read_text()
    assert (run_dir / "task" / "reference.py").read_text().strip().endswith("return x + y")
    assert n_requests == 1                                        # no kernel was asked for
    assert not any(e.kind == "node_started" and e.node in ("plan", "draft") for e in events)
    finished = [e for e in events if e.kind == "run_finished"]
    assert len(finished) == 1 and finished[0].status == "cancelled"
    assert not (tmp_path / "o").exists()
    # the run is listed as cancelled, and resuming it repeats the outcome without asking the model
    assert [r.status for r in api.list_runs(agent)] == ["cancelled"]
    with ScriptedOpenAI([]) as srv2:
        again = api.resume(out.run_id, api.ModelSettings(url=srv2.url), agent)
        assert len(srv2.requests) == 0
    assert again.status == "cancelled" and str(spec) in again.message


@pytest.mark.slow
def test_accepted_spec_goes_on_and_the_plan_says_model_written(tmp_path):
    asked: list[Path] = []
    with ScriptedOpenAI([SPEC_REPLY, sk.reply(sk.GOOD)]) as srv:
        model, agent = settings(tmp_path, srv.url)
        events = []
        out = api.run(api.Request(words="add two tensors", output=tmp_path / "o"), model, agent,
                      on_event=events.append, confirm=lambda p: asked.append(p) or True)
        requests = list(srv.requests)
    assert out.status == "verified", out.message
    assert len(asked) == 1 and asked[0].name == "kgen-task.toml"
    assert "add two tensors" in user_text(requests[0])
    plan = next(e for e in events if e.kind == "node_finished" and e.node == "plan")
    assert plan.detail == "elementwise, model-written"
    assert [c["case_id"] for c in out.report["cases"]] == ["odd", "row"]


def test_spec_shown_to_the_user_lists_the_reference_and_every_case(tmp_path):
    (tmp_path / "reference.py").write_text("import torch\n\nclass Model(torch.nn.Module):\n"
                                           "    def forward(self, x):\n        return torch.softmax(x, -1)\n")
    (tmp_path / "kgen-task.toml").write_text('reference = "reference.py"\n[[cases]]\nid = "b8"\n'
                                             'inputs = [{ shape = [8, 4096], dtype = "float16" }]\n'
                                             '[[cases]]\nid = "b1"\ninputs = [{ shape = [1, 4096], dtype = "float16" }]\n')
    text = format_spec(tmp_path / "kgen-task.toml")
    assert " " * 12 + "return torch.softmax(x, -1)" in text.splitlines()     # indented 4 under the heading
    assert "" in text.splitlines()                                               # blank lines stay blank
    assert "    b8: inputs float16[8, 4096]" in text.splitlines()
    assert "    b1: inputs float16[1, 4096]" in text.splitlines()
    assert "shape cases (2," in text
    assert describe_case("c", {"inputs": [{"shape": [4], "dtype": "int32"}], "args": [1.5]}) == "c: inputs int32[4]; args [1.5]"


@pytest.mark.parametrize("answer,expected", [("", True), ("y\n", True), (" YES ", True), ("n", False),
                                             ("No\n", False), ("maybe", None)])
def test_answers_to_the_question(answer, expected):
    assert parse_answer(answer) is expected
