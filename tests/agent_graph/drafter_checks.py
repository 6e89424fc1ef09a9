"""What the drafter tests share: a reference drafted, written as a project, benched on the emulator and
required correct on every case."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from agent_graph.drafter import Unsupported, draft, write_project
from bench_bridge.api import load_task
from bench_bridge.bench import BenchOptions, bench


def assert_verified(ref: Path, tmp_path: Path, standalone: bool = False):
    """Draft ``ref``, write the project under ``tmp_path/project``, bench it; every case must pass. The draft.
    ``standalone``: the project is benched again from its own kgen-task.toml, as a user re-runs it."""
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    project = write_project(d.plan, tmp_path / "project")
    for task in [ref] + ([project / "kgen-task.toml"] if standalone else []):
        rep = bench(task, BenchOptions(project=project, timeout=600))
        bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
        assert rep.compiled, rep.message
        assert rep.correct and not bad, bad or rep.message
        assert len(rep.cases) == len(load_task(ref).cases)   # every case the task lists was run
    return d


def assert_streamed(ref: Path, tmp_path: Path, flag: str = "split"):
    """``assert_verified`` of a reference whose rows exceed the UB: the plan must carry the split-row path's
    ``flag`` (else the test would not exercise it). (The draft, its kernel's text.)"""
    d = assert_verified(ref, tmp_path)
    assert d.plan.params.extra.get(flag), "the row fits in UB: this test would not exercise the split path"
    return d, next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))


def write_reference(tmp: Path, body: str, inputs: str, init: str = "", sig: str = "x") -> Path:
    """``tmp/ref.py``: a KernelBench-style Model whose forward(``sig``) returns ``body`` (``init``: statements
    of ``__init__``), ``get_inputs`` returning ``[inputs]``; torch, nn and F imported."""
    p = tmp / "ref.py"
    p.write_text(textwrap.dedent(f"""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                {init or "pass"}

            def forward(self, {sig}):
                return {body}


        def get_inputs():
            return [{inputs}]


        def get_init_inputs():
            return []
        """))
    return p


def write_spec(tmp: Path, body: str, sig: str, cases: list[list[str]], name: str = "spec",
               args: list[list] | None = None) -> Path:
    """``tmp/kgen-task.toml`` over ``tmp/reference.py`` (a Model whose forward(``sig``) returns ``body``), one
    [[cases]] entry per list of input TOML tables (``{ shape = [4, 8], dtype = "float32" }``); ``args``: per case
    the numbers passed after the tensors."""
    (tmp / "reference.py").write_text(
        "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
        f"    def forward(self, {sig}):\n        return {body}\n")
    extra = [f"args = {json.dumps(list(a))}\n" for a in args] if args else [""] * len(cases)
    entries = "".join(f'\n[[cases]]\nid = "c{k}"\ninputs = [{", ".join(c)}]\n{e}' for k, (c, e) in enumerate(zip(cases, extra)))
    (tmp / "kgen-task.toml").write_text(f'name = "{name}"\nreference = "reference.py"\nseed = 3\n{entries}')
    return tmp / "kgen-task.toml"
