"""Tensors on disk between kgen processes: ``.npy`` files plus a dtype name.

numpy has no bfloat16: bfloat16 tensors travel as their uint16 bit patterns with dtype name
"bfloat16", and :func:`as_float` widens them exactly (bits << 16 as float32).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

NUMPY_OF = {
    "float16": np.float16, "float32": np.float32, "float64": np.float64, "bfloat16": np.uint16,
    "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "int32": np.int32,
    "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64, "bool": np.bool_, "complex64": np.complex64,
    "complex128": np.complex128,   # reference results only (a kernel reads and writes complex64)
}
ALIASES = {"float": "float32", "half": "float16", "double": "float64", "bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}


def canonical(name: str) -> str:
    """Canonical dtype name (torch spelling without the prefix): float16, bfloat16, float32, int32..."""
    name = name.replace("torch.", "")
    return ALIASES.get(name, name)


def save(path: Path, arr: np.ndarray) -> None:
    np.save(path, np.ascontiguousarray(arr), allow_pickle=False)


def load(path: Path) -> np.ndarray:
    return np.load(path, allow_pickle=False)


def as_float(arr: np.ndarray, dtype_name: str) -> np.ndarray:
    """Values as float64 (bfloat16 bit patterns decoded, bool as 0/1, complex as its (real, imag) pairs:
    the last axis doubles, as a kernel sees complex64 data in GM: interleaved float32 pairs)."""
    if np.iscomplexobj(arr):
        return np.ascontiguousarray(np.atleast_1d(arr), dtype=np.complex128).view(np.float64)
    if canonical(dtype_name) == "bfloat16":
        return (arr.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if arr.dtype == np.bool_:
        return arr.astype(np.float64)
    return arr.astype(np.float64)


def bf16_from_bits(bits: np.ndarray):
    """A torch bfloat16 tensor from its uint16 bit patterns (exact)."""
    import torch  # optional: torch (bf16 tensors need it; the rest of the bench runs without it)

    return torch.from_numpy(np.ascontiguousarray(bits).view(np.int16).copy()).view(torch.bfloat16)


def bf16_from_values(values) -> "object":
    """A torch bfloat16 tensor rounded (to nearest even) from float values."""
    import torch  # optional: torch (bf16 tensors need it; the rest of the bench runs without it)

    return torch.from_numpy(np.asarray(values, dtype=np.float32)).to(torch.bfloat16)


def load_for_op(path: Path, dtype_name: str):
    """An input as an op run takes it: a numpy array, or a torch tensor for bfloat16 (numpy has none)."""
    arr = load(path)
    return bf16_from_bits(arr) if canonical(dtype_name) == "bfloat16" else arr


def compare_dtype(dtype_name: str) -> str:
    """The dtype whose threshold applies to an output's values (complex64: its float32 components; a
    complex128 reference: its float64 components)."""
    name = canonical(dtype_name)
    return {"complex64": "float32", "complex128": "float64"}.get(name, name)
