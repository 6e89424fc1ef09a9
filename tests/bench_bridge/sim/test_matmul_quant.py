"""Matmul API dequantization (tests/bench_bridge/sim/cpp/matmul_quant.cpp): int8 x int8 -> int32 (+ int32 bias) -> half C
scaled by SetQuantScalar / SetQuantVector. The reference: the exact int32 product times the scale, the scale a
float in the low 32 bits of each 64-bit word with its low 13 mantissa bits cleared (the precision the hardware
uses; CANN's matmul_quant example masks its golden data the same way), rounded once to half."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("matmul_quant.cpp")


def line_of(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "matmul_quant.cpp").read_text().splitlines(), 1):
        if f"MARK:{marker}" in line:
            return i
    raise AssertionError(marker)


def words(scales: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(scales, np.float32).view(np.uint32).astype(np.uint64)


def used(scales: np.ndarray) -> np.ndarray:
    return (np.ascontiguousarray(scales, np.float32).view(np.uint32) & 0xFFFFE000).view(np.float32)


def inputs(M, N, K, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-10, 10, size=(M, K)).astype(np.int8)
    b = rng.integers(-10, 10, size=(K, N)).astype(np.int8)
    bias = rng.integers(-50, 50, size=N).astype(np.int32)
    return a, b, bias, a.astype(np.int64) @ b.astype(np.int64) + bias


@pytest.mark.parametrize("M,N,K", [(64, 64, 64), (45, 70, 37)])
def test_quant_scalar(prog, M, N, K):
    a, b, bias, acc = inputs(M, N, K, M)
    scale = np.array([0.0123456], np.float32)
    res = prog.run("quant", a=a, b=b, bias=bias, q=words(scale), M=M, N=N, K=K, mode=1)
    want = (acc.astype(np.float32) * used(scale)[0]).astype(np.float16)
    np.testing.assert_array_equal(res.out("c", np.float16).reshape(M, N), want)
    assert used(scale)[0] != scale[0]  # the truncation is observable for this scale


def test_quant_vector_one_scale_per_column(prog):
    M, N, K = 40, 50, 64
    a, b, bias, acc = inputs(M, N, K, 7)
    scales = np.random.default_rng(8).uniform(0.1, 2.0, N).astype(np.float32)
    res = prog.run("quant", a=a, b=b, bias=bias, q=words(scales), M=M, N=N, K=K, mode=2)
    want = (acc.astype(np.float32) * used(scales)[None, :]).astype(np.float16)
    np.testing.assert_array_equal(res.out("c", np.float16).reshape(M, N), want)


def test_half_c_without_a_scale_is_reported(prog):
    a, b, bias, _ = inputs(16, 16, 32, 9)
    res = prog.run("quant", expect_ok=False, a=a, b=b, bias=bias, q=words(np.ones(1)), M=16, N=16, K=32, mode=0)
    assert [(e.code, e.line) for e in res.errors] == [("matmul-dtype", line_of("iterateall"))]
    assert "SetQuantScalar" in res.errors[0].message
