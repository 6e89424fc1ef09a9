"""Typed requests, results and events of ``kgen eval`` (the vocabularies are Literals, the records dataclasses).

Every record is plain data (str, int, float, bool, list, dict) so it crosses a process (or a Ray task)
boundary as JSON and lands in results.jsonl unchanged.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

Stage = Literal["generate", "compile", "correctness", "performance"]
"""Where a candidate stopped: ``generate`` (no project came out), ``compile`` (it did not build),
``correctness`` (it built, some case was wrong or crashed), ``performance`` (every case correct, timed)."""
STAGES: tuple[str, ...] = get_args(Stage)

GeneratorKind = Literal["offline", "model", "golden", "projects"]
GENERATORS: tuple[str, ...] = get_args(GeneratorKind)

Outcome = Literal["ok", "failed", "crashed", "timeout", "skipped"]
"""``ok``: the candidate went through the pipeline (whatever its verdict); ``crashed``/``timeout``: its
isolated child died or ran past the limit; ``skipped``: the generator had nothing for this task."""

Backend = Literal["sim", "npu"]
TaskFormat = Literal["npukernelbench", "kernelbench", "kgen-spec"]

ERROR_CLASSES = ("api-signature", "dtype-conversion", "scope-lifetime", "memory-misuse", "syntax-macro",
                 "wrong-result", "runtime", "harness", "other")
"""The paper's taxonomy of compiler failures (first five) plus what is not a compiler failure
(``harness``: the candidate could not be tested, e.g. the task's reference did not run)."""

LEVEL_WEIGHTS = {"level1": 0.2, "level2": 0.3, "level3": 0.5}
FAST_P = (0.8, 1.0, 1.5)


@dataclass
class SuiteTask:
    """One task of a suite: where it lives and how the suite groups it."""

    name: str                     # unique within the suite (NPUKernelBench: level/category/name)
    path: str                     # what bench_bridge.tasks.load_task reads
    format: str
    level: str = ""               # "level1" ... ("" when the suite has no levels)
    category: str = ""
    cases: int = 0
    golden: str | None = None     # the task's own answer project, when it has one


@dataclass
class Limits:
    candidate_seconds: float = 1800.0   # wall clock of one candidate's isolated child (generate + bench)
    memory_mb: int = 16384              # address space of that child
    run_timeout: float = 120.0          # one kernel run (bench_bridge's own limit)
    retries: int = 1                    # transient failures (a child killed by load) are retried this often


@dataclass
class CandidateJob:
    """What one isolated child does: generate candidate ``sample`` of ``task`` and push it through the stages."""

    task: SuiteTask
    generator: str                      # GeneratorKind, or "projects"
    sample: int = 0
    projects_dir: str | None = None     # generator "projects": DIR/<task name or leaf name>
    backend: str = "sim"
    limits: Limits = field(default_factory=Limits)
    model: dict[str, Any] = field(default_factory=dict)    # agent_graph.settings.ModelSettings fields
    agent: dict[str, Any] = field(default_factory=dict)    # AgentSettings fields (data_dir as str)
    keep_runs: str | None = None        # where the agent's run folders go (the training export reads them)
    golden_us: float | None = None      # the golden answer's modelled time (T_ref), when known
    soc: str | None = None              # the emulated SoC (bench.soc); None: the inherited setting
    perf: bool = True                   # trace each case's run and model its time (False: correctness only)

    @property
    def key(self) -> str:
        return f"{self.task.name}#{self.sample}"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "CandidateJob":
        d = dict(d)
        d["task"] = SuiteTask(**d["task"])
        d["limits"] = Limits(**d["limits"])
        return cls(**d)


@dataclass
class CaseResult:
    case_id: str
    status: str                         # pass | fail | error
    message: str = ""
    modelled_us: float | None = None
    speedup_vs_eager: float | None = None


@dataclass
class CandidateResult:
    """One line of results.jsonl."""

    task: str
    sample: int
    generator: str
    level: str
    category: str
    outcome: str                         # Outcome
    stage: str                           # Stage reached (where it stopped)
    compiled: bool = False
    correct: bool = False
    cases_passed: int = 0
    cases_total: int = 0
    cases: list[dict] = field(default_factory=list)          # CaseResult dicts, failing ones with their error
    error_class: str | None = None                           # ERROR_CLASSES, for a failure
    diagnostics: dict[str, Any] = field(default_factory=dict)  # {"errors": n, "first": "...", "classes": {...}}
    message: str = ""
    modelled_us: float | None = None                         # sum over cases, correct candidates only
    speedup_vs_eager: float | None = None                    # geometric mean over cases
    speedup_vs_golden: float | None = None
    golden_us: float | None = None
    run_id: str | None = None                                # the agent's run (model / offline generators)
    project: str | None = None
    attempts: int = 1
    seconds: float = 0.0
    schema: str = "kgen.eval-result/1"

    @property
    def key(self) -> str:
        return f"{self.task}#{self.sample}"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "CandidateResult":
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class EvalRequest:
    suite: Path
    generator: str = "offline"          # offline | model | golden | projects:DIR
    k: int = 1
    jobs: int = 1
    backend: str = "sim"
    ray_address: str | None = None
    output: Path = Path("kgen-eval")
    levels: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)      # fnmatch globs over the task name
    export_training: Path | None = None
    limits: Limits = field(default_factory=Limits)
    vs_golden: bool = True              # also time the golden answer of tasks that have one (T_ref)
    soc: str | None = None              # the emulated SoC (soc.toml name, kgen eval --soc); None: the bench.soc setting
    perf: bool = True                   # the performance stage (kgen eval --no-perf: correctness only, no trace or model)

    @property
    def generator_kind(self) -> str:
        return self.generator.split(":", 1)[0]

    @property
    def projects_dir(self) -> str | None:
        return self.generator.split(":", 1)[1] if self.generator.startswith("projects:") else None


@dataclass
class Progress:
    """A live-progress event: ``done`` of ``total`` candidates, how many correct, an ETA in seconds."""

    done: int
    total: int
    correct: int
    skipped_resumed: int
    elapsed: float
    eta: float | None
    last: CandidateResult | None = None


@dataclass
class EvalSummary:
    """What summary.json holds (agent_graph.evaluate.metrics computes it from the results)."""

    suite: str
    generator: str
    k: int
    backend: str
    tasks: int
    candidates: int
    metrics: dict[str, Any]
    levels: dict[str, dict[str, Any]]
    categories: dict[str, dict[str, Any]]
    per_task: list[dict[str, Any]]
    error_classes: dict[str, int]
    weighted_score: float | None
    charts: dict[str, str] = field(default_factory=dict)
    output: str = ""
    schema: str = "kgen.eval-summary/1"

    def to_dict(self) -> dict:
        return asdict(self)


class EvalError(Exception):
    """A user mistake (bad suite, bad generator, unreadable output folder): one sentence."""
