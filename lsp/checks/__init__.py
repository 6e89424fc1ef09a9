"""Diagnostic checks: one module per family, each a pure ``check(unit) -> list[Finding]``.

A :class:`Finding` carries byte spans of the parsed :class:`lsp.parse.Unit`; deterministic quick fixes
ride along as :class:`Fix` (a title and text edits), so code actions are just the fixes of the findings
under the cursor.
"""
from __future__ import annotations

from lsp.checks import cast_mode, datacopy, entry, queues, signature_args, tiling, ub, unknown_api
from lsp.checks.findings import ERROR, HINT, INFO, WARNING, Finding, Fix, Severity
from lsp.parse import Unit, parse

__all__ = ["ERROR", "HINT", "INFO", "WARNING", "Finding", "Fix", "Severity", "check_text", "run"]

CHECKS = (unknown_api, signature_args, entry, cast_mode, datacopy, queues, tiling, ub)   # in this order


def run(unit: Unit) -> list[Finding]:
    """Every check on a parsed unit; a check that raises is skipped (the server must not die)."""
    out: list[Finding] = []
    for mod in CHECKS:
        try:
            out += mod.check(unit)
        except Exception:   # noqa: BLE001 - a broken check must not take the diagnostics down
            continue
    return sorted(out, key=lambda f: (f.span, f.code))


def check_text(text: str) -> list[Finding]:
    return run(parse(text))
