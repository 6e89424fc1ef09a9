"""Modelled performance of a drafted project: the kernel on the task's largest case (emulator trace +
bench_bridge's performance model) against the PyTorch reference priced as eager kernels."""
from __future__ import annotations

import copy
from pathlib import Path

import torch

from agent_graph.drafter.planner import case_inputs
from bench_bridge.api import build_project, describe_project, eager_baseline, module_tensors, profile, run_project


def available() -> bool:
    """Whether the modelled numbers can be had: the performance model ships with bench_bridge, so always."""
    return True


def modelled(task, project: Path, timeout: float = 600.0) -> dict:
    """{"case", "kernel_us", "eager_us", "speedup", "report"} or {"error": ...}."""
    cases, mod = case_inputs(task)
    sizes = [sum(t.numel() for t in ins if isinstance(t, torch.Tensor)) for _, ins in cases]
    k = max(range(len(cases)), key=lambda i: sizes[i])
    init, ins = cases[k]
    model = mod.Model(*copy.deepcopy(init))
    with torch.no_grad():
        ref = model(*copy.deepcopy(ins))
    refs = list(ref) if isinstance(ref, (tuple, list)) else [ref]
    op = describe_project(project)
    if not op.ok:
        errs = [d.format() for d in op.diagnostics if d.severity == "error"]
        return {"error": "cannot read the op definition" + (f": {errs[0]}" if errs else "")}
    tensors = [t for t in ins if isinstance(t, torch.Tensor)]
    scalars = [v for v in ins if not isinstance(v, torch.Tensor)] + [v for v in init if not isinstance(v, torch.Tensor)]
    for extra in ([v for v in init if isinstance(v, torch.Tensor)], module_tensors(model, init)):
        if len(tensors) < len(op.inputs):   # init tensors, then the model's own weights, as the harness passes them
            tensors += extra[:len(op.inputs) - len(tensors)]
    combo = op.match_combo([str(t.dtype).replace("torch.", "") for t in tensors])
    if combo is None:
        return {"error": "no dtype combination matches the largest case"}
    b = build_project(op, combo)
    if not b.ok:
        return {"error": "build failed"}
    types = op.combo(combo)
    outs = [(tuple(r.shape), types[p.name]) for r, p in zip(refs, op.outputs)]
    attrs = {a.name: v for a, v in zip(op.attrs, scalars)}
    pr = run_project(b, [t.numpy() if t.dtype != torch.bfloat16 else t for t in tensors], outs, attrs, timeout=timeout,
                     trace=True)
    if not pr.ok or not pr.run or not pr.run.trace_file:
        return {"error": "traced run failed"}
    with torch.no_grad():
        eager = eager_baseline(lambda *a: model(*a), *ins)
    rep = profile(pr.run.trace_file, reference=eager)
    return {"case": task.cases[k].id, "kernel_us": rep.modelled_us, "eager_us": eager.time_us,
            "speedup": rep.speedup_vs_eager, "report": rep}
