"""Data types of custom-operator projects: ge::DataType numbers <-> numpy / torch <-> kernel C++ types.

numpy has no bfloat16: bf16 data travels as torch tensors (``torch.bfloat16``) or as the string
``"bfloat16"`` in output specs; on disk it is raw 16-bit words, and ``run_project`` returns bf16
outputs widened to float32 (exact).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DType:
    ge: int            # ge::DataType value
    name: str          # "DT_FLOAT16"
    short: str         # "float16" (torch/numpy spelling)
    cpp: str | None    # kernel-side C++ type (DTYPE_<ARG>)
    np_storage: np.dtype | None  # how the bytes are stored in numpy
    itemsize: int


_TABLE = [
    DType(0, "DT_FLOAT", "float32", "float", np.dtype(np.float32), 4),
    DType(1, "DT_FLOAT16", "float16", "half", np.dtype(np.float16), 2),
    DType(2, "DT_INT8", "int8", "int8_t", np.dtype(np.int8), 1),
    DType(3, "DT_INT32", "int32", "int32_t", np.dtype(np.int32), 4),
    DType(4, "DT_UINT8", "uint8", "uint8_t", np.dtype(np.uint8), 1),
    DType(6, "DT_INT16", "int16", "int16_t", np.dtype(np.int16), 2),
    DType(7, "DT_UINT16", "uint16", "uint16_t", np.dtype(np.uint16), 2),
    DType(8, "DT_UINT32", "uint32", "uint32_t", np.dtype(np.uint32), 4),
    DType(9, "DT_INT64", "int64", "int64_t", np.dtype(np.int64), 8),
    DType(10, "DT_UINT64", "uint64", "uint64_t", np.dtype(np.uint64), 8),
    DType(11, "DT_DOUBLE", "float64", "double", np.dtype(np.float64), 8),
    DType(12, "DT_BOOL", "bool", "bool", np.dtype(np.bool_), 1),
    DType(16, "DT_COMPLEX64", "complex64", None, np.dtype(np.complex64), 8),
    DType(27, "DT_BF16", "bfloat16", "bfloat16_t", np.dtype(np.uint16), 2),
]
BY_GE = {d.ge: d for d in _TABLE}
BY_NAME = {d.name: d for d in _TABLE}
_ALIASES = {"float": "float32", "half": "float16", "bf16": "bfloat16", "fp16": "float16", "fp32": "float32",
            "double": "float64", "bool_": "bool"}

FORMATS = {0: "FORMAT_NCHW", 1: "FORMAT_NHWC", 2: "FORMAT_ND", 3: "FORMAT_NC1HWC0", 4: "FORMAT_FRACTAL_Z",
           12: "FORMAT_NC1HWC0_C04", 16: "FORMAT_HWCN", 27: "FORMAT_NDHWC", 29: "FORMAT_FRACTAL_NZ", 30: "FORMAT_NCDHW",
           32: "FORMAT_NDC1HWC0", 33: "FORMAT_FRACTAL_Z_3D", 35: "FORMAT_NC", 47: "FORMAT_NCL"}


def from_ge(value: int) -> DType:
    if value not in BY_GE:
        raise KeyError(f"ge::DataType {value} is not supported by the emulator")
    return BY_GE[value]


def from_any(dtype) -> DType:
    """A DType from a numpy dtype, a torch dtype, a ge name ("DT_BF16") or a short name ("bfloat16")."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, int):
        return from_ge(dtype)
    s = str(dtype)
    if s.startswith("torch."):
        s = s[len("torch."):]
    if s in BY_NAME:
        return BY_NAME[s]
    s = _ALIASES.get(s, s)
    for d in _TABLE:
        if d.short == s:
            return d
    try:
        npd = np.dtype(dtype)
    except TypeError:
        raise KeyError(f"unsupported data type {dtype!r}") from None
    for d in _TABLE:
        if d.np_storage == npd and d.ge != 27:
            return d
    raise KeyError(f"unsupported data type {dtype!r}")


def dtype_of(value) -> DType:
    """The DType of an input array (numpy array or torch tensor)."""
    t = getattr(value, "dtype", None)
    if t is None:
        raise TypeError(f"input of type {type(value).__name__} has no dtype")
    return from_any(t)


def to_bytes(value, dt: DType) -> bytes:
    """Raw little-endian bytes of an input, as the kernel sees them in GM."""
    if hasattr(value, "detach"):  # torch tensor
        import torch  # optional: torch (a torch tensor is given, so it is loaded already)

        t = value.detach().cpu().contiguous()
        if t.dtype == torch.bfloat16:
            return t.view(torch.int16).numpy().tobytes()
        return t.numpy().tobytes()
    return np.ascontiguousarray(value, dtype=dt.np_storage).tobytes()


def from_bytes(data: bytes, dt: DType, shape) -> np.ndarray:
    """An output array from raw bytes; bf16 is widened to float32 (exactly)."""
    arr = np.frombuffer(data, dtype=dt.np_storage).reshape(shape)
    if dt.ge == 27:
        return (arr.astype(np.uint32) << 16).view(np.float32)
    return arr.copy()
