"""The bench report: one versioned JSON schema shared by ``kgen bench``, ``kgen generate``, the TUI
and the LSP (documented in docs/report-schema.md), and its human rendering.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from bench_bridge.tasks.model import TaskFormat

SCHEMA = "kgen.bench-report"
SCHEMA_VERSION = 2   # 2: the ``artifacts`` object (trace, timeline picture, build dir)


CaseStatus = Literal["pass", "fail", "error", "unverified"]
"""A case's result: ``unverified`` is a program that ran but checked nothing (never correct)."""
Checker = Literal["npukernelbench", "custom", "program"]
"""Who judged a case: NPUKernelBench's precision rule, the task's ``custom_check_precision``, or the
kernel-launch program's own PASS/FAIL line."""
Backend = Literal["sim", "npu"]
"""Where kernels run: kgen's CPU emulator, or a real NPU through CANN."""
ReportFormat = Literal[TaskFormat, "kernel-launch"]
"""What was benched: a task of one of the formats, or a kernel-launch program."""
Verdict = Literal["CORRECT", "INCORRECT", "UNVERIFIED"]


@dataclass
class OutputCheck:
    name: str
    dtype: str
    shape: list[int]
    passed: bool
    max_abs_error: float
    max_rel_error: float
    mismatches: int
    total: int
    first_mismatch: list[int] | None = None
    expected: float | None = None
    actual: float | None = None
    threshold: float = 0.0
    reason: str = ""


@dataclass
class CaseReport:
    case_id: str
    params: dict[str, Any]
    input_shapes: list[list[int]]
    dtypes: list[str]
    status: CaseStatus
    outputs: list[OutputCheck] = field(default_factory=list)
    message: str = ""          # why a case failed or errored, in one sentence
    checker: Checker = "npukernelbench"
    block_dim: int | None = None
    tiling_key: int | None = None
    seconds: float = 0.0
    diagnostics: list[dict] = field(default_factory=list)
    performance: dict[str, Any] | None = None  # bench --profile: the performance model of this case (PerfReport.to_dict())


@dataclass
class Artifacts:
    """Files a bench leaves for the front ends (paths, absolute; None when not written).

    ``trace`` and ``timeline_png`` are those of the first profiled case (``case_id``); ``cases`` maps
    every profiled case id to its own ``{"trace", "timeline_png"}``. They exist only with a profile
    (``kgen bench --profile``); ``dir`` is the folder they were written to (``BenchOptions.artifacts_dir``,
    else a run folder under the kgen cache); ``build_dir`` the folder of the emulator executable built
    for the run (the first one when several dtype combinations were built)."""
    dir: str | None = None
    build_dir: str | None = None
    trace: str | None = None          # Chrome-trace JSON of the modelled timeline (Perfetto, chrome://tracing)
    timeline_png: str | None = None   # timeline + pipe busy + roofline picture
    case_id: str | None = None
    cases: dict[str, dict[str, str | None]] = field(default_factory=dict)


@dataclass
class BenchReport:
    task: str
    task_format: ReportFormat
    path: str
    backend: Backend
    project: str | None
    compiled: bool
    correct: bool
    cases: list[CaseReport] = field(default_factory=list)
    build_diagnostics: list[dict] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0
    performance: dict[str, Any] | None = None  # filled by the performance model / NPU timing
    artifacts: Artifacts = field(default_factory=Artifacts)
    schema: str = SCHEMA
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        # a report read back from JSON (BenchReport(**data)) carries its artifacts as a dict, or none (version 1)
        if isinstance(self.artifacts, dict):
            known = Artifacts.__dataclass_fields__
            self.artifacts = Artifacts(**{k: v for k, v in self.artifacts.items() if k in known})
        elif self.artifacts is None:
            self.artifacts = Artifacts()

    @property
    def passed_cases(self) -> int:
        return sum(c.status == "pass" for c in self.cases)

    @property
    def verdict(self) -> Verdict:
        """CORRECT | INCORRECT | UNVERIFIED (every case ran without a failure, but some verified nothing)."""
        if self.correct:
            return "CORRECT"
        if self.compiled and self.cases and all(c.status in ("pass", "unverified") for c in self.cases):
            return "UNVERIFIED"
        return "INCORRECT"

    def to_dict(self) -> dict:
        return asdict(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=_json_default)


def _json_default(o: Any):
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "tolist"):
        return o.tolist()
    return str(o)


