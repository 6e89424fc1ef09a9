"""``kgen generate -o DIR`` replaces only what kgen wrote in DIR (issue 17 item 4).

A folder holding someone's own op sources is refused in one line before anything runs (``--force``
replaces them and says so); a folder kgen wrote before gets the new project, the previous project's
files that the new one does not have are removed, and the user's own files stay."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from agent_graph import api
from agent_graph.output_dir import MARKER, foreign_sources, output_problem, replace_project
from tests.agent_graph.agent_helpers import settings

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"


def _project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_folder_with_someone_elses_sources_is_refused_in_one_line(tmp_path):
    mine = _project(tmp_path / "mine", {"op_kernel/my_op.cpp": "// mine\n", "op_host/my_op.cpp": "// mine\n"})
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "generate", str(ADD), "--offline", "-o", str(mine)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kgen: error: output ") and "kgen did not write" in lines[0]
    assert "op_host/my_op.cpp and 1 more" in lines[0] and "--force" in lines[0]
    assert (mine / "op_kernel" / "my_op.cpp").read_text() == "// mine\n"   # untouched


def test_the_run_itself_refuses_too_for_every_front_end(tmp_path):
    mine = _project(tmp_path / "mine", {"op_kernel/my_op.cpp": "// mine\n"})
    model, agent = settings(tmp_path, None)
    events = []
    out = api.run(api.Request(task=str(ADD), output=mine), model, agent, on_event=events.append)
    assert out.status == "invalid" and "op_kernel/my_op.cpp" in out.message and out.project is None
    assert [e.kind for e in events] == ["run_finished"]
    assert (mine / "op_kernel" / "my_op.cpp").exists()


def test_replacing_removes_only_what_kgen_wrote(tmp_path):
    first = _project(tmp_path / "first", {"op_kernel/add_custom.cpp": "// add\n", "add_custom.json": "[]\n"})
    second = _project(tmp_path / "second", {"op_kernel/softmax_custom.cpp": "// softmax\n", "softmax_custom.json": "[]\n"})
    out = tmp_path / "out"
    assert output_problem(out) is None and replace_project(first, out) == []
    assert json.loads((out / MARKER).read_text())["files"] == ["add_custom.json", "op_kernel/add_custom.cpp"]
    (out / "NOTES.md").write_text("my notes\n")
    (out / "op_kernel" / "helper.h").write_text("// the user's own header\n")
    assert foreign_sources(out) == ["op_kernel/helper.h"]
    assert "op_kernel/helper.h" in output_problem(out)
    replace_project(second, out)
    left = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert left == [MARKER, "NOTES.md", "op_kernel/helper.h", "op_kernel/softmax_custom.cpp", "softmax_custom.json"]
    assert replace_project(first, out, force=True) == ["op_kernel/helper.h"]
    assert not (out / "op_kernel" / "helper.h").exists() and (out / "NOTES.md").exists()


def test_a_folder_from_a_kgen_before_the_record_counts_as_kgens(tmp_path):
    old = _project(tmp_path / "old", {"op_kernel/add_custom.cpp": "//\n", "kgen-task.toml": "", "report.json": "{}"})
    assert output_problem(old) is None
    new = _project(tmp_path / "new", {"op_kernel/relu_custom.cpp": "//\n"})
    replace_project(new, old)
    assert sorted(p.name for p in (old / "op_kernel").iterdir()) == ["relu_custom.cpp"]


def test_a_file_in_place_of_the_folder_is_refused(tmp_path):
    f = tmp_path / "out"
    f.write_text("x")
    assert output_problem(f) == f"output {f} exists and is not a directory"
