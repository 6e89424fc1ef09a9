"""Run ids and run folders.

    <data_dir>/runs/<run_id>/
        request.json         the request and the settings it ran with (api key left out)
        run.json             status line: task, model, status, started, updated (kgen runs reads it)
        events.jsonl         every event, one JSON object a line (agent_graph.events.to_dict)
        rounds/<n>[-s<k>]/   one folder per candidate version: n = round (0 = draft), k = sample (k >= 1)
            prompt.json      the chat messages sent to the model
            reply.md         the model's reply
            files/           the candidate's project (op_host/, op_kernel/, CMakeLists.txt, <op>.json)
            diagnostics.json build diagnostics
            report.json      bench report of this version (docs/report-schema.md)
        final/               the final project (also copied to the requested output folder)
    <data_dir>/checkpoints.sqlite   LangGraph checkpoints, thread_id = run_id
"""
from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import threading
import time
from dataclasses import asdict
from pathlib import Path

from agent_graph.events import Event, RunFinished, RunStarted, to_dict
from agent_graph.settings import ModelSettings
from agent_graph.types import RunInfo, RunStatus


class RunFolderError(Exception):
    """A run folder or the checkpoint database that cannot be read; the message is one line naming the file."""


def runs_root(data_dir: Path) -> Path:
    return Path(data_dir) / "runs"


def new_run_id(task_label: str) -> str:
    """``YYYYMMDD-HHMMSS-<task, 24 characters at most>-<6 hex>``: sortable by start time, readable, unique."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", task_label).lower()[:24].strip("-") or "run"
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}-{secrets.token_hex(3)}"


def model_label(model: ModelSettings) -> str:
    """What a run (run.json, RunStarted) and the front ends' status lines say about the model."""
    return f"{model.name or 'model'} @ {model.url}" if model.configured else "offline drafter"


def round_dir_name(round_no: int, sample: int) -> str:
    return f"{round_no}" if sample == 0 else f"{round_no}-s{sample}"


def check_checkpoints(data_dir: Path) -> None:
    """Raise :class:`RunFolderError` when data_dir/checkpoints.sqlite exists but is not a sound SQLite
    database (cut short, overwritten); it is left as it is, for the user to move away."""
    path = Path(data_dir) / "checkpoints.sqlite"
    if not path.exists():
        return
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=60)
        try:
            row = conn.execute("PRAGMA quick_check").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise RunFolderError(damaged_checkpoints(path, e)) from None
    if row is None or row[0] != "ok":
        raise RunFolderError(damaged_checkpoints(path, row[0] if row else "no answer to quick_check"))


def damaged_checkpoints(path: Path, why) -> str:
    return (f"{path}: the checkpoint database is damaged ({why}); runs cannot be started or resumed with it: "
            "move it away (its runs are then lost to --resume; their folders stay)")


class RunFolder:
    """One run's folder; appends events and keeps run.json's status current. Thread-safe."""

    def __init__(self, data_dir: Path, run_id: str):
        self.run_id = run_id
        self.dir = runs_root(data_dir) / run_id
        self._lock = threading.Lock()

    @property
    def exists(self) -> bool:
        return (self.dir / "request.json").is_file()

    def create(self, request: dict, task_label: str, model_label: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "request.json").write_text(json.dumps(request, indent=2, default=str) + "\n")
        now = time.time()
        self._write_info(RunInfo(self.run_id, task_label, "running", model_label, now, now))

    def request(self) -> dict:
        """The recorded request; a file that is not a JSON object (cut short, overwritten) is a
        :class:`RunFolderError` naming it (the folder is left as it is)."""
        p = self.dir / "request.json"
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:     # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise RunFolderError(f"{p}: damaged ({str(e).splitlines()[0] if str(e) else type(e).__name__}); "
                                 f"run {self.run_id} cannot be resumed: start the task again") from None
        if not isinstance(data, dict):
            raise RunFolderError(f"{p}: damaged (not a JSON object); run {self.run_id} cannot be resumed: "
                                 "start the task again")
        return data

    def info(self) -> RunInfo | None:
        try:
            return RunInfo(**json.loads((self.dir / "run.json").read_text()))
        except (OSError, ValueError, TypeError):
            return None

    def _write_info(self, info: RunInfo) -> None:
        tmp = self.dir / "run.json.tmp"
        tmp.write_text(json.dumps(asdict(info)) + "\n")
        tmp.replace(self.dir / "run.json")

    def set_status(self, status: RunStatus, model_label: str | None = None) -> None:
        with self._lock:
            info = self.info()
            if info is None:
                return
            info.status = status
            if model_label:
                info.model = model_label
            info.updated = time.time()
            self._write_info(info)

    def record(self, ev: Event) -> None:
        """Append ``ev`` to events.jsonl (and track the status in run.json)."""
        line = json.dumps(to_dict(ev), default=str) + "\n"
        with self._lock:
            with open(self.dir / "events.jsonl", "a+b") as f:
                if f.tell() > 0:          # a line cut short by a killed process must not swallow this one
                    f.seek(-1, 2)
                    if f.read(1) != b"\n":
                        line = "\n" + line
                f.write(line.encode())
        if isinstance(ev, RunFinished):
            self.set_status(ev.status)
        elif isinstance(ev, RunStarted):
            self.set_status("running", ev.model)

    def events(self) -> list[dict]:
        p = self.dir / "events.jsonl"
        if not p.exists():
            return []
        out = []
        for line in p.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass   # a line cut short by a killed process
        return out

    # ---- rounds --------------------------------------------------------------------------------

    def round_dir(self, round_no: int, sample: int) -> Path:
        d = self.dir / "rounds" / round_dir_name(round_no, sample)
        d.mkdir(parents=True, exist_ok=True)
        return d

    def save_json(self, round_no: int, sample: int, name: str, data) -> Path:
        p = self.round_dir(round_no, sample) / name
        p.write_text(json.dumps(data, indent=2, default=str) + "\n")
        return p

    def save_text(self, round_no: int, sample: int, name: str, text: str) -> Path:
        p = self.round_dir(round_no, sample) / name
        p.write_text(text)
        return p


def list_run_infos(data_dir: Path) -> list[RunInfo]:
    """Every run under ``data_dir/runs`` as :class:`RunInfo`, newest first. A run whose
    process died while running shows status "interrupted" (it can be resumed)."""
    root = runs_root(data_dir)
    if not root.is_dir():
        return []
    out = []
    for d in root.iterdir():
        info = RunFolder(data_dir, d.name).info()
        if info is None:
            continue
        if info.status == "running" and not _alive(d):
            info.status = "interrupted"
        out.append(info)
    out.sort(key=lambda r: r.started, reverse=True)
    return out


def _alive(run_dir: Path) -> bool:
    """Whether the process that owns a running run is still there (pid file written by the driver)."""
    try:
        pid = int((run_dir / "pid").read_text())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return pid != 0
