#!/usr/bin/env python3
"""Run CANN's official AscendC example programs, unmodified, on the kgen emulator.

Usage: python benchmarks/official_examples.py PATH_TO_ASC_DEVKIT_CHECKOUT [--filter REGEX] [--all] [--json]

PATH is a local copy of the `asc-devkit` repository (or its `examples/` directory). Nothing from
it is copied into this repository: every example is staged in a temporary directory and run there.

For each dav-2201 vector example (an `.asc` kernel-launch program with `scripts/gen_data.py` and
`scripts/verify_result.py`), and for each of its scenarios (`-DSCENARIO_NUM=n`, or `-DSCENARIO=n` where the example names it so), the script does what
the example's README does after `mkdir build && cd build`:

    python3 ../scripts/gen_data.py [scenario args]     # inputs and golden data
    kgen sim build ../*.asc -I .. -D... -o demo         # instead of cmake + make (the demo target's compile definitions)
    ./demo
    python3 ../scripts/verify_result.py output/output.bin output/golden.bin [as the README says]

and prints one row per (example, scenario): build ok, run ok, verified, and the reason of a failure.

Default selection: examples under 01_simd_cpp_api whose CMakeLists targets dav-2201, without cube
(matrix/L0/L1/fixpipe), register-based (dav-3510 `reg_*`), SIMT, framework or advanced-API examples;
`--all` lifts the content filters (the dav-2201 requirement stays). With KGEN_OFFICIAL_KEEP=1 in the
environment the staged copy of each example (its build/, input/, output/) is kept and its path printed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_bridge.sim import build, run  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cmake_defines import compile_definitions  # noqa: E402

# Directories (path fragments) outside the emulator's scope: cube unit, register-based vector
# API (dav-3510), SIMT, framework integration, advanced APIs, tooling.
EXCLUDE = re.compile(
    r"(03_matrix_compute|02_reg_vector_compute|/reg_|matmul|mmad|conv|fixpipe|load_data|l0c|gm2l1|ub2l1|"
    r"broadcast_ub2l0c|tensor_api|/02_features/|/04_advanced_api/|/04_reg_compute/|02_matrix|03_fusion_operation|"
    r"simt|l1togm|nd2nz|loaddata|04_profiling|05_sanitizer|08_simulator|cube_buffer_dump|simd_vf_)"
)
ARCH_DEFINE = "__NPU_ARCH__=2201"  # device code of these examples tests __NPU_ARCH__ for dav-2201 vs dav-3510


@dataclass
class Row:
    example: str
    scenario: str = "-"
    build_ok: bool = False
    run_ok: bool = False
    verified: bool | None = None  # None: not reached / no verify script
    reason: str = ""
    seconds: dict = field(default_factory=dict)


def find_examples(path: Path, include_all: bool) -> list[Path]:
    base = path / "examples" if (path / "examples").is_dir() else path
    simd = base / "01_simd_cpp_api" if (base / "01_simd_cpp_api").is_dir() else base
    out = []
    for cm in sorted(simd.rglob("CMakeLists.txt")):
        d = cm.parent
        if not list(d.glob("*.asc")):
            continue
        text = cm.read_text(errors="replace")
        if "dav-2201" not in text:
            continue
        rel = "/" + str(d.relative_to(base)) + "/"
        if not include_all and EXCLUDE.search(rel):
            continue
        out.append(d)
    return out


def scenario_var(example: Path) -> str | None:
    """The CMake variable that selects an example's scenario: SCENARIO_NUM (most) or SCENARIO (a few)."""
    text = (example / "CMakeLists.txt").read_text(errors="replace")
    if "SCENARIO_NUM" in text:
        return "SCENARIO_NUM"
    return "SCENARIO" if re.search(r"\bSCENARIO\b", text) else None


def _readme_table_values(example: Path, var: str) -> list[str]:
    """Values a README's markdown parameter table lists for VAR: | `VAR` | `0` (default), `1`, `2` |."""
    for name in ("README.md", "README_en.md"):
        p = example / name
        if p.exists():
            for line in p.read_text(errors="replace").splitlines():
                if re.match(rf"\s*\|\s*`{var}`\s*\|", line):
                    cells = line.split("|")
                    return re.findall(r"`(\d+)`", cells[2]) if len(cells) > 2 else []
    return []


