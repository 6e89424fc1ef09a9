"""Shared by the agent tests: run the real graph against a ScriptedOpenAI server and collect its events."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from agent_graph import api
from agent_graph.events import Event
from agent_graph.settings import AgentSettings, ModelSettings
from tests.agent_graph.scripted_kernels import TASK


@dataclass
class Ran:
    outcome: api.RunOutcome
    events: list[Event] = field(default_factory=list)

    def of(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    @property
    def run_dir(self) -> Path:
        return Path(self.of("run_started")[0].run_dir)


def settings(tmp_path: Path, url: str | None, **agent_kw) -> tuple[ModelSettings, AgentSettings]:
    model = ModelSettings(url=url, timeout=agent_kw.pop("model_timeout", 60.0), stream=agent_kw.pop("stream", True))
    kw = dict(retrieve=False, profile=False, data_dir=tmp_path / "data")
    kw.update(agent_kw)
    return model, AgentSettings(**kw)


def run_agent(tmp_path: Path, url: str | None, task: Path = TASK, **agent_kw) -> Ran:
    model, agent = settings(tmp_path, url, **agent_kw)
    events: list[Event] = []
    out = api.run(api.Request(task=str(task), output=tmp_path / "out"), model, agent, on_event=events.append)
    return Ran(out, events)


def user_text(request_body: dict) -> str:
    """Everything the user messages of one recorded chat request said."""
    return "\n".join(m["content"] for m in request_body["messages"] if m["role"] == "user")