def render_text(rep: BenchReport) -> str:
    """A readable table: one row per case, then the overall verdict."""
    lines = [f"task: {rep.task} ({rep.task_format})  backend: {rep.backend}" + (f"  project: {rep.project}" if rep.project else "")]
    if not rep.compiled:
        lines.append("build: FAILED")
        for d in rep.build_diagnostics[:20]:
            lines.append(f"  {d.get('file', '')}:{d.get('line', 0)}: {d.get('severity', 'error')}: {d.get('message', '')}")
        if rep.message:
            lines.append(rep.message)
        return "\n".join(lines)
    w = max([5] + [len(str(c.case_id)) for c in rep.cases])
    header = f"{'case':>{w}}  {'shape':<24} {'dtype':<9} {'result':<6} {'max abs err':>12} {'max rel err':>12}  first mismatch"
    lines += [header, "-" * len(header)]
    for c in rep.cases:
        shape = "x".join(str(d) for d in c.input_shapes[0]) if c.input_shapes else "-"
        if len(c.input_shapes) > 1:
            shape += f" (+{len(c.input_shapes) - 1})"
        dtype = c.dtypes[0] if c.dtypes else "-"
        if c.outputs:
            mabs = max(o.max_abs_error for o in c.outputs)
            mrel = max(o.max_rel_error for o in c.outputs)
            bad = next((o for o in c.outputs if not o.passed), None) if c.status != "pass" else None
            first = ""
            if bad is not None:
                first = bad.reason or (f"{bad.name}{bad.first_mismatch}: got {bad.actual:g}, want {bad.expected:g}"
                                       if bad.first_mismatch is not None else "")
            row = f"{c.case_id:>{w}}  {shape:<24} {dtype:<9} {c.status.upper():<6} {mabs:>12.3g} {mrel:>12.3g}  {first}"
        else:
            row = f"{c.case_id:>{w}}  {shape:<24} {dtype:<9} {c.status.upper():<6} {'-':>12} {'-':>12}  {c.message}"
        lines.append(row)
        if c.status == "error" and c.outputs:
            lines.append(f"       {c.message}")
        lines += [f"{'':>{w + 1}}{f}" for f in finding_lines(c)]
    perf_rows = [c for c in rep.cases if c.performance]
    if perf_rows:
        lines.append("")
        lines.append(f"{'case':>{w}}  {'modelled us':>12} {'bound':<16} {'GM GB/s':>8} {'eager us':>10} {'speedup':>8}")
        for c in perf_rows:
            p = c.performance
            eager = p.get("eager_us")
            sp = p.get("speedup_vs_eager")
            bound = str(p["bound"]).split(" (")[0]
            lines.append(f"{c.case_id:>{w}}  {p['modelled_us']:>12.2f} {bound:<16} {p.get('achieved_gbps', 0):>8.1f} "
                         f"{(f'{eager:.2f}' if eager is not None else '-'):>10} {(f'{sp:.2f}x' if sp else '-'):>8}")
        lines.append("(modelled by the emulator's performance model: docs/performance-model.md)")
        for c in perf_rows:
            hot = c.performance.get("hot_lines") or []
            if hot:
                lines.append("")
                lines.append(f"case {c.case_id}: where the {c.performance['modelled_us']:.2f} us go")
                lines += render_hot_lines(hot)
    lines += artifact_lines(rep.artifacts)
    verdict = rep.verdict + (" (ran, nothing verified)" if rep.verdict == "UNVERIFIED" else "")
    lines.append(f"compiled: yes   correct: {verdict} ({rep.passed_cases}/{len(rep.cases)} cases)   {rep.seconds:.1f} s")
    if rep.message:
        lines.append(rep.message)
    return "\n".join(lines)


MAX_FINDINGS = 5   # per case in the table; --json has them all
HOT_LINES = 8      # per profiled case in the table; --json has them all


def render_hot_lines(hot: list[dict], top: int = HOT_LINES) -> list[str]:
    """A profiled case's hot lines (PerfReport.hot_lines, bench_bridge.perf.lines): share of the modelled
    time, microseconds, the pipe that spent most of it, the source line (or the API when the trace names no
    lines) and the calls made there; the rows shown plus the rest add up to the modelled time."""
    from bench_bridge.perf.lines import HotLine, render  # lazy: the perf model, only for a profiled report

    return render([HotLine(**h) for h in hot], top)


def finding_lines(c: CaseReport, limit: int = MAX_FINDINGS) -> list[str]:
    """The emulator's findings of a case (warnings, errors), one line each as ``file:line: severity: message
    [code] (blocks ...)``: the same finding on several cores is one line naming its blocks, and the error
    the case's row already shows is not repeated. They go right under the case's row, where the FAIL they
    explain is (issue 22)."""
    groups: dict[tuple, list[int]] = {}
    for d in c.diagnostics:
        if d.get("severity") not in ("error", "warning"):
            continue
        key = (d.get("file", ""), d.get("line", 0), d.get("column", 0), d.get("severity"), d.get("message", ""), d.get("code", ""))
        groups.setdefault(key, []).append(int(d.get("block", -1)))
    out = []
    for (file, line, col, sev, msg, code), blocks in groups.items():
        loc = f"{file}:{line}" + (f":{col}" if col else "")
        tail = f" [{code}]" if code and code != "compile" else ""
        text = f"{loc}: {sev}: {msg}{tail}"
        if c.message.startswith(text):
            continue
        out.append(text + _blocks_text(blocks))
    if len(out) > limit:
        out = out[:limit] + [f"(+{len(out) - limit} more finding(s): --json lists them all)"]
    return out


def _blocks_text(blocks: list[int]) -> str:
    """`` (block 3)``, `` (blocks 0-7)``, `` (blocks 0, 2, 5)``; '' when no block is known."""
    bs = sorted({b for b in blocks if b >= 0})
    if not bs:
        return ""
    if len(bs) == 1:
        return f" (block {bs[0]})"
    if bs == list(range(bs[0], bs[-1] + 1)):
        return f" (blocks {bs[0]}-{bs[-1]})"
    return " (blocks " + ", ".join(map(str, bs)) + ")"


def artifact_lines(a: Artifacts) -> list[str]:
    """Where the profile's files are: the trace (for Perfetto) and the timeline picture."""
    lines = []
    if a.trace:
        lines.append(f"trace: {a.trace} (open in Perfetto / chrome://tracing)")
    if a.timeline_png:
        lines.append(f"timeline: {a.timeline_png}")
    more = len(a.cases) - (1 if a.case_id in a.cases else 0)
    if more > 0 and a.dir:
        lines.append(f"(+ the trace and timeline of {more} more case(s) in {a.dir})")
    return lines
