"""``bench()`` reports its progress as typed events (bench_bridge.events): the phases and the cases a
real bench of a small example emits, in order; ``str(event)`` is the line the CLI prints."""
from __future__ import annotations

from pathlib import Path

from bench_bridge.api import BenchEvent, BenchNote, BenchOptions, CaseStarted, PhaseStarted, bench

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "data" / "tasks"


def _bench(path: Path, opts: BenchOptions | None = None) -> tuple[list[BenchEvent], object]:
    events: list[BenchEvent] = []
    rep = bench(path, opts, events.append)      # positional, as the callers of the progress callback passed it
    return events, rep


def _shape(ev: BenchEvent) -> tuple:
    if isinstance(ev, PhaseStarted):
        return ("phase", ev.phase)
    if isinstance(ev, CaseStarted):
        return ("case", ev.case_id, ev.index, ev.total)
    return ("note",)


def test_a_task_bench_emits_reference_read_then_build_and_case_per_case():
    events, rep = _bench(TASKS / "npukb_scaled_add")
    assert rep.correct
    assert [_shape(e) for e in events] == [
        ("phase", "reference"), ("phase", "read"),
        ("phase", "build"), ("case", "0", 1, 3),       # one dtype combination per case: each builds first
        ("phase", "build"), ("case", "1", 2, 3),
        ("phase", "build"), ("case", "2", 3, 3),
    ]
    assert [str(e) for e in events[:2]] == ["running the PyTorch reference for 3 case(s)",
                                            "reading the op definition of 0"]
    assert str(events[2]).startswith("building ScaledAdd for dtype combination 0 (")
    assert str(events[3]) == "case 0: running on the emulator"
    assert all(str(e) == e.text for e in events)


def test_one_chosen_case_counts_one_of_one():
    events, _ = _bench(TASKS / "npukb_scaled_add", BenchOptions(case="1"))
    assert [_shape(e) for e in events if isinstance(e, CaseStarted)] == [("case", "1", 1, 1)]


def test_a_kernel_launch_program_builds_then_runs():
    events, rep = _bench(ROOT / "examples" / "add" / "add.asc")
    assert rep.cases and rep.cases[0].status == "pass"
    assert [_shape(e) for e in events] == [("phase", "build"), ("phase", "run")]
    assert [str(e) for e in events] == ["building add.asc", "running add.asc"]
    assert not any(isinstance(e, BenchNote) for e in events)
