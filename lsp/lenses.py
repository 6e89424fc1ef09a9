"""Code lenses above a kernel's hot lines after a benchmark (pure: no pygls).

The profiled bench report (docs/report-schema.md) carries, per case, the modelled kernel time split
over source lines (``performance.hot_lines``, bench_bridge/perf/lines.py). A lens reads
"kgen: 12.4% of modelled time (0.91 us), MTE2 bound" above each hot line of the file in the editor.
The case shown is the one with the most modelled time (the shape that matters most); a report with
several profiled cases names it. Lines below ``min_percent`` get no lens (noise, not a hint).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PIPE_WORDS: dict[str, str] = {
    "MTE2": "MTE2 bound",
    "MTE3": "MTE3 bound",
    "MTE1": "MTE1 bound",
    "V": "vector bound",
    "M": "cube bound",
    "FIX": "FIXPIPE bound",
    "S": "scalar bound",
    "wait": "waiting (issue, flags, queues, copy latency)",
}
"""How a hot line's pipe reads in a lens (bench_bridge/perf/events.PIPES and lines.WAIT_PIPE)."""


@dataclass(frozen=True)
class HotLens:
    line: int            # 0-based line of the document
    title: str
    percent: float       # of the case's modelled kernel time
    case_id: str


def profiled_case(report: dict) -> dict | None:
    """The case whose hot lines the lenses show: the most modelled time among the profiled ones."""
    best, best_us = None, -1.0
    for case in report.get("cases") or []:
        perf = case.get("performance") or {}
        if not perf.get("hot_lines"):
            continue
        us = float(perf.get("modelled_us") or 0.0)
        if us > best_us:
            best, best_us = case, us
    return best


def _same_file(a: str, b: Path) -> bool:
    try:
        return Path(a).resolve() == b.resolve()
    except (OSError, ValueError):
        return False


def lens_title(percent: float, us: float, pipe: str, case_id: str | None) -> str:
    where = f", case {case_id}" if case_id is not None else ""
    return f"kgen: {percent:.1f}% of modelled time ({us:.2f} us{where}), {PIPE_WORDS.get(pipe, f'{pipe} bound')}"


def hot_line_lenses(report: dict | None, path: Path, min_percent: float = 1.0) -> list[HotLens]:
    """Lenses for the hot lines of ``path`` in ``report`` (a bench report dict), in line order."""
    if not report:
        return []
    case = profiled_case(report)
    if case is None:
        return []
    many = sum(1 for c in report.get("cases") or [] if (c.get("performance") or {}).get("hot_lines")) > 1
    case_id = str(case.get("case_id")) if many else None
    out = []
    for h in case["performance"]["hot_lines"]:
        line = int(h.get("line") or 0)
        pct = float(h.get("percent") or 0.0)
        if line <= 0 or pct < min_percent or not _same_file(h.get("file") or "", path):
            continue
        title = lens_title(pct, float(h.get("us") or 0.0), str(h.get("pipe") or ""), case_id)
        out.append(HotLens(line - 1, title, pct, str(case.get("case_id"))))
    out.sort(key=lambda x: x.line)
    return out
