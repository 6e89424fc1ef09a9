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
from typing import Callable, Literal

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


CHUNK = 1 << 22
"""Elements compared at a time: float64 work arrays stay at 32 MiB each, so outputs of billions of bytes
(NPUKernelBench's StridesliceNegConcatV2: 512 Mi float16 elements) are checked in bounded memory."""

Convert = Callable[[np.ndarray], np.ndarray]


def compare(ref: np.ndarray, out: np.ndarray, dtype_name: str, threshold: float | None = None,
            ref_values: Convert | None = None, out_values: Convert | None = None) -> Comparison:
    """Compare ``out`` with ``ref`` by the rule above, :data:`CHUNK` elements at a time. Both arrays are
    float-convertible values, or raw arrays that ``ref_values`` / ``out_values`` turn into float64 values
    element for element (``tensorio.as_float``: bfloat16 bit patterns; complex values become their
    (real, imag) pairs, so a complex array compares as twice as many components along its last axis)."""
    ref = np.asarray(ref)
    out = np.asarray(out)
    n_ref = ref.size * (2 if np.iscomplexobj(ref) else 1)   # values compared: complex ones as two components
    n_out = out.size * (2 if np.iscomplexobj(out) else 1)
    if n_ref != n_out:
        return Comparison(False, float("inf"), float("inf"), n_ref, n_ref, None,
                          reason=f"shape mismatch: kernel produced {list(out.shape)}{' complex' if n_out > out.size else ''}, "
                                 f"reference {list(ref.shape)}{' complex' if n_ref > ref.size else ''}")
    if ref.shape != out.shape:
        out = out.reshape(ref.shape)
    thr = threshold_for(dtype_name) if threshold is None else threshold
    ref_values = ref_values or (lambda a: a.astype(np.float64))
    out_values = out_values or (lambda a: a.astype(np.float64))
    shape = ref.shape
    if np.iscomplexobj(ref) or np.iscomplexobj(out):   # compared as components: the last axis doubles
        shape = tuple(np.atleast_1d(ref).shape[:-1]) + (int(np.atleast_1d(ref).shape[-1]) * 2,)
    flat_ref, flat_out = ref.reshape(-1), out.reshape(-1)
    n_bad, total, max_abs, max_rel = 0, 0, 0.0, 0.0
    first = exp_v = act_v = None
    for lo in range(0, max(flat_ref.size, 1), CHUNK):
        r = np.asarray(ref_values(flat_ref[lo:lo + CHUNK]), dtype=np.float64).reshape(-1)
        o = np.asarray(out_values(flat_out[lo:lo + CHUNK]), dtype=np.float64).reshape(-1)
        bad, a, rl = _bad_elements(r, o, thr)
        if a is not None:
            max_abs, max_rel = max(max_abs, a), max(max_rel, rl)
        k = int(bad.sum())
        if k and first is None:
            at = int(np.flatnonzero(bad)[0])
            flat = total + at
            first = [int(x) for x in np.unravel_index(flat, shape)] if len(shape) else []
            exp_v, act_v = float(r[at]), float(o[at])
        n_bad += k
        total += r.size
    return Comparison(n_bad == 0, max_abs, max_rel, n_bad, total, first, exp_v, act_v, thr)


def _bad_elements(r: np.ndarray, o: np.ndarray, thr: float) -> tuple[np.ndarray, float | None, float | None]:
    """The failing elements of one chunk by the rule above, and the chunk's largest absolute and relative
    errors over the pairs that are both finite (None when there are none)."""
    with np.errstate(invalid="ignore", over="ignore"):
        abs_err = np.abs(o - r)
        rel_err = abs_err / (np.abs(r) + 1e-7)
    ref_finite = np.isfinite(r)
    out_finite = np.isfinite(o)
    # finite reference: the both-exceed rule; a non-finite output there fails
    bad = ref_finite & ~out_finite
    with np.errstate(invalid="ignore"):
        bad |= ref_finite & out_finite & (abs_err > thr) & (rel_err > thr)
    # non-finite reference: must be reproduced exactly
    nonfin = ~ref_finite
    same_nan = np.isnan(r) & np.isnan(o)
    same_inf = np.isinf(r) & (o == r)
    bad |= nonfin & ~(same_nan | same_inf)
    finite_pairs = ref_finite & out_finite
    if not finite_pairs.any():
        return bad, None, None
    return bad, float(abs_err[finite_pairs].max()), float(rel_err[finite_pairs].max())


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
