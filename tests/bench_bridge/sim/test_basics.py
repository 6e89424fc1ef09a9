"""Emulator basics checked against numpy: 16-bit float conversion, binary vector ops in both
forms, DataCopy rounding (with its warning located on the source line)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("basics.cpp")


def marker_line(marker: str, name: str = "basics.cpp") -> int:
    for i, line in enumerate((CPP_DIR / name).read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


def bf16_bits_reference(x: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even float32 -> bfloat16, computed independently with integer numpy."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    nan = np.isnan(x)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    rounded = rounded.astype(np.uint16)
    rounded[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return rounded


def test_half_and_bf16_conversion_round_to_nearest_even(prog):
    rng = np.random.default_rng(0)
    special = np.array(
        [0.0, -0.0, 1.0, 65504.0, 65520.0, 65519.99, 1e-8, 2.0**-24, 2.0**-25, 3 * 2.0**-25, 2.0**-14,
         np.inf, -np.inf, np.nan, 1 + 2.0**-11, 1 + 3 * 2.0**-11, 1 + 2.0**-8, 1 + 3 * 2.0**-8],
        dtype=np.float32,
    )
    x = np.concatenate([special, rng.standard_normal(2000).astype(np.float32) * 1000,
                        rng.standard_normal(2000).astype(np.float32) * 1e-5]).astype(np.float32)
    res = prog.run("convert_f32", x=x)
    h = res.out("h", np.uint16)
    with np.errstate(over="ignore"):
        x16 = x.astype(np.float16)
    expect_h = x16.view(np.uint16)
    finite = ~np.isnan(x)
    np.testing.assert_array_equal(h[finite], expect_h[finite])
    assert np.all(np.isnan(res.out("hf", np.float32)[~finite]))
    np.testing.assert_array_equal(res.out("hf", np.float32)[finite], x16.astype(np.float32)[finite])
    np.testing.assert_array_equal(res.out("b", np.uint16), bf16_bits_reference(x))


OPS = {0: np.add, 1: np.subtract, 2: np.multiply, 3: np.divide, 4: np.maximum, 5: np.minimum}


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype,case", [(np.float32, "binary_count_f32"), (np.float16, "binary_count_f16")])
def test_binary_count_form_matches_numpy(prog, op, dtype, case):
    rng = np.random.default_rng(op)
    n = 333  # not a multiple of a repeat: the count form computes exactly n elements
    a = rng.standard_normal(n).astype(dtype)
    b = (rng.standard_normal(n) + 3).astype(dtype)
    res = prog.run(case, a=a, b=b, op=np.int64(op))
    # numpy computes float16 ops in float16 with one rounding, like the vector unit
    np.testing.assert_array_equal(res.out("z", dtype), OPS[op](a, b).astype(dtype))


def test_binary_count_int32_wraps(prog):
    a = np.array([2**31 - 1, -5, 7, 0] * 8, dtype=np.int32)
    b = np.array([1, 3, -9, 0] * 8, dtype=np.int32)
    res = prog.run("binary_count_i32", a=a, b=b, op=np.int64(0))
    np.testing.assert_array_equal(res.out("z", np.int32), (a.astype(np.int64) + b).astype(np.int32))


def repeat_reference(a, b, bits, mask, repeat, strides):
    """Independent model of the mask/repeat addressing rule for float32 (8 elements per block)."""
    dblk, s0blk, s1blk, drep, s0rep, s1rep = strides
    out = np.full_like(a, -1.0)
    for r in range(repeat):
        for i in range(64):
            on = ((mask >> i) & 1) if bits else i < mask
            if not on:
                continue
            blk, e = divmod(i, 8)
            d = r * drep * 8 + blk * dblk * 8 + e
            x = r * s0rep * 8 + blk * s0blk * 8 + e
            y = r * s1rep * 8 + blk * s1blk * 8 + e
            out[d] = a[x] + b[y]
    return out


@pytest.mark.parametrize(
    "bits,mask,repeat,strides",
    [
        (0, 64, 4, (1, 1, 1, 8, 8, 8)),       # full repeats, contiguous
        (0, 20, 3, (1, 1, 1, 8, 8, 8)),       # partial normal mask: first 20 of each repeat
        (1, 0xF0F0_0000_0000_00FF, 2, (1, 1, 1, 8, 8, 8)),  # bit mask
        (0, 64, 2, (2, 1, 1, 16, 8, 8)),      # destination block stride 2
        (0, 64, 3, (1, 1, 1, 8, 0, 8)),       # src0 repeat stride 0: broadcast the same 64 elements
        (0, 16, 2, (1, 2, 2, 4, 4, 4)),       # overlapping repeats with strides
    ],
)
def test_add_mask_repeat_form_addressing(prog, bits, mask, repeat, strides):
    length = 1024
    rng = np.random.default_rng(1)
    a = rng.standard_normal(length).astype(np.float32)
    b = rng.standard_normal(length).astype(np.float32)
    m_signed = np.array([mask], dtype=np.uint64).view(np.int64)[0]
    p = np.array([bits, m_signed, repeat, *strides, 0], dtype=np.int64)
    res = prog.run("add_repeat", a=a, b=b, p=p)
    np.testing.assert_array_equal(res.out("z", np.float32), repeat_reference(a, b, bits, mask, repeat, strides))


def test_add_repeat_rejects_bad_normal_mask(prog):
    a = np.zeros(1024, np.float32)
    p = np.array([0, 65, 1, 1, 1, 1, 8, 8, 8, 0], dtype=np.int64)  # 65 > 64 elements per float repeat
    res = prog.run("add_repeat", a=a, b=a, p=p, expect_ok=False)
    assert res.run.returncode == 3
    assert res.errors and res.errors[0].code == "bad-mask"
    assert "outside [1, 64]" in res.errors[0].message


def test_add_repeat_out_of_tensor_is_located(prog):
    a = np.zeros(64, np.float32)  # 3 tensors of 64 floats; 2 repeats overrun them
    p = np.array([0, 64, 2, 1, 1, 1, 8, 8, 8, 0], dtype=np.int64)
    res = prog.run("add_repeat", a=a, b=a, p=p, expect_ok=False)
    err = res.errors[0]
    assert err.code == "ub-out-of-bounds"
    assert err.file.endswith("basics.cpp") and err.line > 0


def test_datacopy_unaligned_length_drops_tail_with_warning(prog):
    a = np.arange(256, dtype=np.float32) + 1
    res = prog.run("copy_unaligned", a=a, n=np.int64(13))  # 52 bytes: only 8 floats (32 B) move
    z = res.out("z", np.float32)
    np.testing.assert_array_equal(z[:8], a[:8])
    assert np.all(z[8:] == 0)
    (w,) = res.warnings
    assert w.code == "datacopy-rounded"
    assert "drops the last 5" in w.message
    assert w.line == marker_line("@rounding-site")


def test_datacopy_aligned_length_copies_all_without_warning(prog):
    a = np.arange(256, dtype=np.float32) + 1
    res = prog.run("copy_unaligned", a=a, n=np.int64(16))
    np.testing.assert_array_equal(res.out("z", np.float32)[:16], a[:16])
    assert not res.warnings
