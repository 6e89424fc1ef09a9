"""Issue 22 item 4: wrong inputs get one ``kgen: error:`` line (exit 2), not compiler or linker noise.

Real ``kgen`` runs: a markdown file and an empty Python file handed to ``kgen sim run``, a C++ file
without a host ``main`` (a kernel-launch program needs one), and a kernel-launch program benched with
``--backend npu --dry-run`` (recognised as the sim backend recognises it: the plan builds and runs the
program, it does not ask for a task)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add" / "add.asc"


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def one_line_error(r: subprocess.CompletedProcess, *needles: str) -> str:
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kgen: error: "), r.stderr
    assert all(n in lines[0] for n in needles), lines[0]
    return lines[0]


def test_sim_run_of_a_markdown_file_is_not_a_cpp_source():
    one_line_error(kgen("sim", "run", "README.md"), "README.md", "not a C++ source")


def test_sim_build_of_a_markdown_file_is_not_a_cpp_source(tmp_path):
    one_line_error(kgen("sim", "build", "README.md", "-o", str(tmp_path / "x")), "not a C++ source")


def test_sim_run_of_an_empty_python_file_is_one_line(tmp_path):
    empty = tmp_path / "empty.py"
    empty.write_text("")
    line = one_line_error(kgen("sim", "run", str(empty)), "empty.py", "not a C++ source")
    assert "main" not in line or "undefined reference" not in line


def test_sim_run_of_a_source_without_main_says_a_program_needs_one(tmp_path):
    src = tmp_path / "kernel_only.asc"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n')
    one_line_error(kgen("sim", "run", str(src)), "kernel_only.asc", "no host main()")


def test_bench_of_an_empty_python_file_is_one_line(tmp_path):
    empty = tmp_path / "empty.py"
    empty.write_text("")
    one_line_error(kgen("bench", str(empty)), "empty.py")


def test_npu_dry_run_of_a_kernel_launch_program_plans_its_build_and_run():
    r = kgen("bench", str(ADD), "--backend", "npu", "--dry-run")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "unknown task format" not in r.stdout + r.stderr
    out = r.stdout
    assert "bisheng" in out and str(ADD.resolve()) in out and "-xasc" in out
    assert "msopgen" not in out          # no op project is generated for a program
    assert out.rstrip().splitlines()[-1].endswith("/add")   # the last step runs the program


def test_npu_dry_run_refuses_a_markdown_file_in_one_line():
    one_line_error(kgen("bench", "README.md", "--backend", "npu", "--dry-run"), "README.md")


def test_docs_with_a_misspelled_api_says_did_you_mean():
    r = kgen("docs", "Addd")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("'Addd' is not an AscendC API; did you mean: Add")


ECHO = r'''#include <cstdio>
#include <unistd.h>
int main(int argc, char** argv) {
    char cwd[4096];
    std::printf("cwd=%s\n", getcwd(cwd, sizeof cwd));
    for (int i = 1; i < argc; ++i) std::printf("arg=%s\n", argv[i]);
    return 0;
}
'''


def test_sim_run_options_after_the_file_are_kgens_and_program_arguments_follow_the_double_dash(tmp_path):
    """``kgen sim run FILE --cwd DIR -- a --b``: --cwd is kgen's (it was handed to the program), a and --b
    the program's (they were taken for source files)."""
    src = tmp_path / "echo.cpp"
    src.write_text(ECHO)
    work = tmp_path / "work"
    work.mkdir()
    r = kgen("sim", "run", str(src), "--cwd", str(work), "--", "a", "--b")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"cwd={work}", "arg=a", "arg=--b"]


def test_sim_run_program_arguments_without_the_double_dash_are_refused_in_one_line(tmp_path):
    src = tmp_path / "echo.cpp"
    src.write_text(ECHO)
    one_line_error(kgen("sim", "run", str(src), "100"), "100", "after `--`")


@pytest.mark.parametrize("text", ["", '#include "kernel_operator.h"\n'
                                      'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'])
def test_bench_of_a_program_without_main_is_one_line_not_a_linker_error(tmp_path, text):
    src = tmp_path / "no_main.asc"
    src.write_text(text)
    r = kgen("bench", str(src))
    line = one_line_error(r, "no_main.asc", "no host main()")
    assert "undefined reference" not in r.stderr + r.stdout and line
