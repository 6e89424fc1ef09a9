"""docs/emulator-rules.md lists every check the emulator makes (issue 23): every diagnostic code a
header under bench_bridge/sim/include reports appears on the page with a class from the page's policy,
and the page lists no code that no longer exists. Also: no tiling helper prints an unlocated
"kgen: error:" line any more (the policy: a host helper accepts what CANN's accepts, so its argument
checks are located warnings)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
INCLUDE = ROOT / "bench_bridge" / "sim" / "include"
PAGE = ROOT / "docs" / "emulator-rules.md"

# a code: lower-case words joined by hyphens
_HYPHENATED = re.compile(r'"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)"')
# one-word codes are recognised only where a reporting function takes them
_CALL = re.compile(r'\b(?:fail|warn|host_fail|host_warn|icpu_host_error|report)\(\s*(?:[\w:]*Severity::\w+,\s*)?"([a-z0-9-]+)"')
_JOB = re.compile(r'\bjob_error\([^,]+,[^,]+,\s*"([a-z0-9-]+)"')
_BRACKET = re.compile(r'\[([a-z][a-z0-9-]+)\]\\n')
# hyphenated literals in the headers that are not diagnostic codes
NOT_CODES: set[str] = set()
CLASSES = re.compile(r"^(?:(?:error \((?:fault|hang|wrong result|not emulated|framework)\)|warning)(?: / |$))+$")
RUNNER_CODES = {"killed", "process-limit"}   # added by bench_bridge/sim/runner.py, listed on the page too


def header_codes() -> dict[str, str]:
    codes: dict[str, str] = {}
    for f in sorted(INCLUDE.rglob("*.h")):
        text = f.read_text(errors="replace")
        for rx in (_HYPHENATED, _CALL, _JOB, _BRACKET):
            for m in rx.finditer(text):
                if m.group(1) not in NOT_CODES:
                    codes.setdefault(m.group(1), str(f.relative_to(INCLUDE)))
    return codes


def page_rows() -> dict[str, str]:
    """code -> its class cell, from the page's tables (first cell: one or more `code`s)."""
    rows: dict[str, str] = {}
    for line in PAGE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue
        for code in re.findall(r"`([a-z][a-z0-9-]*)`", cells[0]):
            rows[code] = cells[1]
    return rows


def test_every_check_in_the_headers_is_on_the_page():
    codes = header_codes()
    assert len(codes) > 150, "the code scan found too little: " + ", ".join(sorted(codes))
    rows = page_rows()
    missing = sorted(c for c in codes if c not in rows)
    assert not missing, "codes reported by the emulator but not listed in docs/emulator-rules.md: " + ", ".join(
        f"{c} ({codes[c]})" for c in missing)


def test_the_page_lists_only_existing_checks_each_with_a_policy_class():
    codes = header_codes()
    rows = page_rows()
    stale = sorted(c for c in rows if c not in codes and c not in RUNNER_CODES)
    assert not stale, "docs/emulator-rules.md lists codes no header reports: " + ", ".join(stale)
    bad = {c: k for c, k in rows.items() if not CLASSES.match(k)}
    assert not bad, f"classes outside the policy's vocabulary: {bad}"


def test_the_policy_examples_of_issue_23_are_warnings_on_the_page():
    rows = page_rows()
    for code in ("quant-tiling", "reduce-tiling", "operand-in-place"):
        assert rows[code] == "warning", (code, rows[code])
    assert rows["ub-overflow"].startswith("warning") and rows["ub-overflow-access"] == "error (fault)"


def test_tiling_helpers_report_located_warnings_not_bare_error_lines():
    offenders = [str(f.relative_to(INCLUDE)) for f in sorted((INCLUDE / "kgen_sim" / "adv").glob("host_*.h"))
                 if "kgen: error" in f.read_text()]
    assert not offenders, offenders