def scenarios(example: Path) -> tuple[list[str | None], set[str]]:
    """Scenario numbers the example's CMakeLists accepts, and those it reserves for dav-3510."""
    text = (example / "CMakeLists.txt").read_text(errors="replace")
    var = scenario_var(example)
    if var is None:
        return [None], set()
    if var != "SCENARIO_NUM":
        text = re.sub(r"\bSCENARIO\b", "SCENARIO_NUM", text)
    found: list[str] = []
    m = re.search(r"VALID_SCENARIOS\s+([^)]*)\)", text)
    if m:
        found = re.findall(r"\d+", m.group(1))
    if not found:
        m = re.search(r'MATCHES\s+"\^\[(\d)-(\d)\]\$"', text)
        if m:
            found = [str(i) for i in range(int(m.group(1)), int(m.group(2)) + 1)]
    if not found:
        m = re.search(r'SCENARIO_NUM\s+"?\d+"?\s+CACHE\s+STRING\s+"([^"]*)"', text)
        if m:
            desc = m.group(1)
            r = re.search(r"\((\d+)\s*-\s*(\d+)\)", desc)
            if r:
                found = [str(i) for i in range(int(r.group(1)), int(r.group(2)) + 1)]
            else:
                found = re.findall(r"\b\d+\b", desc.split("(")[-1]) if "(" in desc else re.findall(r"\b\d+\b", desc)
    if not found:
        # a validation line that lists every accepted value:
        # `if(NOT SCENARIO_NUM EQUAL 1 AND NOT SCENARIO_NUM EQUAL 2 ...) message(FATAL_ERROR ...)`
        m = re.search(r"if\s*\(\s*NOT\s+SCENARIO_NUM\s+(?:STREQUAL|EQUAL)[^)]*\)", text)
        if m:
            found = re.findall(r'NOT\s+SCENARIO_NUM\s+(?:STREQUAL|EQUAL)\s+"?(\d+)"?', m.group(0))
    if not found and var != "SCENARIO_NUM":
        found = _readme_table_values(example, var)
    if not found:
        m = re.search(r'SCENARIO_NUM\s+"?(\d+)"?', text)
        found = [m.group(1)] if m else ["1"]
    # scenarios an `if(SCENARIO_NUM STREQUAL|EQUAL n ...)` block ties to dav-3510, or rejects on dav-2201
    # (`if(SCENARIO_NUM EQUAL 3 AND CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201") message(FATAL_ERROR ...)`)
    only3510: set[str] = set()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not re.search(r"if\s*\(.*SCENARIO_NUM\s+(STREQUAL|EQUAL)", line):
            continue
        # the if's own body, up to its endif/else (a validation `if(NOT SCENARIO_NUM EQUAL 1 AND NOT ...)` just
        # above a dav-3510 check is not tied to dav-3510)
        body = [line]
        for nxt in lines[i + 1 : i + 4]:
            if re.match(r"\s*(endif|else|elseif)\s*\(", nxt):
                break
            body.append(nxt)
        block = "\n".join(body)
        tied = re.findall(r'(?<!NOT )SCENARIO_NUM\s+(?:STREQUAL|EQUAL)\s+"?(\d+)"?', line)
        if "dav-3510" in block or ("dav-2201" in line and "FATAL_ERROR" in block):
            only3510.update(tied)
    return list(dict.fromkeys(found)), only3510


