"""Code actions: the deterministic quick fixes of the findings that overlap a range."""
from __future__ import annotations

from dataclasses import dataclass

from lsp.checks import Finding, Fix, run
from lsp.parse import Unit


@dataclass(frozen=True)
class Action:
    title: str
    fix: Fix
    finding: Finding
    preferred: bool


def actions(unit: Unit, start: int, end: int, findings: list[Finding] | None = None) -> list[Action]:
    """Quick fixes for findings whose span overlaps bytes [start, end] (the first fix of each is preferred)."""
    out = []
    for f in (findings if findings is not None else run(unit)):
        if f.span[0] <= end and start <= f.span[1]:
            for i, fx in enumerate(f.fixes):
                out.append(Action(title=fx.title, fix=fx, finding=f, preferred=i == 0))
    return out


def apply(text: str, fix: Fix) -> str:
    """``text`` with a fix's edits applied (byte spans; edits must not overlap)."""
    data = text.encode("utf-8", "replace")
    for (s, e), new in sorted(fix.edits, key=lambda x: x[0], reverse=True):
        data = data[:s] + new.encode("utf-8", "replace") + data[e:]
    return data.decode("utf-8")
