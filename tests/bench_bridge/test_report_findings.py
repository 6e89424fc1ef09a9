"""Issue 22 item 1: ``kgen bench`` prints a case's emulator findings right under the case's row, so the
finding that explains a FAIL is where the FAIL is (not only in ``--json`` or ``kgen sim run``).

Real runs of tests/bench_bridge/kernels/rounded_copy.asc: a plain DataCopy of 40 halves is 80 bytes,
not a whole number of 32-byte blocks, so the hardware copies 32 elements and drops 8 (the
``datacopy-rounded`` rule, docs of DataCopy); the program's own check then counts 8 mismatches."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench_bridge.report import BenchReport, CaseReport, render_text

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests" / "bench_bridge" / "kernels" / "rounded_copy.asc"


def _marker_line(marker: str) -> int:
    return next(i for i, line in enumerate(KERNEL.read_text().splitlines(), 1) if marker in line)


def test_the_finding_that_explains_a_fail_is_printed_under_its_row():
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(KERNEL)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if "FAIL" in line and "mismatches: 8" in line)
    finding = lines[row + 1]
    assert f"rounded_copy.asc:{_marker_line('@rounded')}: warning:" in finding, r.stdout
    assert "[datacopy-rounded]" in finding and "drops the last 8" in finding, r.stdout
    assert finding.startswith(" "), "the finding is indented under its case"


def _case(diags: list[dict], status="fail", message="exit status 1: mismatches: 8 -> FAIL") -> CaseReport:
    return CaseReport(case_id="0", params={}, input_shapes=[], dtypes=[], status=status, message=message,
                      checker="program", diagnostics=diags)


def _diag(block: int, line: int = 20, severity="warning", code="datacopy-rounded", msg="DataCopy drops 8") -> dict:
    return {"severity": severity, "message": msg, "file": "/k/a.asc", "line": line, "column": 0, "code": code,
            "source": "runtime", "block": block, "notes": []}


def _render(case: CaseReport) -> list[str]:
    rep = BenchReport(task="a", task_format="kernel-launch", path="/k/a.asc", backend="sim", project=None,
                      compiled=True, correct=False, cases=[case])
    return render_text(rep).splitlines()


def test_the_same_finding_on_every_core_is_one_line_naming_the_blocks():
    lines = _render(_case([_diag(b) for b in range(8)]))
    found = [line for line in lines if "[datacopy-rounded]" in line]
    assert found == ["      /k/a.asc:20: warning: DataCopy drops 8 [datacopy-rounded] (blocks 0-7)"]


def test_an_error_already_in_the_row_is_not_repeated_but_other_findings_are():
    err = _diag(0, line=30, severity="error", code="gm-out-of-bounds", msg="read past the end")
    warn = _diag(0)
    lines = _render(_case([warn, err], status="error", message="/k/a.asc:30: error: read past the end [gm-out-of-bounds] (block 0)"))
    assert sum("read past the end" in line for line in lines) == 1
    assert "      /k/a.asc:20: warning: DataCopy drops 8 [datacopy-rounded] (block 0)" in lines


def test_many_findings_are_cut_with_a_count():
    lines = _render(_case([_diag(0, line=n) for n in range(1, 12)]))
    shown = [line for line in lines if "[datacopy-rounded]" in line]
    assert len(shown) == 5
    assert "      (+6 more finding(s): --json lists them all)" in lines


def test_cli_bench_of_a_kernel_that_does_not_compile_prints_the_compiler_error(tmp_path):
    """Issue 22 item 2, on the CLI: the compiler's ``file:line: error: message`` lines, not only a count."""
    src = (ROOT / "examples" / "add" / "add.asc").read_text()
    bad = tmp_path / "broken_add.asc"
    bad.write_text(src.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Addd(z, x, y, TILE);"))
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if "Addd" in t)
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(bad)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "build: FAILED" in r.stdout
    assert any(f"broken_add.asc:{line}: error:" in t and "Addd" in t for t in r.stdout.splitlines()), r.stdout
    assert "Traceback" not in r.stderr
