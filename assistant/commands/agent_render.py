"""Agent events (agent_graph.events) as concise progress lines on stderr, for ``kgen generate``.

One line per step a user cares about: notes, node results, build errors (the first few), case results
and the run's end. Streamed tokens are not printed (``--verbose`` shows them as they come)."""
from __future__ import annotations

import sys
from typing import TextIO

from agent_graph import events as ev

QUIET_NODES = {"understand", "retrieve", "draft", "report"}   # their news comes as notes / other events


class ProgressPrinter:
    def __init__(self, stream: TextIO | None = None, verbose: bool = False, max_diagnostics: int = 3):
        self.stream = stream or sys.stderr
        self.verbose = verbose
        self.max_diagnostics = max_diagnostics
        self.plan_detail = ""
        self.in_tokens = False

    def _say(self, text: str) -> None:
        if self.in_tokens:
            self.stream.write("\n")
            self.in_tokens = False
        print(f"kgen: {text}", file=self.stream, flush=True)

    def __call__(self, e: ev.Event) -> None:
        if isinstance(e, ev.Token):
            if self.verbose:
                self.stream.write(e.text)
                self.stream.flush()
                self.in_tokens = True
        elif isinstance(e, ev.RunStarted):
            verb = "resuming" if e.resumed else "run"
            self._say(f"{verb} {e.run_id} ({e.model}); run folder {e.run_dir}")
        elif isinstance(e, ev.Note):
            self._say(e.text if e.level == "info" else f"{e.level}: {e.text}")
        elif isinstance(e, ev.NodeStarted):
            if e.node == "repair" or (e.node == "draft" and e.detail):
                self._say(f"{e.node}{f' ({e.detail})' if e.detail else ''}: asking the model…")
        elif isinstance(e, ev.NodeFinished):
            if e.node == "plan":
                self.plan_detail = e.detail
            if e.node not in QUIET_NODES or not e.ok:
                self._say(f"{e.node}: {e.detail} ({e.seconds:.1f} s)" if e.detail else f"{e.node} ({e.seconds:.1f} s)")
        elif isinstance(e, ev.FilesWritten):
            if e.reason != "draft" or e.round:
                self._say(f"round {e.round} ({e.reason}): {len(e.files)} file(s) in {e.project}")
        elif isinstance(e, ev.Diagnostics):
            errors = [d for d in e.items if d.get("severity") == "error"]
            for d in errors[:self.max_diagnostics]:
                self._say(f"  {d.get('file', '')}:{d.get('line', 0)}: error: {d.get('message', '')}")
            if len(errors) > self.max_diagnostics:
                self._say(f"  … {len(errors) - self.max_diagnostics} more error(s)")
        elif isinstance(e, ev.CaseResult):
            tail = f": {e.message}" if e.message and e.status != "pass" else ""
            self._say(f"case {e.index}/{e.total} {e.case_id}: {e.status.upper()}{tail}")
        elif isinstance(e, ev.RunFinished):
            self._say(f"{e.status}: {e.message}" if e.message else e.status)
