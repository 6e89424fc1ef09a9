"""Copy (UB -> UB vector copy, kgen_sim/vec_copy.h) against a numpy model of the documented repeat
rules: a repeat is 256 bytes in 8 blocks of 32 bytes, the mask picks elements of a repeat, block
strides apply inside a repeat and repeat strides between repeats (both in 32-byte blocks)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def prog():
    res = build([HERE / "cpp" / "vec_copy.cpp"], include_dirs=[HERE / "cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    return res.binary


def model(src, dst, selected, rep, dst_blk, src_blk, dst_rep, src_rep):
    """Expected dst: element e of repeat r (if selected) goes from block (r*src_rep + b*src_blk) to
    block (r*dst_rep + b*dst_blk), b = e // per_block."""
    out = dst.copy()
    per_block = 32 // src.itemsize
    for r in range(rep):
        for e in selected:
            b, k = divmod(e, per_block)
            out[(r * dst_rep + b * dst_blk) * per_block + k] = src[(r * src_rep + b * src_blk) * per_block + k]
    return out


def _run(prog, tmp_path, case, src, dst, **params):
    src.tofile(tmp_path / "src.bin")
    dst.tofile(tmp_path / "dst.bin")
    for k, v in params.items():
        np.array([v], dtype=np.int64).tofile(tmp_path / f"{k}.bin")
    r = run(prog, [case], cwd=tmp_path)
    assert r.ok, r.stderr
    return np.fromfile(tmp_path / "dst.bin", dtype=src.dtype)


def test_count_mask_with_block_and_repeat_strides(prog, tmp_path):
    src = np.arange(1024, dtype=np.float32) * 0.5
    dst = np.full(1024, -1.0, np.float32)
    got = _run(prog, tmp_path, "copy_f32", src, dst, mask=16, rep=3, dst_blk=1, src_blk=2, dst_rep=2, src_rep=16)
    np.testing.assert_array_equal(got, model(src, dst, range(16), 3, 1, 2, 2, 16))


def test_bit_mask_int16_default_strides(prog, tmp_path):
    src = np.arange(1024, dtype=np.int16) - 300
    dst = np.zeros(1024, np.int16)
    lo, hi = 0x00FF00FF00FF00FF, 0x8000000000000001  # int16: 128 elements per repeat, bits of mask[0] then mask[1]
    selected = [e for e in range(64) if lo >> e & 1] + [64 + e for e in range(64) if hi >> e & 1]
    got = _run(prog, tmp_path, "copy_i16", src, dst, bits=1, lo=np.int64(np.uint64(lo).view(np.int64)),
               hi=np.int64(np.uint64(hi).view(np.int64)), rep=2)
    np.testing.assert_array_equal(got, model(src, dst, selected, 2, 1, 1, 8, 8))
