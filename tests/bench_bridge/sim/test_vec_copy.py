"""Copy (UB -> UB vector copy, kgen_sim/vec_copy.h) against a numpy model of the documented repeat
rules: a repeat is 256 bytes in 8 blocks of 32 bytes, the mask picks elements of a repeat, block
strides apply inside a repeat and repeat strides between repeats (both in 32-byte blocks). In counter mode
Copy differs from the other vector instructions (Copy page): the mask is the element count of each repeat
and repeatTime takes effect."""
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


def counter_model(src, dst, count, rep, dst_blk, src_blk, dst_rep, src_rep):
    """Counter-mode Copy, written as block moves: repeat r moves ceil(count / per_block) blocks, block b from
    block r*src_rep + b*src_blk to block r*dst_rep + b*dst_blk, the last block only up to `count` elements."""
    out = dst.copy()
    pb = 32 // src.itemsize
    for r in range(rep):
        for b in range(-(-count // pb)):
            n = min(pb, count - b * pb)
            d0, s0 = (r * dst_rep + b * dst_blk) * pb, (r * src_rep + b * src_blk) * pb
            out[d0:d0 + n] = src[s0:s0 + n]
    return out


def test_counter_mode_count_per_repeat_from_the_register(prog, tmp_path):
    # int16: 40 elements a repeat = 80 bytes = blocks of 16, 16 and 8 elements; the block stride gathers every
    # second block of the source; repeatTime 2 takes effect (the general counter mode would ignore it)
    src = np.arange(1024, dtype=np.int16) * 3 - 700
    dst = np.full(1024, 11, np.int16)
    got = _run(prog, tmp_path, "copy_i16", src, dst, counter=1, reg=1, mask=40, rep=2, dst_blk=1, src_blk=2,
               dst_rep=3, src_rep=10)
    want = counter_model(src, dst, 40, 2, 1, 2, 3, 10)
    np.testing.assert_array_equal(got, want)
    assert (got[:16] == src[:16]).all() and (got[16:32] == src[32:48]).all() and (got[32:40] == src[64:72]).all()
    assert (got[40:48] == 11).all()                         # the rest of the third block is not written
    assert (got[48:64] == src[160:176]).all()               # repeat 1 starts 10 source blocks later


def test_counter_mode_count_per_repeat_from_the_argument(prog, tmp_path):
    # float: a count of 18 with block stride 8 picks the first 8 values of rows of 64 (18 = 8 + 8 + 2), one repeat
    src = np.arange(1024, dtype=np.float32) / 4
    dst = np.full(1024, -1.0, np.float32)
    got = _run(prog, tmp_path, "copy_f32", src, dst, counter=1, reg=0, mask=18, rep=1, dst_blk=1, src_blk=8,
               dst_rep=8, src_rep=8)
    np.testing.assert_array_equal(got, counter_model(src, dst, 18, 1, 1, 8, 8, 8))
    np.testing.assert_array_equal(got[:18], np.concatenate([src[0:8], src[64:72], src[128:130]]))
    assert (got[18:] == -1.0).all()
