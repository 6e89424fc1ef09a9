"""Typed events the agent streams while it works; the CLI, the TUI (`kgen chat`) and the LSP render them.

Every event is a frozen dataclass with a ``kind`` tag and serialises to a plain dict (``to_dict``), so a
run folder can keep them as JSON lines (``events.jsonl``) and a front end in another process can read
them back (``from_dict``). Events describe what happened; they never carry live objects.

Order within one run:
    RunStarted, then for each graph node NodeStarted ... NodeFinished (with Token, FilesWritten,
    Diagnostics, CaseResult, Note in between), then Report (when a candidate was benchmarked),
    then RunFinished exactly once (also on failure, cancel or an unsupported request).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, ClassVar, Literal, Union

from agent_graph.types import NodeName, OutcomeStatus

CaseStatus = Literal["pass", "fail", "error"]


@dataclass(frozen=True)
class RunStarted:
    run_id: str
    run_dir: str                 # the run folder: prompts, replies, files, diagnostics of every round
    model: str                   # "offline drafter" or "<model name> @ <endpoint URL>"
    task: str                    # the task path or the user's words
    resumed: bool = False
    kind: ClassVar[str] = "run_started"


@dataclass(frozen=True)
class NodeStarted:
    node: NodeName               # graph node: understand, plan, retrieve, draft, build, repair, verify, benchmark, report
    detail: str = ""             # e.g. "build 2/4", "sample 1/3"
    kind: ClassVar[str] = "node_started"


@dataclass(frozen=True)
class NodeFinished:
    node: NodeName
    ok: bool = True
    detail: str = ""             # one line: "3 errors", "5/5 cases correct", "unsupported: aten.conv2d"
    seconds: float = 0.0
    kind: ClassVar[str] = "node_finished"


@dataclass(frozen=True)
class Token:
    text: str                    # a piece of the model's streamed reply
    node: str = ""
    kind: ClassVar[str] = "token"


@dataclass(frozen=True)
class FilesWritten:
    round: int                   # 0 = first draft, then one per repair
    reason: str                  # "draft" | "build repair" | "correctness repair" | "parse repair"
    files: dict[str, str] = field(default_factory=dict)   # project-relative path -> full text
    project: str = ""            # the candidate's project folder on disk
    kind: ClassVar[str] = "files_written"


@dataclass(frozen=True)
class Diagnostics:
    round: int
    items: list[dict] = field(default_factory=list)      # bench_bridge Diagnostic.to_dict() each
    kind: ClassVar[str] = "diagnostics"


@dataclass(frozen=True)
class CaseResult:
    index: int                   # 1-based
    total: int
    case_id: str
    status: CaseStatus
    message: str = ""
    kind: ClassVar[str] = "case_result"


@dataclass(frozen=True)
class Note:
    text: str
    level: str = "info"          # "info" | "warning" | "error"
    kind: ClassVar[str] = "note"


@dataclass(frozen=True)
class Report:
    report: dict[str, Any]       # bench_bridge BenchReport.to_dict() (docs/report-schema.md)
    project: str
    kind: ClassVar[str] = "report"


@dataclass(frozen=True)
class RunFinished:
    run_id: str
    status: OutcomeStatus
    message: str = ""            # one line a user reads
    project: str = ""            # best candidate's project folder ("" when none was built)
    kind: ClassVar[str] = "run_finished"


Event = Union[RunStarted, NodeStarted, NodeFinished, Token, FilesWritten, Diagnostics, CaseResult, Note, Report,
              RunFinished]
EventSink = Callable[[Event], None]
EVENT_TYPES: dict[str, type] = {t.kind: t for t in (RunStarted, NodeStarted, NodeFinished, Token, FilesWritten,
                                                     Diagnostics, CaseResult, Note, Report, RunFinished)}


def to_dict(ev: Event) -> dict:
    d = asdict(ev)
    d["kind"] = ev.kind
    return d


def from_dict(d: dict) -> Event:
    """Inverse of ``to_dict``; unknown keys are ignored so old run folders stay readable."""
    cls = EVENT_TYPES[d["kind"]]
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in names})
