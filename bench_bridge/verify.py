"""Precision check of a kernel output against the PyTorch reference.

Rule (NPUKernelBench): an element fails only if BOTH its absolute error and its relative error
(|out - ref| / (|ref| + 1e-7)) exceed the threshold for the dtype: 1e-3 for float16/bfloat16,
1e-5 for float32 (and float64); integer and bool outputs must match exactly. A non-finite
output where the reference is finite fails; where the reference is non-finite, the output must
be the same non-finite value (NaN where NaN, the same infinity).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import numpy as np

THRESHOLDS = {"float16": 1e-3, "bfloat16": 1e-3, "float32": 1e-5, "float64": 1e-5}


@dataclass
class Comparison:
    """Outcome of comparing one output tensor with its reference."""

    passed: bool
    max_abs_error: float
    max_rel_error: float
    mismatches: int
    total: int
    first_mismatch: list[int] | None  # multi-dimensional index of the first failing element
    expected: float | None = None      # reference value at the first mismatch
    actual: float | None = None        # kernel value at the first mismatch
    threshold: float = 0.0
    reason: str = ""                   # shape/dtype problems

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def threshold_for(dtype_name: str) -> float:
    """Both-exceed threshold for a dtype name; 0 for exact (integer/bool) types."""
    return THRESHOLDS.get(dtype_name, 0.0)


def compare(ref: np.ndarray, out: np.ndarray, dtype_name: str, threshold: float | None = None) -> Comparison:
    """Compare ``out`` with ``ref`` by the rule above. Both arrays are given as float-convertible values."""
    ref = np.asarray(ref)
    out = np.asarray(out)
    if ref.shape != out.shape:
        if ref.size == out.size:
            out = out.reshape(ref.shape)
        else:
            return Comparison(False, float("inf"), float("inf"), ref.size, ref.size, None,
                              reason=f"shape mismatch: kernel produced {list(out.shape)}, reference {list(ref.shape)}")
    thr = threshold_for(dtype_name) if threshold is None else threshold
    r = ref.astype(np.float64)
    o = out.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        abs_err = np.abs(o - r)
        rel_err = abs_err / (np.abs(r) + 1e-7)
    ref_finite = np.isfinite(r)
    out_finite = np.isfinite(o)
    bad = np.zeros(r.shape, dtype=bool)
    # finite reference: the both-exceed rule; a non-finite output there fails
    fin = ref_finite
    bad |= fin & ~out_finite
    with np.errstate(invalid="ignore"):
        bad |= fin & out_finite & (abs_err > thr) & (rel_err > thr)
    # non-finite reference: must be reproduced exactly
    nonfin = ~ref_finite
    same_nan = np.isnan(r) & np.isnan(o)
    same_inf = np.isinf(r) & (o == r)
    bad |= nonfin & ~(same_nan | same_inf)
    finite_pairs = ref_finite & out_finite
    max_abs = float(abs_err[finite_pairs].max()) if finite_pairs.any() else 0.0
    max_rel = float(rel_err[finite_pairs].max()) if finite_pairs.any() else 0.0
    n_bad = int(bad.sum())
    first = None
    exp_v = act_v = None
    if n_bad:
        flat = int(np.flatnonzero(bad.reshape(-1))[0])
        first = [int(i) for i in np.unravel_index(flat, r.shape)] if r.ndim else []
        exp_v = float(r.reshape(-1)[flat])
        act_v = float(o.reshape(-1)[flat])
    return Comparison(n_bad == 0, max_abs, max_rel, n_bad, int(r.size), first, exp_v, act_v, thr)


# ---- a kernel-launch program's own verdict ---------------------------------------------------
# A program with its own host main checks itself; kgen believes it only when it says so on stdout:
# a line with PASS / PASSED (upper case, a whole word) or "test pass" (any case, CANN's examples) is a
# pass claim; FAIL / FAILED or "test fail" anywhere is a failure, whatever the exit status. Exit status 0
# with neither is "unverified": the program ran, but nothing was checked (never reported correct).
PASS_MARK = re.compile(r"\bPASS(ED)?\b|(?i:\btest pass)")
FAIL_MARK = re.compile(r"\bFAIL(ED)?\b|(?i:\btest fail)")


ProgramVerdict = Literal["pass", "fail", "unverified"]


def program_verdict(returncode: int, stdout: str) -> ProgramVerdict:
    """``pass`` | ``fail`` | ``unverified`` for a program that exited normally with ``returncode``."""
    if returncode != 0 or FAIL_MARK.search(stdout):
        return "fail"
    return "pass" if PASS_MARK.search(stdout) else "unverified"
