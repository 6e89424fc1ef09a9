"""Multi-core behaviour of the emulator: GM atomics combined from many blocks (DataCopy and
DataCopyPad), SyncAll (hard and workspace forms) with partial sums and tails, waves when there
are more blocks than cores, and the SyncAll misuses that would hang the hardware."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("multicore.cpp")


def marker_line(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "multicore.cpp").read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


# ---- atomics ----------------------------------------------------------------------------------

@pytest.mark.parametrize("copy,n", [(0, 64), (1, 64), (1, 37)])  # DataCopy needs 32-byte rows; DataCopyPad any length
@pytest.mark.parametrize("case,dtype", [("atomic_f32", np.float32), ("atomic_i32", np.int32)])
def test_atomic_add_from_many_blocks(prog, case, dtype, copy, n):
    blocks = 12
    rng = np.random.default_rng(n + copy)
    x = rng.integers(-1000, 1000, size=(blocks, n)).astype(dtype)  # integers: exact in any summation order
    z0 = rng.integers(-50, 50, size=n).astype(dtype)
    res = prog.run(case, x=x.ravel(), z0=z0, mode=np.int64(0), copy=np.int64(copy))
    np.testing.assert_array_equal(res.out("z", dtype), z0 + x.sum(axis=0).astype(dtype))
    # after SetAtomicNone the same copy overwrites instead of adding to the 5s already there
    np.testing.assert_array_equal(res.out("plain", dtype), x.ravel())


@pytest.mark.parametrize("copy,n", [(0, 48), (1, 21)])
def test_atomic_add_half_from_many_blocks(prog, copy, n):
    blocks = 8
    rng = np.random.default_rng(5)
    # multiples of 1/4 below 64: every partial sum is exact in half, so the order of the blocks does not matter
    x = (rng.integers(-256, 256, size=(blocks, n)) / 4).astype(np.float16)
    z0 = (rng.integers(-64, 64, size=n) / 4).astype(np.float16)
    res = prog.run("atomic_f16", x=x.ravel(), z0=z0, mode=np.int64(0), copy=np.int64(copy))
    np.testing.assert_array_equal(res.out("z", np.float16), (z0.astype(np.float64) + x.astype(np.float64).sum(axis=0)).astype(np.float16))


def test_atomic_add_half_rounds_each_addition_to_half(prog):
    n = 16
    z0 = np.full(n, 2048.0, np.float16)  # half spacing is 2 at 2048: 2048 + 1 is a tie, rounds to even
    x = np.array([1, 3, 0.5, 1.5, 2.5, -1, -3, 0.25] * 2, np.float16).reshape(1, n)
    res = prog.run("atomic_f16", x=x.ravel(), z0=z0, mode=np.int64(0), copy=np.int64(0))
    np.testing.assert_array_equal(res.out("z", np.float16), (z0 + x[0]))  # numpy: one rounding of the exact sum
    assert list(res.out("z", np.float16)[:3]) == [2048, 2052, 2048]


@pytest.mark.parametrize("mode,fn", [(1, np.max), (2, np.min)])
@pytest.mark.parametrize("copy,n", [(0, 32), (1, 13)])
@pytest.mark.parametrize("case,dtype", [("atomic_f32", np.float32), ("atomic_f16", np.float16), ("atomic_i32", np.int32)])
def test_atomic_max_min_from_many_blocks(prog, case, dtype, mode, fn, copy, n):
    if copy == 0 and dtype == np.float16:
        n = 32
    blocks = 10
    rng = np.random.default_rng(mode * 10 + copy)
    x = (rng.standard_normal((blocks, n)) * 100).astype(dtype)
    z0 = (rng.standard_normal(n) * 100).astype(dtype)
    res = prog.run(case, x=x.ravel(), z0=z0, mode=np.int64(mode), copy=np.int64(copy))
    expect = fn(np.vstack([x, z0[None, :]]), axis=0)
    np.testing.assert_array_equal(res.out("z", dtype), expect)


# ---- SyncAll ----------------------------------------------------------------------------------

@pytest.mark.parametrize("soft", [0, 1])
@pytest.mark.parametrize("n,blocks", [(1000, 7), (64, 8), (5, 3), (301, 16)])
def test_syncall_partial_sums_with_tails(prog, soft, n, blocks):
    rounds = 3
    rng = np.random.default_rng(n)
    x = rng.integers(-100, 100, size=n).astype(np.int32)
    res = prog.run("partial_sum", x=x, blocks=np.int64(blocks), rounds=np.int64(rounds), soft=np.int64(soft))
    out = res.out("out", np.int32).reshape(rounds, blocks)
    total = int(x.sum())
    for r in range(rounds):
        # every block saw every other block's partial of this round, never a stale one
        assert list(out[r]) == [total * (r + 1)] * blocks


def test_soft_syncall_among_used_cores_only(prog):
    res = prog.run("used_cores", blocks=np.int64(6), used=np.int64(4))
    assert list(res.out("out", np.int32)) == [10, 10, 10, 10, -1, -1]


def test_soft_syncall_used_cores_above_block_num_is_rejected(prog):
    res = prog.run("used_cores", blocks=np.int64(3), used=np.int64(5), expect_ok=False)
    assert res.run.returncode == 3
    err = res.errors[0]
    assert err.code == "syncall-params"
    assert err.line == marker_line("@used-cores")


def test_soft_syncall_workspace_too_small_is_located(prog):
    res = prog.run("small_ws", expect_ok=False)
    assert res.run.returncode == 3
    err = res.errors[0]
    assert err.code == "gm-out-of-bounds" and "GetBlockNum() * 32" in err.message
    assert err.line == marker_line("@small-ws")


@pytest.mark.parametrize("soft,marker", [(0, "@early-exit-hard"), (1, "@early-exit-soft")])
def test_syncall_that_a_block_never_reaches_is_a_deadlock(prog, soft, marker):
    res = prog.run("early_exit", soft=np.int64(soft), timeout=30, expect_ok=False)
    assert not res.run.timed_out
    assert res.run.returncode == 3
    err = res.errors[0]
    assert err.code == "syncall-deadlock"
    assert err.file.endswith("multicore.cpp") and err.line == marker_line(marker)


# ---- waves ------------------------------------------------------------------------------------

def test_more_blocks_than_cores_run_in_waves(prog, monkeypatch):
    monkeypatch.setenv("KGEN_SIM_VECTOR_CORES", "2")
    res = prog.run("waves", blocks=np.int64(5), sync=np.int64(0))
    assert list(res.out("out", np.int32)) == [5000 + b for b in range(5)]
    assert 1 <= res.out("max_running", np.int32)[0] <= 2


def test_blocks_within_core_count_run_concurrently(prog, monkeypatch):
    monkeypatch.setenv("KGEN_SIM_VECTOR_CORES", "8")
    res = prog.run("waves", blocks=np.int64(6), sync=np.int64(0))
    assert list(res.out("out", np.int32)) == [6000 + b for b in range(6)]
    assert res.out("max_running", np.int32)[0] >= 2


@pytest.mark.parametrize("sync,marker", [(1, "@syncall-waves"), (2, "@syncall-waves-soft")])
def test_syncall_in_waves_is_reported_not_hung(prog, monkeypatch, sync, marker):
    monkeypatch.setenv("KGEN_SIM_VECTOR_CORES", "2")
    res = prog.run("waves", blocks=np.int64(5), sync=np.int64(sync), timeout=30, expect_ok=False)
    assert not res.run.timed_out
    assert res.run.returncode == 3
    err = res.errors[0]
    assert err.code == "syncall-waves"
    assert "5 blocks on 2 cores" in err.message
    assert err.file.endswith("multicore.cpp") and err.line == marker_line(marker)