def readme_variables(text: str) -> dict[str, str]:
    """Shell variables the README's command blocks set (`SCENARIO_NUM=1 ASC_ARCH=dav-2201`), first value wins."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line and re.fullmatch(r"([A-Z_][A-Z0-9_]*=\S+\s*)+", line):
            for name, value in re.findall(r"([A-Z_][A-Z0-9_]*)=(\S+)", line):
                found.setdefault(name, value)
    return found


def readme_commands(example: Path, scenario: str | None):
    """The README's command lines as words: comments dropped, `$VAR` / `${VAR}` substituted (the README's
    own variables, the scenario variable, ASC_ARCH=dav-2201); the first README that exists is read."""
    for name in ("README.md", "README_en.md"):
        p = example / name
        if not p.exists():
            continue
        text = p.read_text(errors="replace")
        variables = {**readme_variables(text), (scenario_var(example) or "SCENARIO_NUM"): scenario or "1", "ASC_ARCH": "dav-2201"}
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            line = re.sub(r"\$\{?([A-Z_][A-Z0-9_]*)\}?", lambda m: variables.get(m.group(1), m.group(0)), line)
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            if words:
                yield words
        return


def readme_command(example: Path, script: str, scenario: str | None) -> list[str]:
    """Arguments the README passes to scripts/<script> (after the script path)."""
    for words in readme_commands(example, scenario):
        if words[0].startswith("python"):
            idx = next((i for i, w in enumerate(words) if w.endswith(f"scripts/{script}")), None)
            if idx is not None:
                return words[idx + 1 :]
    if script == "verify_result.py":
        return ["output/output.bin", "output/golden.bin"]
    return ["-scenarioNum=" + scenario] if scenario else []


def readme_run_args(example: Path, scenario: str | None) -> list[str]:
    """Arguments the README passes to the built program (`./demo $TESTCASE`)."""
    for words in readme_commands(example, scenario):
        if words[0] == "./demo":
            return words[1:]
    return []


SELF_PASS = re.compile(r"\btest pass", re.I)
SELF_FAIL = re.compile(r"\btest fail", re.I)


def self_check(stdout: str) -> bool | None:
    """Examples that compare with their golden data themselves print "test pass!" or "test fail(ed)!"."""
    if SELF_FAIL.search(stdout):
        return False
    if SELF_PASS.search(stdout):
        return True
    return None


def _tail(text: str, n: int = 300) -> str:
    text = " ".join(text.split())
    return text[-n:]


def run_example(example: Path, base: Path, scenario: str | None, timeout: float, cxxflags: list[str] = ()) -> Row:
    row = Row(str(example.relative_to(base)), scenario or "-")
    stage = Path(tempfile.mkdtemp(prefix="kgen-official-"))
    try:
        work = stage / example.name
        shutil.copytree(example, work)
        bdir = work / "build"
        bdir.mkdir(exist_ok=True)
        py = sys.executable
        gen = work / "scripts" / "gen_data.py"
        if gen.exists():
            args = readme_command(example, "gen_data.py", scenario)
            p = subprocess.run([py, "../scripts/gen_data.py", *args], cwd=bdir, capture_output=True, text=True,
                               timeout=timeout)
            if p.returncode != 0:
                row.reason = "gen_data.py failed: " + _tail(p.stderr or p.stdout)
                return row
        var = scenario_var(example)
        # the emulator is a CPU run: the CMake options take their cpu-mode branch (e.g. one launch instead of the
        # npu mode's 10000-launch timing loop in matmul_ibshareAB)
        overrides = {"CMAKE_ASC_ARCHITECTURES": "dav-2201", "CMAKE_ASC_RUN_MODE": "cpu",
                     **({var: scenario} if var and scenario else {})}
        defines = [ARCH_DEFINE] + compile_definitions(example / "CMakeLists.txt", overrides)
        if scenario and not any(d.split("=", 1)[0] == var for d in defines):
            defines.append(f"{var}={scenario}")
        try:
            res = build(sorted(work.glob("*.asc")), output=bdir / "demo", include_dirs=[work], defines=defines,
                        extra_flags=list(cxxflags))
        except RuntimeError as e:  # the emulator's own headers did not compile (precompiled header)
            row.reason = "build: emulator headers: " + _tail(str(e))
            return row
        row.seconds["build"] = round(res.seconds, 2)
        if not res.ok:
            first = res.errors[0] if res.errors else None
            row.reason = "build: " + (f"{Path(first.file).name}:{first.line}: {first.message}" if first else _tail(res.log))
            return row
        row.build_ok = True
        # the demo reads ../input and writes ../output: the staged copy of the example is its work folder
        r = run(bdir / "demo", readme_run_args(example, scenario), cwd=bdir, timeout=timeout, writes=[work])
        row.seconds["run"] = round(r.seconds, 2)
        errs = [d for d in r.diagnostics if d.severity == "error"]
        if r.returncode != 0 or errs:
            if errs:
                d = errs[0]
                row.reason = f"run: {Path(d.file).name}:{d.line}: {d.message} [{d.code}]"
            else:
                row.reason = f"run: exit {r.returncode}: " + _tail(r.stderr or r.stdout)
            return row
        row.run_ok = True
        warns = [d for d in r.diagnostics if d.severity == "warning"]
        ver = work / "scripts" / "verify_result.py"
        own = self_check(r.stdout)
        if own is False:
            row.verified = False
            row.reason = "self-check: " + _tail(r.stdout, 200)
            return row
        if not ver.exists():
            row.verified = own
            if own:
                row.reason = "self-checked (printed 'test pass')" + (f"; {len(warns)} emulator warning(s)" if warns else "")
            else:
                row.reason = "no verify_result.py and no self-check" + (f"; {len(warns)} emulator warning(s)" if warns else "")
            return row
        args = readme_command(example, "verify_result.py", scenario)
        p = subprocess.run([py, "../scripts/verify_result.py", *args], cwd=bdir, capture_output=True, text=True,
                           timeout=timeout)
        row.verified = p.returncode == 0
        if not row.verified:
            row.reason = "verify: " + _tail(p.stdout + " " + p.stderr)
        elif warns:
            w = warns[0]
            row.reason = f"{len(warns)} emulator warning(s), first: {Path(w.file).name}:{w.line}: {w.message} [{w.code}]"
        return row
    except subprocess.TimeoutExpired as e:
        row.reason = f"timeout: {' '.join(map(str, e.cmd))[:80]}"
        return row
    finally:
        if os.environ.get("KGEN_OFFICIAL_KEEP"):  # debugging: keep the staged copy (build/, input/, output/)
            print(f"  staged in {stage}", file=sys.stderr)
        else:
            shutil.rmtree(stage, ignore_errors=True)


def run_all(path: Path, pattern: str | None = None, include_all: bool = False, timeout: float = 120.0,
            progress=None, cxxflags: list[str] = (), only_scenario: str | None = None) -> list[Row]:
    path = path.resolve()
    base = path / "examples" if (path / "examples").is_dir() else path
    rows = []
    for ex in find_examples(path, include_all):
        rel = str(ex.relative_to(base))
        if pattern and not re.search(pattern, rel):
            continue
        scens, only3510 = scenarios(ex)
        for s in scens:
            if only_scenario is not None and (s or "-") != only_scenario:
                continue
            if s in only3510:
                rows.append(Row(rel, s, reason="skipped: scenario needs dav-3510"))
                continue
            row = run_example(ex, base, s, timeout, cxxflags)
            rows.append(row)
            if progress:
                progress(row)
    return rows


def table(rows: list[Row]) -> str:
    def yn(v):
        return "-" if v is None else ("yes" if v else "NO")

    w = max([len(r.example) for r in rows] + [7])
    out = [f"{'example':<{w}}  scen  build  run  verified  reason", "-" * (w + 40)]
    for r in rows:
        out.append(f"{r.example:<{w}}  {r.scenario:<4}  {yn(r.build_ok):<5}  {yn(r.run_ok):<3}  {yn(r.verified):<8}  {r.reason}")
    done = [r for r in rows if not r.reason.startswith("skipped")]
    ok = sum(1 for r in done if r.verified)
    out.append("-" * (w + 40))
    out.append(f"{len(done)} runs: {sum(r.build_ok for r in done)} built, {sum(r.run_ok for r in done)} ran, {ok} verified"
               f" ({len(rows) - len(done)} skipped)")
    return "\n".join(out)


def _secs(r: Row) -> str:
    """' (build 5.1 s, run 42.0 s)' from a row's timings, or ''."""
    parts = [f"{k} {v:.1f} s" for k, v in r.seconds.items()]
    return f" ({', '.join(parts)})" if parts else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", help="asc-devkit checkout (or its examples/ directory)")
    ap.add_argument("--filter", help="regex on the example's path (relative to examples/)")
    ap.add_argument("--all", action="store_true", help="every dav-2201 example, not only the vector subset")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--scenario", help="run only this scenario of each selected example ('-' for examples without)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cxxflag", action="append", default=[], metavar="FLAG",
                    help="extra g++ flag for every build (repeatable), e.g. --cxxflag=-include --cxxflag=shim.h")
    args = ap.parse_args(argv)
    if not Path(args.path).is_dir():
        ap.error(f"{args.path}: not a directory")
    quiet = args.json
    rows = run_all(Path(args.path), args.filter, args.all, args.timeout,
                   None if quiet else lambda r: print(f"  {r.example} [{r.scenario}]: "
                                                      f"{'verified' if r.verified else r.reason or 'ran'}"
                                                      f"{_secs(r)}", flush=True),
                   args.cxxflag, args.scenario)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
    else:
        print()
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
