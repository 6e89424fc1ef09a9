"""On save (and on ``kgen.buildDiagnostics``): the emulator build's diagnostics and the last bench's
run-time findings, published with source ``kgen-sim`` next to the as-you-type ones.

One build per target (program or project) at a time: a newer save of the same target cancels the
running build (its child process is killed) and only the newest result is published. The build runs
in a child process (``python -m lsp.simbuild``), so typing is never blocked.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as T

from lsp.jobs import Cancelled, Job
from lsp.targets import BuildTarget, FileFinding, report_findings, saved_report, target_of

log = logging.getLogger("kgen.lsp")


@dataclass
class SimState:
    build: dict[str, list[FileFinding]] = field(default_factory=dict)    # target key -> build findings
    bench: dict[str, list[FileFinding]] = field(default_factory=dict)    # target key -> last bench findings
    reports: dict[str, dict] = field(default_factory=dict)               # target key -> last bench report
    running: dict[str, tuple[Job, asyncio.Task]] = field(default_factory=dict)
    runs: int = 0                                                        # builds started (for tests/logs)
    cancelled: int = 0

    def findings_for(self, path: str) -> list[FileFinding]:
        out = []
        for group in (self.build, self.bench):
            for fs in group.values():
                out += [f for f in fs if f.file == path]
        return out

    def files(self, key: str) -> set[str]:
        return {f.file for f in self.build.get(key, []) + self.bench.get(key, [])}


def path_of(uri: str) -> Path | None:
    """The file system path of a ``file:`` URI (None for other schemes)."""
    u = urlparse(uri)
    return Path(unquote(u.path)) if u.scheme == "file" else None


def bench_findings_of(state: SimState, target: BuildTarget, fallback: Path) -> None:
    """Load the run-time findings of the target's last bench (in memory, else its report.json)."""
    rep = state.reports.get(target.key) or saved_report(target)
    if rep is not None:
        state.bench[target.key] = report_findings(rep, fallback)


async def build(ls, state: SimState, uri: str, republish, token=None,
                env: Mapping[str, str] | None = None) -> list[FileFinding] | None:
    """Build the target of ``uri``; publish its findings with ``republish(uris)``. Returns the findings,
    or None when this build was superseded or the file belongs to nothing buildable. ``env``: variables
    for the build's child process (the settings tree, ``lsp.config``)."""
    path = path_of(uri)
    target = target_of(path) if path is not None else None
    if target is None:
        return None
    old = state.running.pop(target.key, None)
    if old is not None:
        old[0].cancel()
        old[1].cancel()
        state.cancelled += 1
        ls.window_log_message(T.LogMessageParams(type=T.MessageType.Info,
                                                 message=f"kgen-sim: superseded build of {target.path.name} cancelled"))
    job = Job(ls, f"kgen: building {target.path.name} on the emulator", token)
    state.runs += 1

    async def work():
        await job.begin()
        try:
            rc, out, err = await job.child(["-m", "lsp.simbuild", str(path)], env=env)
            if rc != 0:
                raise RuntimeError(err.strip().splitlines()[-1] if err.strip() else f"exit {rc}")
            return [FileFinding(**d) for d in json.loads(out)]
        finally:
            job.end()

    task = asyncio.ensure_future(work())
    state.running[target.key] = (job, task)
    try:
        found = await task
    except (asyncio.CancelledError, Cancelled):
        job.cancel()
        if not task.done():
            task.cancel()
        if state.running.get(target.key, (None,))[0] is job:
            state.running.pop(target.key, None)
        return None
    except Exception as e:   # noqa: BLE001
        log.exception("emulator build failed for %s", uri)
        found = [FileFinding(str(path.resolve()), 0, 0, "error", f"the emulator build could not run: {e}",
                             "kgen-sim-internal", "build")]
    if state.running.get(target.key, (None,))[0] is job:
        state.running.pop(target.key, None)
    before = state.files(target.key)
    state.build[target.key] = found
    bench_findings_of(state, target, path.resolve())
    republish(before | state.files(target.key) | {str(path.resolve())})
    return found
