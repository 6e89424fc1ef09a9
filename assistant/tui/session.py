"""A chat session on disk: the transcript, the agent runs it started, and each run's events.

Layout under ``AgentSettings.data_dir/sessions/<id>/``::

    transcript.jsonl      one {"role", "text"} per chat message, appended as it is shown
    runs.jsonl            one {"run_id", "kind", "target", "status"} per change; the last line of a run wins
    events/<run_id>.jsonl every event of that run (agent_graph.events.to_dict), appended as it arrives
    state.json            the session's settings: model URL, backend, current project (rewritten whole)

Everything is appended and flushed as it happens, so a crash or a closed terminal loses nothing
already shown; ``kgen chat --resume`` reads it back and the panels are rebuilt by replaying events.
"""
from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from agent_graph.api import CLOSED_STATUSES, RunStatus
from agent_graph.events import Event, from_dict, to_dict

Role = Literal["user", "assistant", "system", "error"]
"""Who a chat message is from (its CSS class in the chat log)."""
RunKind = Literal["generate", "fix", "words", "bench"]
"""What started a run: a task (generate), a project to repair (fix), the user's words, or a bench."""


class SessionError(Exception):
    """A session that does not exist or cannot be read (message is one sentence)."""


@dataclass
class Message:
    role: Role
    text: str


@dataclass
class RunRecord:
    run_id: str
    kind: RunKind
    target: str          # task path, project path or the user's words
    status: RunStatus = "running"

    @property
    def resumable(self) -> bool:
        """Not closed: a "running" (cut off) or "cancelled" run can be continued."""
        return self.status not in CLOSED_STATUSES


@dataclass
class SessionState:
    model_url: str | None = None
    backend: str = "sim"
    project: str = ""    # the current op project (what /bench, /fix, /save and /undo act on)
    task: str = ""       # the last task generated for


@dataclass
class SessionInfo:
    id: str
    title: str
    updated: float
    runs: int
    last_status: str


def sessions_root(data_dir: Path) -> Path:
    return Path(data_dir) / "sessions"


def new_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def _append(path: Path, record: dict, sync: bool = True) -> None:
    """One JSON line, flushed (a killed process loses nothing); ``sync`` also survives a power cut."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")
        f.flush()
        if sync:
            os.fsync(f.fileno())


def _read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue      # a line cut short by a crash
        if isinstance(rec, dict):
            out.append(rec)
    return out


@dataclass
class Session:
    id: str
    dir: Path
    state: SessionState = field(default_factory=SessionState)

    # ---- opening ---------------------------------------------------------------------------
    @classmethod
    def create(cls, data_dir: Path, state: SessionState | None = None) -> "Session":
        root = sessions_root(data_dir)
        sid = new_id()
        while (root / sid).exists():
            sid = new_id()
        s = cls(sid, root / sid, state or SessionState())
        (s.dir / "events").mkdir(parents=True)
        s.save_state()
        return s

    @classmethod
    def open(cls, data_dir: Path, sid: str | None = None) -> "Session":
        """A saved session by id (or a unique id prefix); ``None``: the most recently updated one."""
        root = sessions_root(data_dir)
        if sid is None:
            infos = list_sessions(data_dir)
            if not infos:
                raise SessionError(f"no saved session in {root}")
            sid = infos[0].id
        d = root / sid
        if not d.is_dir():
            matches = [p for p in root.glob(f"{sid}*") if p.is_dir()] if root.is_dir() and sid else []
            if len(matches) != 1:
                raise SessionError(f"no session '{sid}' (see /sessions)" if not matches else
                                   f"session id '{sid}' is ambiguous: {', '.join(sorted(m.name for m in matches))}")
            d = matches[0]
        state = SessionState()
        try:
            raw = json.loads((d / "state.json").read_text())
            state = SessionState(**{k: v for k, v in raw.items() if k in SessionState.__dataclass_fields__})
        except (OSError, ValueError, TypeError, AttributeError):   # damaged: the defaults (a JSON list has no items)
            pass
        return cls(d.name, d, state)

    # ---- writing ---------------------------------------------------------------------------
    def save_state(self) -> None:
        tmp = self.dir / "state.json.tmp"
        tmp.write_text(json.dumps(asdict(self.state), indent=1))
        tmp.replace(self.dir / "state.json")

    def add_message(self, role: str, text: str) -> None:
        _append(self.dir / "transcript.jsonl", {"role": role, "text": text, "time": time.time()})

    def record_run(self, run: RunRecord) -> None:
        _append(self.dir / "runs.jsonl", asdict(run))

    def add_event(self, run_id: str, ev: Event) -> None:
        _append(self.dir / "events" / f"{run_id}.jsonl", to_dict(ev), sync=False)   # tokens come fast

    # ---- reading ---------------------------------------------------------------------------
    def messages(self) -> list[Message]:
        return [Message(m.get("role", "system"), m.get("text", "")) for m in _read_jsonl(self.dir / "transcript.jsonl")]

    def runs(self) -> list[RunRecord]:
        """Runs in the order they were started, each with its latest status."""
        latest: dict[str, RunRecord] = {}
        for r in _read_jsonl(self.dir / "runs.jsonl"):
            try:
                latest[r["run_id"]] = RunRecord(r["run_id"], r["kind"], r["target"], r.get("status", "running"))
            except KeyError:
                continue
        return list(latest.values())

    def events(self, run_id: str) -> list[Event]:
        out = []
        for d in _read_jsonl(self.dir / "events" / f"{run_id}.jsonl"):
            try:
                out.append(from_dict(d))
            except (KeyError, TypeError):
                continue
        return out


def list_sessions(data_dir: Path) -> list[SessionInfo]:
    """Saved sessions, most recently updated first."""
    root = sessions_root(data_dir)
    if not root.is_dir():
        return []
    infos = []
    for d in root.iterdir():
        if not (d / "state.json").exists():
            continue
        s = Session(d.name, d)
        first = next((m.text for m in s.messages() if m.role == "user"), "(empty)")
        runs = s.runs()
        updated = max((p.stat().st_mtime for p in d.rglob("*") if p.is_file()), default=d.stat().st_mtime)
        infos.append(SessionInfo(d.name, first.splitlines()[0][:60] if first else "", updated, len(runs),
                                 runs[-1].status if runs else "-"))
    infos.sort(key=lambda i: (i.updated, i.id), reverse=True)
    return infos
