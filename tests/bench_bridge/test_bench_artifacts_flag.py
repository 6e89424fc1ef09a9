"""``kgen bench --profile --artifacts DIR``: the trace and the timeline picture go to DIR (made when
missing) instead of a run folder in the kgen cache, and the report names them there; a DIR that is a
file or cannot be written stops the bench with one ``kgen: error:`` line (exit 2) before anything is
built. Real ``kgen bench`` runs of examples/add/add.asc."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench_bridge.artifacts import runs_root
from bench_bridge.perf import chrome_trace

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add" / "add.asc"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=900)


def test_profile_files_go_to_the_given_folder_and_the_report_names_them(tmp_path):
    out = tmp_path / "not" / "yet" / "there"
    r = kgen("bench", str(ADD), "--profile", "--artifacts", str(out), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    a = json.loads(r.stdout)["artifacts"]
    assert a["dir"] == str(out.resolve())
    assert a["trace"] == str(out.resolve() / "case-0.trace.json")
    assert a["timeline_png"] == str(out.resolve() / "case-0.timeline.png")
    assert sorted(p.name for p in out.iterdir()) == ["case-0.timeline.png", "case-0.trace.json"]
    assert chrome_trace.validate(json.loads(Path(a["trace"]).read_text())) == []
    assert Path(a["timeline_png"]).read_bytes()[:8] == PNG_MAGIC
    # nothing of this report lives in the cache's run folders
    assert not any(Path(v).is_relative_to(runs_root()) for v in (a["dir"], a["trace"], a["timeline_png"]))


def test_human_output_names_the_files_in_the_given_folder(tmp_path):
    r = kgen("bench", str(ADD), "--profile", "--artifacts", str(tmp_path))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert f"trace: {tmp_path.resolve() / 'case-0.trace.json'} (open in Perfetto / chrome://tracing)" in lines
    assert f"timeline: {tmp_path.resolve() / 'case-0.timeline.png'}" in lines


def _one_line_error(r: subprocess.CompletedProcess, needle: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kgen: error: ") and needle in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_a_file_is_refused(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    _one_line_error(kgen("bench", str(ADD), "--profile", "--artifacts", str(f)),
                    f"--artifacts {f}: is a file, not a directory")
    assert f.read_text() == "mine"
    # nor can a folder be made below a file
    _one_line_error(kgen("bench", str(ADD), "--profile", "--artifacts", str(f / "sub")),
                    f"--artifacts {f / 'sub'}: not a writable directory")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc (a folder nobody can write, root included)")
def test_a_folder_that_cannot_be_written_is_refused():
    _one_line_error(kgen("bench", str(ADD), "--profile", "--artifacts", "/proc/self"),
                    "--artifacts /proc/self: not a writable directory")


def test_artifacts_without_profile_or_on_the_npu_backend_say_what_is_needed(tmp_path):
    _one_line_error(kgen("bench", str(ADD), "--artifacts", str(tmp_path / "a")), "--artifacts needs --profile")
    assert not (tmp_path / "a").exists()
    _one_line_error(kgen("bench", str(ADD), "--backend", "npu", "--profile", "--artifacts", str(tmp_path / "a")),
                    "--artifacts applies to --backend sim")


def test_without_the_flag_kgen_says_where_the_files_went_and_how_to_choose():
    """Issue 22 item 7: a profile's files go to a run folder of the cache; kgen says so and names the flag."""
    r = kgen("bench", str(ADD), "--profile")
    assert r.returncode == 0, r.stderr
    note = next(line for line in r.stderr.splitlines() if "run folder in the kgen cache" in line)
    folder = note.split(" are in ", 1)[1].split(" (", 1)[0]
    assert Path(folder).is_relative_to(runs_root()) and (Path(folder) / "case-0.trace.json").is_file()
    assert "--artifacts DIR" in note
