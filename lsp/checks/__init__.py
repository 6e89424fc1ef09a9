"""Diagnostic checks: one module per family, each a pure ``check(unit) -> list[Finding]``.

A :class:`Finding` carries byte spans of the parsed :class:`lsp.parse.Unit`; deterministic quick fixes
ride along as :class:`Fix` (a title and text edits), so code actions are just the fixes of the findings
under the cursor.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ERROR, WARNING, INFO, HINT = 1, 2, 3, 4


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[tuple[tuple[int, int], str], ...]   # ((start byte, end byte), new text)


@dataclass(frozen=True)
class Finding:
    span: tuple[int, int]
    message: str
    code: str
    severity: int = WARNING
    fixes: tuple[Fix, ...] = field(default_factory=tuple)


def run(unit) -> list[Finding]:
    """Every check on a parsed unit; a check that raises is skipped (the server must not die)."""
    from lsp.checks import cast_mode, datacopy, entry, queues, signature_args, tiling, ub, unknown_api

    out: list[Finding] = []
    for mod in (unknown_api, signature_args, entry, cast_mode, datacopy, queues, tiling, ub):
        try:
            out += mod.check(unit)
        except Exception:   # noqa: BLE001 - a broken check must not take the diagnostics down
            continue
    return sorted(out, key=lambda f: (f.span, f.code))


def check_text(text: str) -> list[Finding]:
    from lsp.parse import parse

    return run(parse(text))
