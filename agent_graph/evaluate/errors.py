"""A small classifier of failures into the error taxonomy (agent_graph/evaluate/error_classes.toml).

Compiler diagnostics go to the paper's five classes (API signature/overload, dtype/conversion,
scope/lifetime, memory/object misuse, syntax/macro); a kernel that ran but computed the wrong numbers is
``wrong-result``; one that crashed or hung at run time without a classifiable message is ``runtime``.
"""
from __future__ import annotations

import re
import tomllib
from collections import Counter
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).with_name("error_classes.toml")


@lru_cache(maxsize=1)
def _classes() -> list[tuple[str, list[re.Pattern]]]:
    data = tomllib.loads(DATA.read_text())
    return [(c["name"], [re.compile(p, re.I) for p in c["patterns"]]) for c in data["class"]]


def classify_message(message: str) -> str | None:
    """The class of one diagnostic message, or None when no pattern matches."""
    for name, pats in _classes():
        if any(p.search(message) for p in pats):
            return name
    return None


def classify_build(diagnostics: list[dict]) -> tuple[str, dict[str, int]]:
    """(the class of the first error, every error's class counted) for a failed build."""
    errors = [d for d in diagnostics if d.get("severity", "error") == "error"] or diagnostics
    counts = Counter(classify_message(str(d.get("message", ""))) or "other" for d in errors)
    first = next((classify_message(str(d.get("message", ""))) for d in errors), None)
    return first or (counts.most_common(1)[0][0] if counts else "other"), dict(counts)


def classify_cases(cases: list[dict]) -> str:
    """The class of a candidate that compiled but failed a case: wrong numbers, or a runtime fault."""
    bad = [c for c in cases if c.get("status") != "pass"]
    if bad and all(c.get("status") == "fail" for c in bad):
        return "wrong-result"
    for c in bad:
        for d in c.get("diagnostics") or []:
            cls = classify_message(str(d.get("message", "")))
            if cls:
                return cls
        cls = classify_message(str(c.get("message", "")))
        if cls and c.get("status") == "error":
            return cls
    return "runtime" if bad else "other"
