"""What every node gets besides the state: settings, the event sink, the cancel flag, the run folder.
Nothing here is checkpointed; a resumed run builds a new context."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from agent_graph.events import Event
from agent_graph.llm import ChatClient
from agent_graph.runs import RunFolder
from agent_graph.settings import AgentSettings, ModelSettings
from bench_bridge.api import load_task


class Cancelled(Exception):
    """The user cancelled the run (the run stays resumable)."""


class RunError(Exception):
    """The run cannot go on (model unreachable, reference failing...): one line for the user."""


@dataclass
class Ctx:
    model: ModelSettings
    agent: AgentSettings
    folder: RunFolder
    emit: Callable[[Event], None]
    cancel: threading.Event = field(default_factory=threading.Event)
    cache: dict[str, Any] = field(default_factory=dict)   # per-process memo (loaded Task, drafter plan)
    max_parse_repairs: int = 2
    confirm: Callable[[Path], bool] | None = None          # asked about a spec written from words (api.run)

    @property
    def run_dir(self) -> Path:
        return self.folder.dir

    @property
    def offline(self) -> bool:
        return not self.model.configured

    def check_cancel(self) -> None:
        if self.cancel.is_set():
            raise Cancelled("cancelled")

    def task(self, path: str):
        """The bench_bridge Task at ``path`` (loaded once per process)."""
        key = f"task:{path}"
        if key not in self.cache:
            self.cache[key] = load_task(Path(path))
        return self.cache[key]

    def client(self):
        if "client" not in self.cache:
            self.cache["client"] = ChatClient(self.model)
        return self.cache["client"]
