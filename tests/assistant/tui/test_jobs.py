"""A bench shown as a run: its typed progress events (bench_bridge.events) move the panel from build to
verify; the text is a note either way (a plain string, from a bench without typed events, too)."""
from __future__ import annotations

from agent_graph.events import NodeFinished, NodeStarted, Note
from assistant.tui.jobs import _BenchSteps
from bench_bridge.events import BenchNote, CaseStarted, PhaseStarted


def _steps():
    seen = []
    return _BenchSteps(seen.append), seen


def test_build_ends_when_the_cases_start():
    steps, seen = _steps()
    for ev in (PhaseStarted("read", "reading the op definition of add"),
               PhaseStarted("build", "building AddCustom for dtype combination 0 (float16)"),
               BenchNote("case even: no trace file: gone"), "a line from an older bench"):
        steps.progress(ev)
    assert steps.current == "build" and [type(e) for e in seen] == [NodeStarted, Note, Note, Note, Note]
    steps.progress(CaseStarted("even", 1, 2, "case even: running on the emulator"))
    assert steps.current == "verify"
    assert seen[-3:] == [NodeFinished("build", True, "compiled"), NodeStarted("verify"),
                         Note("case even: running on the emulator")]
    steps.progress(CaseStarted("tail", 2, 2, "case tail: running on the emulator"))
    assert [e for e in seen if isinstance(e, NodeStarted)] == [NodeStarted("build"), NodeStarted("verify")]


def test_a_program_run_or_the_reference_is_verification():
    for phase in ("run", "reference"):
        steps, seen = _steps()
        steps.progress(PhaseStarted(phase, f"{phase} ..."))
        assert steps.current == "verify" and seen[-1] == Note(f"{phase} ...")
