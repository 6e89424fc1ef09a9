"""The server's commands (``workspace/executeCommand``), each a long job with work-done progress and
cancellation (``lsp.jobs``):

    kgen.benchmark          [uri]                      bench the file's program or project (child process);
                                                       -> {report, png, report_path, target}
    kgen.buildDiagnostics   [uri]                      the emulator build now; -> [finding, ...]
    kgen.generate           [{task | prompt, output?}] agent_graph.api.run -> {status, message, project, report, run_id}
    kgen.fixWithAssistant   [uri, {task?}]             agent_graph.api.repair_project on the file's project
                                                       -> {status, message, edit (WorkspaceEdit of the changed files)}
    kgen.fixCompileErrors   [uri]                      every deterministic quick fix of the file, applied until none
                                                       is left -> {edit, fixes: [titles]}

Edits are also sent to the client with ``workspace/applyEdit`` (a client that runs the command from its
palette does not see the result). Settings for the agent: the server's settings tree (lsp.config: the
workspace folder's, with the editor's ``model.url`` / ``backend`` / ``offline`` on top).
"""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from pathlib import Path

from lsprotocol import types as T

from lsp import onsave
from lsp.code_actions import fix_all
from lsp.jobs import Cancelled, Job
from lsp.onsave import SimState, bench_findings_of, path_of
from lsp.protocol import whole_file_edit
from lsp.targets import task_file, target_of

log = logging.getLogger("kgen.lsp")


class CommandError(Exception):
    """A user mistake: the message is one sentence."""


def _uri_arg(args: list) -> str:
    if not args or not isinstance(args[0], str):
        raise CommandError("the command needs the file URI as its first argument")
    return args[0]


# ---- quick fixes ------------------------------------------------------------------------------

async def _apply(ls, label: str, edit: T.WorkspaceEdit) -> None:
    if not edit.changes:
        return
    try:
        ls.workspace_apply_edit(T.ApplyWorkspaceEditParams(edit=edit, label=label))
    except Exception:   # noqa: BLE001 - the edit is in the result as well
        log.warning("workspace/applyEdit failed")


async def fix_compile_errors(ls, args: list) -> dict:
    uri = _uri_arg(args)
    doc = ls.workspace.get_text_document(uri)
    old = doc.source
    new, titles = fix_all(old)
    edit = whole_file_edit(uri, old, new) if new != old else T.WorkspaceEdit(changes={})
    await _apply(ls, "kgen: fix compile errors", edit)
    return {"fixes": titles, "edit": ls.protocol._converter.unstructure(edit)}


# ---- emulator build, benchmark ----------------------------------------------------------------

async def build_diagnostics(ls, state: SimState, args: list, token, republish) -> list[dict]:
    uri = _uri_arg(args)
    if path_of(uri) is None or target_of(path_of(uri)) is None:
        raise CommandError("the file is neither a kernel-launch program nor part of an op project")
    await ls.config.wait()
    found = await onsave.build(ls, state, uri, republish, token, env=ls.config.child_env())
    return [f.to_dict() for f in found or []]


def _outdir(target_key: str) -> Path:
    # loaded by the overload table's warm-up long before a command runs
    # lazy: bench_bridge.api imports the whole bench bridge, ~0.2-0.3 s (measured), not on the server's start
    from bench_bridge.api import cache_root

    return cache_root() / "lsp" / hashlib.sha256(target_key.encode()).hexdigest()[:16]


async def benchmark(ls, state: SimState, args: list, token, republish) -> dict:
    uri = _uri_arg(args)
    path = path_of(uri)
    target = target_of(path) if path is not None else None
    if target is None:
        raise CommandError("the file is neither a kernel-launch program (no main) nor part of an op project")
    await ls.config.wait()
    job = Job(ls, f"kgen: benchmarking {target.path.name}", token, request=True)
    await job.begin("starting")

    def line(s: str) -> None:
        if s.startswith("progress: "):
            job.report(s[len("progress: "):])

    try:
        rc, out, err = await job.child(["-m", "lsp.benchjob", str(path), str(_outdir(target.key))], on_line=line,
                                       env=ls.config.child_env())
    except Cancelled:
        job.end("cancelled")
        return {"status": "cancelled"}
    finally:
        job.end()
    try:
        res = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise CommandError(f"the benchmark failed: {(err.strip().splitlines() or ['no output'])[-1]}")
    if "error" in res:
        raise CommandError(res["error"])
    before = state.files(target.key)
    state.reports[target.key] = res["report"]
    bench_findings_of(state, target, path.resolve())
    republish(before | state.files(target.key))
    res["status"] = "done"
    return res


