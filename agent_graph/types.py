"""The agent's shared run types: what a front end asks for (:class:`Request`), what a run ends with
(:class:`RunOutcome`), what ``kgen runs`` lists (:class:`RunInfo`) and the run-status vocabulary.

They live here, below both the face (agent_graph.api) and the modules that build them (driver.py,
runs.py), so neither side imports the other; front ends take them from agent_graph.api.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

OutcomeStatus = Literal["verified", "failed", "unsupported", "invalid", "error", "cancelled"]
"""How a run ended: verified (every case correct), failed (built but wrong or not built after its repairs),
unsupported (the offline drafter has no template for the op), invalid (the task's own reference or input
generator fails as written: the user's error), error (model error, damaged run folder,
internal error), cancelled (by the user, or the spec written from words was declined)."""

RunStatus = Literal["running", "interrupted", "verified", "failed", "unsupported", "invalid", "error", "cancelled"]
"""A run's status as run.json and ``kgen runs`` show it: an outcome, "running", or "interrupted" (its process
died while running; it can be resumed)."""

OUTCOME_STATUSES: tuple[OutcomeStatus, ...] = get_args(OutcomeStatus)
RUN_STATUSES: tuple[RunStatus, ...] = get_args(RunStatus)
STOP_STATUSES: tuple[OutcomeStatus, ...] = ("unsupported", "invalid", "error", "cancelled")
"""Statuses set before the candidates are done that send the graph straight to its report."""
CLOSED_STATUSES: tuple[OutcomeStatus, ...] = ("verified", "failed", "unsupported", "invalid", "error")
"""Outcomes a front end treats as final ("cancelled", "running" and "interrupted" runs can be resumed)."""

NodeName = Literal["understand", "plan", "retrieve", "draft", "build", "repair", "verify", "benchmark", "report"]
"""The graph's nodes (graph.py), as NodeStarted/NodeFinished events name them."""
NODE_NAMES: tuple[NodeName, ...] = get_args(NodeName)


@dataclass
class Request:
    """What to generate: a task path, or words the model turns into a kgen spec."""

    task: str | None = None        # path: NPUKernelBench task dir | KernelBench .py | kgen spec .toml
    words: str | None = None       # free text (needs a model: it writes the reference + cases)
    output: Path | None = None     # where the final project goes (default ./kgen-out/<task>)
    replace: bool = False          # replace op sources in ``output`` that kgen did not write (--force)


@dataclass
class RunOutcome:
    """How one run (or repair) ended."""

    run_id: str
    status: OutcomeStatus
    message: str                   # one line a user reads
    project: Path | None           # the final project (None when no candidate was built)
    report: dict | None            # bench_bridge BenchReport.to_dict() of the final project


@dataclass
class RunInfo:
    """One recorded run, as ``kgen runs`` and the TUI's run list show it."""

    run_id: str
    task: str
    status: RunStatus
    model: str
    started: float                 # time.time()
    updated: float
