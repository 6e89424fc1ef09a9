"""Run an NPUKernelBench task's ``ModelNew`` on a real NPU against ``Model`` on the CPU, with NPU-event
timing (CANN flow; UNTESTED here: needs torch_npu, an NPU and the installed custom op).

    python -m bench_bridge.npu.run_task TASK_DIR [--json OUT] [--warmup 3] [--iters 100]
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

import numpy as np

from bench_bridge.tasks import load_task
from bench_bridge.tasks.csvcases import Row
from bench_bridge.tasks.pymodule import load_module
from bench_bridge.tasks.worker import as_list
from bench_bridge.verify import compare


def run(task_dir: Path, warmup: int, iters: int) -> dict:
    import torch  # optional: torch (the NPU stack)
    import torch_npu  # noqa: F401  # optional: torch_npu (the NPU stack)

    task = load_task(task_dir)
    mod = load_module("kgen_task_module", task.reference)
    prep = load_module("kgen_task_prepare", task.prepare) if task.prepare else mod
    cases = []
    for index, case in enumerate(task.cases):
        torch.manual_seed(index)
        row = Row(case.params)
        init = list(prep.get_init_inputs(row, device="cpu")) if hasattr(prep, "get_init_inputs") else []
        inputs = as_list(prep.get_inputs(row, device="cpu"))
        ref = as_list(mod.Model(*copy.deepcopy(init))(*copy.deepcopy(inputs)))
        dev = [x.npu() if isinstance(x, torch.Tensor) else x for x in inputs]
        model = mod.ModelNew(*copy.deepcopy(init)).npu()
        out = as_list(model(*copy.deepcopy(dev)))
        for _ in range(warmup):
            model(*dev)
        start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            model(*dev)
        end.record()
        torch.npu.synchronize()
        ms = start.elapsed_time(end) / iters
        checks = [compare(r.float().numpy(), o.cpu().float().numpy(), str(r.dtype).replace("torch.", "")).to_dict()
                  for r, o in zip(ref, out)]
        cases.append({"case_id": case.id, "params": dict(case.params), "ms": ms, "outputs": checks,
                      "status": "pass" if all(c["passed"] for c in checks) else "fail"})
    return {"task": task.name, "backend": "npu", "cases": cases, "correct": all(c["status"] == "pass" for c in cases)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench_bridge.npu.run_task")
    ap.add_argument("task_dir", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--iters", type=int, default=100)
    a = ap.parse_args(argv)
    try:
        rep = run(a.task_dir, a.warmup, a.iters)
    except ImportError as e:
        print(f"run_task: the NPU stack is not importable: {e}", file=sys.stderr)
        return 2
    text = json.dumps(rep, indent=2, default=lambda o: o.item() if isinstance(o, np.generic) else str(o))
    if a.json:
        a.json.write_text(text)
    print(text)
    return 0 if rep["correct"] else 1


if __name__ == "__main__":
    sys.exit(main())