# ---- the agent --------------------------------------------------------------------------------

def _event_line(ev: object) -> str | None:
    """The progress line of an agent event (None: not worth a line)."""
    # lazy: agent_graph.events (+ agent_graph.types) costs ~30 ms of the server's start (measured); a command needs it
    from agent_graph.events import CaseResult, NodeFinished, NodeStarted, Note

    match ev:
        case NodeStarted():
            return f"{ev.node} {ev.detail}".strip()
        case NodeFinished():
            return f"{ev.node}: {ev.detail}".strip(": ") if ev.detail else None
        case CaseResult():
            return f"case {ev.index}/{ev.total} ({ev.case_id}): {ev.status}"
        case Note():
            return ev.text
    return None


def _on_event(job: Job):
    def on_event(ev) -> None:
        msg = _event_line(ev)
        if msg:
            job.loop.call_soon_threadsafe(job.report, msg)
    return on_event


def _outcome(o) -> dict:
    return {"run_id": o.run_id, "status": o.status, "message": o.message,
            "project": str(o.project) if o.project else None, "report": o.report}


async def generate(ls, args: list, token) -> dict:
    # lazy: agent_graph.api imports the agent (its prompts, the evaluation engine): ~0.3 s measured, off the server's start
    from agent_graph import api

    spec = args[0] if args and isinstance(args[0], dict) else {"task": args[0]} if args and isinstance(args[0], str) else {}
    task, words = spec.get("task"), spec.get("prompt") or spec.get("words")
    if not task and not words:
        raise CommandError("kgen.generate needs a task path or a prompt")
    if task and not Path(task).exists():
        raise CommandError(f"no such task: {task}")
    root = Path(ls.root or ".")
    output = Path(spec["output"]) if spec.get("output") else None
    if output is None and task:
        t = Path(task).resolve()
        output = root / "kgen-out" / (t.parent.name if t.name == task_file() else t.stem)
    await ls.config.wait()
    model, agent = ls.config.agent()
    if spec.get("offline"):
        model = dataclasses.replace(model, url=None)
    job = Job(ls, "kgen: generating a kernel", token, request=True)
    job.loop = asyncio.get_running_loop()
    await job.begin(str(task or words)[:80])
    req = api.Request(task=str(Path(task).resolve()) if task else None, words=words, output=output)
    try:
        out = await job.thread(lambda cancel: api.run(req, model, agent, on_event=_on_event(job), cancel=cancel))
    finally:
        job.end()
    return _outcome(out)


def _snapshot(project: Path) -> dict[Path, str]:
    out = {}
    for sub in ("op_host", "op_kernel"):
        for p in sorted((project / sub).rglob("*")):
            if p.is_file() and p.suffix in (".cpp", ".h", ".hpp", ".cc", ".asc"):
                out[p.resolve()] = p.read_text(errors="replace")
    return out


async def fix_with_assistant(ls, args: list, token) -> dict:
    # lazy: agent_graph.api imports the agent (its prompts, the evaluation engine): ~0.3 s measured, off the server's start
    from agent_graph import api

    uri = _uri_arg(args)
    extra = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    path = path_of(uri)
    target = target_of(path) if path is not None else None
    if target is None or target.kind != "project":
        raise CommandError("Fix with assistant works on a file of an op project (op_host/ + op_kernel/)")
    task = extra.get("task") or (str(target.task / task_file()) if target.task and (target.task / task_file()).is_file()
                                 else str(target.task) if target.task else None)
    await ls.config.wait()
    model, agent = ls.config.agent()
    before = _snapshot(target.path)
    job = Job(ls, f"kgen: repairing {target.path.name} with the assistant", token, request=True)
    job.loop = asyncio.get_running_loop()
    await job.begin()
    try:
        out = await job.thread(lambda cancel: api.repair_project(target.path, task, model, agent,
                                                                 on_event=_on_event(job), cancel=cancel))
    finally:
        job.end()
    after = _snapshot(target.path)
    changes: dict[str, list[T.TextEdit]] = {}
    for p, new in after.items():
        old = before.get(p)
        if old == new:
            continue
        doc_uri = p.as_uri()
        if old is None:
            continue      # a new file: on disk already; a TextEdit cannot create it
        edit = whole_file_edit(doc_uri, old, new, to_end=True)
        changes.update(edit.changes)
    edit = T.WorkspaceEdit(changes=changes)
    await _apply(ls, "kgen: fix with assistant", edit)
    res = _outcome(out)
    res["edit"] = ls.protocol._converter.unstructure(edit)
    res["changed"] = sorted(changes)
    return res
