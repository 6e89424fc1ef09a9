"""The long-running work behind the chat, as blocking functions a Textual worker thread calls.

Each job reports through agent_graph events (``on_event``), so the panels render a generate run, a
repair and a plain bench the same way; none raises: a failure is a ``RunFinished`` with status "error"
and a one-line message. Agent runs go through ``agent_graph.api``; a bench goes straight to
``bench_bridge.bench`` and is dressed as a run (build -> verify -> benchmark -> report).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from agent_graph.events import (CaseResult, EventSink, FilesWritten, NodeFinished, NodeStarted, Note, Report,
                                RunFinished, RunStarted)
from agent_graph.settings import AgentSettings, ModelSettings

SOURCE_SUFFIXES = (".cpp", ".h", ".hpp", ".cc", ".asc")


class JobCancelled(Exception):
    pass


def model_label(model: ModelSettings) -> str:
    """What the status bar says about the model: the agent's own wording."""
    return f"{model.name or 'model'} @ {model.url}" if model.configured else "offline drafter"


@dataclass
class JobResult:
    status: str
    message: str
    project: str = ""


def _guard(run_id: str, on_event: EventSink, body: Callable[[], JobResult]) -> JobResult:
    try:
        return body()
    except JobCancelled:
        res = JobResult("cancelled", "cancelled by the user")
    except Exception as e:  # noqa: BLE001 — shown in the chat as one line, never a traceback
        from bench_bridge.bench import BenchError

        text = str(e) if isinstance(e, BenchError) else f"{type(e).__name__}: {e}"
        res = JobResult("error", (text.splitlines() or [""])[0])
    on_event(RunFinished(run_id, res.status, res.message))
    return res


def generate(target: str, words: bool, model: ModelSettings, agent: AgentSettings, output: Path | None,
             on_event: EventSink, cancel: threading.Event, run_id: str | None = None) -> JobResult:
    """A full agent run for a task path (or the user's words, which need a model)."""
    from agent_graph import api

    req = api.Request(words=target) if words else api.Request(task=target, output=output)
    return _guard_agent(run_id or "", on_event, lambda sink: api.run(req, model, agent, sink, cancel, run_id=run_id))


def resume(run_id: str, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
           cancel: threading.Event) -> JobResult:
    """Continue an agent run from its last checkpoint."""
    from agent_graph import api

    return _guard_agent(run_id, on_event, lambda sink: api.resume(run_id, model, agent, sink, cancel))


def fix(project: Path, task: str | None, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
        cancel: threading.Event) -> JobResult:
    """Build and verify an existing op project; the agent repairs it on findings."""
    from agent_graph import api

    return _guard_agent("", on_event, lambda sink: api.repair_project(project, task, model, agent, sink, cancel))


def _guard_agent(run_id: str, on_event: EventSink, call: Callable) -> JobResult:
    """The agent emits RunFinished itself; only an exception escaping it needs one from here."""
    finished: list[RunFinished] = []

    def sink(ev) -> None:
        if isinstance(ev, RunFinished):
            finished.append(ev)
        on_event(ev)
    try:
        out = call(sink)
    except Exception as e:  # noqa: BLE001 — one line in the chat, never a traceback
        msg = f"{type(e).__name__}: {e}".splitlines()[0]
        if not finished:
            on_event(RunFinished(run_id, "error", msg))
        return JobResult("error", msg)
    if not finished:
        on_event(RunFinished(out.run_id, out.status, out.message, str(out.project or "")))
    return JobResult(out.status, out.message, str(out.project or ""))


def read_sources(root: Path) -> dict[str, str]:
    """The op project's op_host/op_kernel sources (project-relative path -> text)."""
    out = {}
    for sub in ("op_host", "op_kernel"):
        for p in sorted((root / sub).glob("*")):
            if p.is_file() and p.suffix in SOURCE_SUFFIXES:
                out[f"{sub}/{p.name}"] = p.read_text(errors="replace")
    return out


def bench(path: Path, project: Path | None, backend: str, on_event: EventSink, cancel: threading.Event,
          timeout: float = 120.0) -> JobResult:
    """``kgen bench`` as a run: build, run and verify every case, model the time (``--profile``)."""
    from bench_bridge.bench import BenchError, BenchOptions
    from bench_bridge.bench import bench as run_bench

    run_id = f"bench-{path.stem if path.is_file() else path.name}-{int(time.time()) % 100000:05d}"

    def body() -> JobResult:
        on_event(RunStarted(run_id, "", "", str(path)))
        if backend != "sim":
            raise BenchError("the chat benches on the emulator only; run `kgen bench --backend npu PATH` for an NPU")
        if path.is_file() and path.suffix in (".asc", ".cpp", ".cc", ".cxx"):
            on_event(FilesWritten(0, "bench", {path.name: path.read_text(errors="replace")}, str(path.parent)))
        elif project is not None:
            on_event(FilesWritten(0, "bench", read_sources(project), str(project)))
        current = ["build"]
        on_event(NodeStarted("build"))

        def progress(msg: str) -> None:
            if cancel.is_set():
                raise JobCancelled()
            if (msg.startswith("case ") or msg.startswith("running ")) and current[0] == "build":
                on_event(NodeFinished("build", True, "compiled"))
                current[0] = "verify"
                on_event(NodeStarted("verify"))
            on_event(Note(msg))
        t0 = time.monotonic()
        try:
            rep = run_bench(path, BenchOptions(project=project, backend=backend, timeout=timeout, profile=True), progress)
        except BenchError as e:
            on_event(NodeFinished(current[0], False, str(e), time.monotonic() - t0))
            on_event(RunFinished(run_id, "error", str(e)))
            return JobResult("error", str(e))
        if not rep.compiled:
            on_event(NodeFinished("build", False, rep.message or "build failed", time.monotonic() - t0))
        else:
            if current[0] == "build":
                on_event(NodeFinished("build", True, "compiled"))
                on_event(NodeStarted("verify"))
            for i, c in enumerate(rep.cases, 1):
                on_event(CaseResult(i, len(rep.cases), c.case_id, c.status, c.message))
            on_event(NodeFinished("verify", rep.correct, f"{rep.passed_cases}/{len(rep.cases)} cases correct",
                                  time.monotonic() - t0))
        d = rep.to_dict()
        on_event(Report(d, rep.project or ""))
        status = "verified" if rep.correct else "failed"
        msg = (f"{rep.task}: {rep.passed_cases}/{len(rep.cases)} cases correct" if rep.compiled
               else f"{rep.task}: {rep.message or 'build failed'}")
        on_event(RunFinished(run_id, status, msg, rep.project or ""))
        return JobResult(status, msg, rep.project or "")
    return _guard(run_id, on_event, body)


def docs(query: str, k: int = 5) -> str:
    """The best knowledge-base passages for ``query`` as markdown (what ``kgen docs`` prints)."""
    import retrieval

    hits = retrieval.search(query, k=k)
    if not hits:
        return f"No passage matches **{query}**."
    parts = [f"**Docs for** `{query}`"]
    for n, h in enumerate(hits, 1):
        head = h.title + (f" — {h.section}" if h.section else "")
        text = h.text if len(h.text) <= 900 else h.text[:900].rsplit("\n", 1)[0] + "\n…"
        parts.append(f"**[{n}] {head}** ({h.source})\n\n{text}")
    return "\n\n---\n\n".join(parts)
