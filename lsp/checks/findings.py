"""What a check returns: a :class:`Finding` (byte span, message, code, :class:`Severity`) with its
deterministic quick fixes (:class:`Fix`: a title and text edits)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Severity(IntEnum):
    """A finding's severity; the values are LSP's ``DiagnosticSeverity``."""

    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4


ERROR, WARNING, INFO, HINT = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.HINT


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[tuple[tuple[int, int], str], ...]   # ((start byte, end byte), new text)


@dataclass(frozen=True)
class Finding:
    span: tuple[int, int]
    message: str
    code: str
    severity: Severity = WARNING
    fixes: tuple[Fix, ...] = field(default_factory=tuple)
