"""The long-running work behind the chat: blocking functions a job's thread worker calls (assistant.tui.runner).

Each job reports through agent_graph events (``on_event``), so the panels render a generate run, a repair
and a plain bench the same way; none raises: a failure is a ``RunFinished`` with status "error" and a one-line
message. Agent runs go through ``agent_graph.api``; a bench goes to ``bench_bridge.api.bench`` and is shown as
a run (build -> verify -> report): its typed progress events (bench_bridge.events) move the panel.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

import retrieval
from agent_graph import api
from agent_graph.events import (CaseResult, EventSink, FilesWritten, NodeFinished, NodeStarted, Note, Report,
                                RunFinished, RunStarted)
from agent_graph.settings import AgentSettings, ModelSettings
from bench_bridge.events import CaseStarted, PhaseStarted

SOURCE_SUFFIXES = (".cpp", ".h", ".hpp", ".cc", ".asc")
VERIFY_PHASES = ("reference", "run")
"""Bench phases that end the panel's build step: the reference runs and the kernel runs are verification."""


class JobCancelled(Exception):
    pass


def generate(target: str, words: bool, model: ModelSettings, agent: AgentSettings, output: Path | None,
             on_event: EventSink, cancel: threading.Event, run_id: str | None = None) -> None:
    """A full agent run for a task path (or the user's words, which need a model)."""
    req = api.Request(words=target) if words else api.Request(task=target, output=output)
    _guard_agent(run_id or "", on_event, lambda sink: api.run(req, model, agent, sink, cancel, run_id=run_id))


def resume(run_id: str, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
           cancel: threading.Event) -> None:
    """Continue an agent run from its last checkpoint."""
    _guard_agent(run_id, on_event, lambda sink: api.resume(run_id, model, agent, sink, cancel))


def fix(project: Path, task: str | None, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
        cancel: threading.Event) -> None:
    """Build and verify an existing op project; the agent repairs it on findings."""
    _guard_agent("", on_event, lambda sink: api.repair_project(project, task, model, agent, sink, cancel))


def _guard_agent(run_id: str, on_event: EventSink, call: Callable[[EventSink], api.RunOutcome]) -> None:
    """The agent emits RunFinished itself; only an exception escaping it needs one from here."""
    finished: list[RunFinished] = []

    def sink(ev) -> None:
        if isinstance(ev, RunFinished):
            finished.append(ev)
        on_event(ev)
    try:
        out = call(sink)
    except Exception as e:  # noqa: BLE001 — one line in the chat, never a traceback
        if not finished:
            on_event(RunFinished(run_id, "error", f"{type(e).__name__}: {e}".splitlines()[0]))
        return
    if not finished:
        on_event(RunFinished(out.run_id, out.status, out.message, str(out.project or "")))


def read_sources(root: Path) -> dict[str, str]:
    """The op project's op_host/op_kernel sources (project-relative path -> text)."""
    out = {}
    for sub in ("op_host", "op_kernel"):
        for p in sorted((root / sub).glob("*")):
            if p.is_file() and p.suffix in SOURCE_SUFFIXES:
                out[f"{sub}/{p.name}"] = p.read_text(errors="replace")
    return out


class _BenchSteps:
    """The panel's steps of a bench: "build" until the bench starts verifying, then "verify"."""

    def __init__(self, on_event: EventSink) -> None:
        self.on_event = on_event
        self.current = "build"
        on_event(NodeStarted("build"))

    def built(self) -> None:
        if self.current == "build":
            self.on_event(NodeFinished("build", True, "compiled"))
            self.current = "verify"
            self.on_event(NodeStarted("verify"))

    def progress(self, ev: object) -> None:
        """One bench progress event (a str from a bench that does not send typed events yet: a note)."""
        if isinstance(ev, CaseStarted) or (isinstance(ev, PhaseStarted) and ev.phase in VERIFY_PHASES):
            self.built()
        self.on_event(Note(str(ev)))


