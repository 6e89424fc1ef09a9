"""Verification of kernel outputs for ``kgen bench``: the built-in rule, or the task's own checker
(``custom_check_precision``), which runs in the reference worker process."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from bench_bridge import tensorio
from bench_bridge.report import OutputCheck
from bench_bridge.sandbox import own_python_env
from bench_bridge.sim import run as sim_run
from bench_bridge.tasks.ties import load_source, tie_equivalent
from bench_bridge.verify import compare, threshold_for


def compare_outputs(names: list[str], refs_meta: list[dict], outs: list[np.ndarray], out_dtypes: list[str], cdir: Path) -> list[OutputCheck]:
    """One OutputCheck per reference output; the threshold follows the reference dtype."""
    checks = []
    for k, m in enumerate(refs_meta):
        ref = tensorio.load(cdir / m["file"])
        name = names[k] if k < len(names) else f"output{k}"
        if k >= len(outs):
            n = int(tensorio.as_float(ref, m["dtype"]).size)
            checks.append(OutputCheck(name, m["dtype"], m["shape"], False, float("inf"), float("inf"), n, n,
                                      reason="the kernel produced no such output"))
            continue
        out_dtype = out_dtypes[k] if k < len(out_dtypes) else m["dtype"]
        # converted to float64 a chunk at a time inside compare: a whole output never is (memory)
        c = compare(ref, np.asarray(outs[k]), tensorio.compare_dtype(m["dtype"]), _threshold(m["dtype"], out_dtype),
                    ref_values=lambda a, d=m["dtype"]: tensorio.as_float(a, d),
                    out_values=lambda a, d=out_dtype: tensorio.as_float(a, d))
        source = None if c.passed else load_source(m, cdir)
        if source is not None and c.reason == "":   # topk's indices: the same values, ties in another order
            why = tie_equivalent(ref, np.asarray(outs[k]), *source)
            if not why:
                checks.append(OutputCheck(name, m["dtype"], m["shape"], True, 0.0, 0.0, 0, c.total, threshold=c.threshold,
                                          reason=f"{c.mismatches} indices differ only in the order of equal values"))
                continue
            c.reason = f"{c.mismatches} of {c.total} indices differ and are no tie: {why}"
        checks.append(OutputCheck(name, m["dtype"], m["shape"], c.passed, c.max_abs_error, c.max_rel_error, c.mismatches, c.total,
                                  c.first_mismatch, c.expected, c.actual, c.threshold, c.reason))
    return checks


def _threshold(ref_dtype: str, out_dtype: str) -> float:
    """The both-exceed threshold of one output: the reference dtype's, or the output dtype's where the op
    writes a narrower floating type than the reference computes in (a float16 output of a reference that
    returns float32, as scipy's spence does for float16 inputs: a float16 result cannot hold 1e-5, and the
    paper's rule gives float16 1e-3)."""
    ref_thr = threshold_for(tensorio.compare_dtype(ref_dtype))
    out_thr = threshold_for(tensorio.compare_dtype(out_dtype))
    return max(ref_thr, out_thr) if ref_thr > 0 and out_thr > 0 else ref_thr


def custom_check(work: Path, entry: dict, outs: list[np.ndarray], out_dtypes: list[str], timeout: float,
                 reads: list[Path] = ()) -> dict:
    """Run the task's custom_check_precision in the worker on the kernel outputs; {'passed', ...} or {'error'}."""
    cdir = work / entry["dir"]
    metas = []
    for k, (o, dt) in enumerate(zip(outs, out_dtypes)):
        ref_dtype = entry["refs"][k]["dtype"] if k < len(entry["refs"]) else dt
        arr = np.asarray(o)
        if ref_dtype == "bfloat16":  # kernel outputs come back widened to float32: re-narrow exactly
            arr = (arr.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
            dt = "bfloat16"
        elif ref_dtype != dt:
            arr = arr.astype(tensorio.NUMPY_OF.get(ref_dtype, arr.dtype))
            dt = ref_dtype
        tensorio.save(cdir / f"kout_{k}.npy", arr)
        metas.append({"file": f"kout_{k}.npy", "dtype": dt})
    (cdir / "kout.json").write_text(json.dumps(metas))
    r = sim_run(Path(sys.executable), ["-m", "bench_bridge.tasks.worker", "check", str(work / "task.json"), str(work), str(entry["index"])],
                cwd=work, timeout=timeout, memory_mb=16384, reads=reads, env=own_python_env())
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": "the task's custom precision check failed: " + ((r.stderr.strip().splitlines() or ["no output"])[-1])}
