"""The offline drafter: verified AscendC custom-op projects for common operators with no model at all.

A PyTorch reference is traced (``analysis``), lowered to a float program over UB vectors
(``lowering`` + ``vecops``), and poured into one of a small set of parameterised templates
(``templates/``: ``flat`` for elementwise chains, ``row`` for broadcasts, reductions, normalisations,
losses and scans). Host tiling is computed from runtime shapes, so one binary serves every shape case.

Tool-like API (what the agent calls):
    draft(task)                   -> Draft | Unsupported
    instantiate(template, params) -> {relative path: text}   (params: KernelParams or its dict form)
    write_project(draft.plan, dir) -> Path
    prebuild(project_dir, jobs)   -> builds of every dtype combination, in parallel (warms the build cache)
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from agent_graph.drafter.operands import InputKind
from agent_graph.drafter.planner import Plan, Unsupported, main_input_index, plan, render
from agent_graph.drafter.prebuild import prebuild
from agent_graph.drafter.templates import TEMPLATES, KernelParams, TensorParam, Variant
from agent_graph.drafter.writer import write_project
from bench_bridge.api import Task, load_task

__all__ = ["Draft", "KernelParams", "Plan", "TEMPLATES", "TensorParam", "Unsupported", "draft", "instantiate",
           "prebuild", "write_project"]


@dataclass
class Draft:
    plan: Plan
    seconds: float

    @property
    def files(self) -> dict[str, str]:
        return self.plan.files

    @property
    def op_type(self) -> str:
        return self.plan.op_type


def draft(task) -> Draft | Unsupported:
    """Draft a project for ``task`` (a ``bench_bridge.api.Task`` or a path ``kgen bench`` reads)."""
    t0 = time.monotonic()
    if not isinstance(task, Task):
        task = load_task(Path(task))
    res = plan(task)
    if isinstance(res, Unsupported):
        return res
    return Draft(res, time.monotonic() - t0)


def instantiate(template: str, params: KernelParams | dict) -> dict[str, str]:
    """Fill ``template`` (``flat`` or ``row``) with ``params``; returns the project files."""
    if template not in TEMPLATES:
        raise ValueError(f"unknown template {template!r} (one of {', '.join(TEMPLATES)})")
    if isinstance(params, dict):
        d = dict(params)
        d["inputs"] = [p if isinstance(p, TensorParam) else TensorParam(**p) for p in d.get("inputs", [])]
        d["outputs"] = [p if isinstance(p, TensorParam) else TensorParam(**p) for p in d.get("outputs", [])]
        d["accs"] = [tuple(a) for a in d.get("accs", [])]
        d["variants"] = [v if isinstance(v, Variant) else Variant(**v) for v in d.get("variants", [])]
        params = KernelParams(**d)
    params.template = template
    main = main_input_index([p.kind for p in params.inputs])
    return render(params, main_input=main)
