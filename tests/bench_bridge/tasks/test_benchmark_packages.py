"""A task may import its benchmark's own packages (NPUKernelBench's ``framework``, which reads the
checkout's ``base_config.yaml``) inside the sandbox; $HOME never becomes readable that way."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench_bridge import sandbox
from bench_bridge.tasks import load_task

ROOT = Path(__file__).resolve().parents[3]
TASKS = ROOT / "tests" / "data" / "tasks"

needs_sandbox = pytest.mark.skipif(sandbox.opted_out() or sandbox.probe() is not None,
                                   reason="the sandbox is turned off or cannot run here")

BENCH_PACKAGE = '''import os
_CONFIG = os.path.join(os.path.dirname(__file__), "..", "base_config.yaml")
with open(_CONFIG) as f:   # NPUKernelBench's framework reads the checkout's config the same way
    SCALE_NOTE = f.read().strip()
'''


def _checkout(base: Path) -> Path:
    """A benchmark checkout: a package and a config at its top, the scaled_add task two levels down."""
    (base / "benchpkg").mkdir(parents=True)
    (base / "benchpkg" / "__init__.py").write_text(BENCH_PACKAGE)
    (base / "base_config.yaml").write_text("note: read by the package\n")
    task = base / "tasks" / "level1" / "scaled_add"
    shutil.copytree(TASKS / "spec_scaled_add", task)
    shutil.copytree(TASKS / "npukb_scaled_add" / "answer" / "0", task.parent / "project")
    spec = task / "kgen-task.toml"
    spec.write_text(spec.read_text().replace('project = "../npukb_scaled_add/answer/0"', 'project = "../project"'))
    ref = task / "reference.py"
    ref.write_text("import benchpkg\nassert benchpkg.SCALE_NOTE\n" + ref.read_text())
    return task


def test_the_checkout_holding_a_package_is_a_benchmark_dir(tmp_path):
    task = load_task(_checkout(tmp_path / "bench"))
    assert tmp_path / "bench" in task.benchmark_dirs()
    assert tmp_path / "bench" in task.files()


def test_home_is_never_a_benchmark_dir(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    task_dir = _checkout(home)          # the checkout's packages sit directly in $HOME
    task = load_task(task_dir)
    assert home not in task.benchmark_dirs() and not any(p in home.parents for p in task.files())


@needs_sandbox
def test_a_reference_imports_its_benchmarks_package_inside_the_sandbox(tmp_path):
    task = _checkout(tmp_path / "bench")
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(task), "--json"], capture_output=True,
                       text=True, cwd=ROOT, timeout=900)
    rep = json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}
    assert r.returncode == 0 and rep.get("correct"), r.stderr[-2000:]