def bench(path: Path, project: Path | None, backend: str, on_event: EventSink, cancel: threading.Event,
          timeout: float = 120.0) -> None:
    """``kgen bench`` as a run: build, run and verify every case, model the time (``--profile``)."""
    # lazy: bench_bridge.api (numpy, the emulator, the perf model) is ~0.5 s of kgen chat's start-up
    from bench_bridge.api import LAUNCH_SUFFIXES, BenchError, BenchOptions
    from bench_bridge.api import bench as run_bench  # lazy: as above

    run_id = f"bench-{path.stem if path.is_file() else path.name}-{int(time.time()) % 100000:05d}"

    def body() -> tuple[str, str, str]:
        on_event(RunStarted(run_id, "", "", str(path)))
        if backend != "sim":
            raise BenchError("the chat benches on the emulator only; run `kgen bench --backend npu PATH` for an NPU")
        if path.is_file() and path.suffix in LAUNCH_SUFFIXES:
            on_event(FilesWritten(0, "bench", {path.name: path.read_text(errors="replace")}, str(path.parent)))
        elif project is not None:
            on_event(FilesWritten(0, "bench", read_sources(project), str(project)))
        steps = _BenchSteps(on_event)

        def progress(ev: object) -> None:
            if cancel.is_set():
                raise JobCancelled()
            steps.progress(ev)
        t0 = time.monotonic()
        try:
            rep = run_bench(path, BenchOptions(project=project, backend=backend, timeout=timeout, profile=True), progress)
        except BenchError as e:
            on_event(NodeFinished(steps.current, False, str(e), time.monotonic() - t0))
            return "error", str(e), ""
        if not rep.compiled:
            on_event(NodeFinished("build", False, rep.message or "build failed", time.monotonic() - t0))
            if rep.build_diagnostics:
                on_event(Note(build_errors_markdown(rep.build_diagnostics), "error"))
        else:
            steps.built()
            for i, c in enumerate(rep.cases, 1):
                on_event(CaseResult(i, len(rep.cases), c.case_id, c.status, c.message))
            on_event(NodeFinished("verify", rep.correct, f"{rep.passed_cases}/{len(rep.cases)} cases correct",
                                  time.monotonic() - t0))
        on_event(Report(rep.to_dict(), rep.project or ""))
        msg = (f"{rep.task}: {rep.passed_cases}/{len(rep.cases)} cases correct" if rep.compiled
               else f"{rep.task}: {rep.message or 'build failed'}")
        return ("verified" if rep.correct else "failed"), msg, rep.project or ""

    try:
        status, message, proj = body()
    except JobCancelled:
        status, message, proj = "cancelled", "cancelled by the user", ""
    except Exception as e:  # noqa: BLE001 — shown in the chat as one line, never a traceback
        text = str(e) if isinstance(e, BenchError) else f"{type(e).__name__}: {e}"
        status, message, proj = "error", (text.splitlines() or [""])[0], ""
    on_event(RunFinished(run_id, status, message, proj))


MAX_BUILD_ERRORS = 8   # in the chat; the results panel lists more


def build_errors_markdown(diags: list[dict], limit: int = MAX_BUILD_ERRORS) -> str:
    """The compiler's errors of a failed build as the chat shows them: one ``file:line: message`` each."""
    errors = [d for d in diags if d.get("severity") == "error"] or list(diags)
    lines = [f"- `{Path(str(d.get('file', ''))).name}:{d.get('line', 0)}: {d.get('message', '')}`" for d in errors[:limit]]
    if len(errors) > limit:
        lines.append(f"- (+{len(errors) - limit} more: the results panel, F4, lists them)")
    return f"the build failed with {len(errors)} error(s):\n\n" + "\n".join(lines)


def docs(query: str, k: int = 5) -> str:
    """The best knowledge-base passages for ``query`` as markdown (what ``kgen docs`` prints)."""
    hits = retrieval.search(query, k=k)
    if not hits:
        return f"No passage matches **{query}**."
    parts = [f"**Docs for** `{query}`"]
    for n, h in enumerate(hits, 1):
        head = h.title + (f" — {h.section}" if h.section else "")
        text = h.text if len(h.text) <= 900 else h.text[:900].rsplit("\n", 1)[0] + "\n…"
        parts.append(f"**[{n}] {head}** ({h.source})\n\n{text}")
    return "\n\n---\n\n".join(parts)
