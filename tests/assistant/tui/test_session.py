"""The session store (transcript, runs, events on disk) and the run view rebuilt from events."""
from __future__ import annotations

import json
import time

import pytest

from agent_graph.events import RunFinished
from assistant.tui.project_ops import OpError, save_project, undo_last_round
from assistant.tui.runview import RunView
from assistant.tui.session import RunRecord, Session, SessionError, SessionState, list_sessions
from tests.assistant.tui.helpers import KERNEL_V0, KERNEL_V1, sample_events


def test_a_session_reads_back_what_was_written_and_survives_a_cut_line(tmp_path):
    s = Session.create(tmp_path, SessionState(model_url="http://h:1/v1"))
    s.add_message("user", "examples/tasks/add")
    s.add_message("system", "started run `r1`")
    s.record_run(RunRecord("r1", "generate", "examples/tasks/add"))
    evs = sample_events("/p")
    for e in evs[:5]:
        s.add_event("r1", e)
    s.record_run(RunRecord("r1", "generate", "examples/tasks/add", "cancelled"))
    with open(s.dir / "transcript.jsonl", "a") as f:     # a crash in the middle of a write
        f.write('{"role": "user", "te')
    back = Session.open(tmp_path, s.id)
    assert [(m.role, m.text) for m in back.messages()] == [("user", "examples/tasks/add"), ("system", "started run `r1`")]
    assert back.state.model_url == "http://h:1/v1"
    runs = back.runs()
    assert len(runs) == 1 and runs[0].status == "cancelled" and runs[0].resumable
    assert back.events("r1") == evs[:5]
    assert not RunRecord("r2", "generate", "t", "verified").resumable


def test_sessions_are_listed_newest_first_and_opened_by_prefix(tmp_path):
    a = Session.create(tmp_path)
    a.add_message("user", "first | session")
    time.sleep(0.05)
    b = Session.create(tmp_path)
    b.add_message("user", "second")
    import os
    os.utime(a.dir / "transcript.jsonl", (time.time() - 100, time.time() - 100))
    os.utime(a.dir / "state.json", (time.time() - 100, time.time() - 100))
    infos = list_sessions(tmp_path)
    assert [i.id for i in infos] == [b.id, a.id] and infos[1].title == "first | session"
    assert Session.open(tmp_path).id == b.id                 # no id: the most recent
    assert Session.open(tmp_path, b.id[:-2]).id == b.id      # a unique prefix
    with pytest.raises(SessionError, match="no session 'zzz'"):
        Session.open(tmp_path, "zzz")
    with pytest.raises(SessionError, match="no saved session"):
        Session.open(tmp_path / "empty")


def test_the_view_follows_the_run_and_diffs_the_repair():
    v = RunView()
    evs = sample_events("/p")
    for e in evs:
        v.apply(e)
    assert v.status == "verified" and v.run_id == "20261201-000000-add-demo"
    assert [s.node for s in v.steps] == ["understand", "plan", "draft", "build", "repair", "build", "verify",
                                         "benchmark"]
    assert [s.state for s in v.steps if s.node == "build"] == ["failed", "ok"]
    assert v.cases_passed == 2 and v.case_total == 2 and v.tokens == "Drafting the add kernel."
    assert v.files()["op_kernel/add_custom.cpp"] == KERNEL_V1 and len(v.files()) == 3
    diff = v.round_diff()
    assert "-    AscendC::ElementwiseAdd(zLocal" in diff and "+    AscendC::Add(zLocal" in diff
    assert diff.startswith("--- a/op_kernel/add_custom.cpp")
    assert v.round_diff(0) == ""
    assert v.report["correct"] and v.target_project == "/p"


def test_a_cancel_marks_running_steps_and_a_resume_keeps_the_view():
    v = RunView()
    evs = sample_events("/p")
    for e in evs[:10]:            # up to the first build starting
        v.apply(e)
    v.apply(RunFinished(evs[0].run_id, "cancelled", "cancelled"))
    assert v.steps[-1].node == "build" and v.steps[-1].state == "cancelled" and v.status == "cancelled"
    from dataclasses import replace
    v.apply(replace(evs[0], resumed=True))
    assert v.status == "running" and len(v.rounds) == 1      # the files drafted before the cancel are still there


def test_undo_restores_the_previous_round_on_disk_and_save_copies(tmp_path):
    proj = tmp_path / "proj"
    (proj / "op_kernel").mkdir(parents=True)
    (proj / "op_host").mkdir()
    (proj / "op_kernel" / "add_custom.cpp").write_text(KERNEL_V1)
    v = RunView()
    for e in sample_events(str(proj)):
        v.apply(e)
    dest = save_project(proj, tmp_path / "saved", v.report)
    assert (dest / "op_kernel" / "add_custom.cpp").read_text() == KERNEL_V1
    assert json.loads((dest / "report.json").read_text())["correct"] is True
    project, changed = undo_last_round(v)
    assert project == proj and changed == ["op_kernel/add_custom.cpp"]
    assert (proj / "op_kernel" / "add_custom.cpp").read_text() == KERNEL_V0
    assert len(v.rounds) == 1
    with pytest.raises(OpError, match="no repair round"):
        undo_last_round(v)
