"""Batch layouts of the Matmul API (IterateBatch / IterateNBatch with BSNGD, SBNGD, BNGS1S2, NORMAL) and
constant tiling (MatmulApiStaticTiling / GetMatmulApiTiling), on tests/bench_bridge/sim/cpp/matmul_layouts.cpp.

References are numpy einsums over the documented layouts: BSNGD = [B, S, N, G, D], SBNGD = [S, B, N, G, D],
BNGS1S2 = [B, N, G, S1, S2]; one batch is an S x D matrix (S the M or N axis, D the K axis). Per-call
offsets are computed here from those shapes, not by the emulator. Inputs are small integers so fp32
accumulation is exact and results compare exactly.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

ROOT = Path(__file__).resolve().parents[3]
prog = SimProgram.fixture("matmul_layouts.cpp")
BSNGD_BSNGD, BSNGD_BNGS1S2, SBNGD_SBNGD, BNGS1S2_BNGS1S2, NORMAL_NORMAL, MIXED = range(6)


def line_of(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "matmul_layouts.cpp").read_text().splitlines(), 1):
        if f"MARK:{marker}" in line:
            return i
    raise AssertionError(marker)


def ints(rng, *shape):
    return rng.integers(-3, 4, size=shape).astype(np.float16)


def run_batch(prog, combo, a, b, axes, calls, *, M, N, K, trans_b, batch_num, bias=None, c0, expect_ok=True):
    flat = [len(calls), calls[0][0], calls[0][1], int(bias is not None)]
    for _, _, oa, ob, oc, obias in calls:
        flat += [oa, ob, oc, obias]
    return prog.run("batch", expect_ok=expect_ok, a=a.ravel(), b=b.ravel(), c0=c0.astype(np.float32).ravel(),
                    bias=(np.zeros(1, np.float32) if bias is None else bias.astype(np.float32).ravel()),
                    axes=np.array(axes, np.int64), calls=np.array(flat, np.int64), M=M, N=N, K=K, transB=int(trans_b),
                    batchNum=batch_num, combo=combo)


def f32(x):
    return x.astype(np.float32)


# ---- BSNGD ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("with_bias", [0, 1])
def test_bsngd_in_bsngd_out_one_call_per_b(prog, with_bias):
    # the documented example's shape family: per b one IterateBatch over the N * G = 3 batches of that b
    Bb, M, N, G, K, N2 = 2, 20, 1, 3, 24, 33          # N2: the N of the matmul (S of B), G heads
    rng = np.random.default_rng(1)
    a = ints(rng, Bb, M, N, G, K)                      # [B, S, N, G, D]
    bt = ints(rng, Bb, N2, N, G, K)                    # B transposed: [B, S2, N, G, D]
    bias = rng.integers(-5, 6, size=(Bb, N, G, N2)).astype(np.float32)
    calls = [(3, 3, b * M * N * G * K, b * N2 * N * G * K, b * M * N * G * N2, b * N * G * N2) for b in range(Bb)]
    res = run_batch(prog, BSNGD_BSNGD, a, bt, [Bb, M, N, G, K, Bb, N2, N, G, K, Bb, M, N, G, N2], calls, M=M, N=N2, K=K,
                    trans_b=1, batch_num=3, bias=bias if with_bias else None, c0=np.zeros((Bb, M, N, G, N2)))
    want = np.einsum("bsngd,btngd->bsngt", f32(a), f32(bt)) + (bias[:, None] if with_bias else 0)
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(Bb, M, N, G, N2), want)
    t = res.out("tiling", np.int32)
    assert list(t[33:49]) == [Bb, M, N, G, K, Bb, N2, N, G, K, Bb, M, N, G, N2, 3]  # layout axes and BatchNum in the tiling


def test_bsngd_in_bngs1s2_out(prog):
    Bb, M, N, G, K, N2 = 2, 17, 2, 2, 40, 21
    rng = np.random.default_rng(2)
    a, bt = ints(rng, Bb, M, N, G, K), ints(rng, Bb, N2, N, G, K)
    calls = [(4, 4, b * M * N * G * K, b * N2 * N * G * K, b * N * G * M * N2, 0) for b in range(Bb)]
    res = run_batch(prog, BSNGD_BNGS1S2, a, bt, [Bb, M, N, G, K, Bb, N2, N, G, K, Bb, M, N, G, N2], calls, M=M, N=N2, K=K,
                    trans_b=1, batch_num=4, c0=np.zeros((Bb, N, G, M, N2)))
    want = np.einsum("bsngd,btngd->bngst", f32(a), f32(bt))  # C: [B, N, G, S1, S2], each S1 x S2 contiguous
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(Bb, N, G, M, N2), want)


def test_bsngd_broadcasts_b_over_g(prog):
    # A has G = 4 heads, B one: ALayoutInfoG / batchA = BLayoutInfoG / batchB = 1, every head uses B's one matrix
    M, G, K, N2 = 18, 4, 32, 25
    rng = np.random.default_rng(3)
    a, bt = ints(rng, 1, M, 1, G, K), ints(rng, 1, N2, 1, 1, K)
    res = run_batch(prog, BSNGD_BSNGD, a, bt, [1, M, 1, G, K, 1, N2, 1, 1, K, 1, M, 1, G, N2], [(4, 1, 0, 0, 0, 0)], M=M, N=N2,
                    K=K, trans_b=1, batch_num=4, c0=np.zeros((1, M, 1, G, N2)))
    want = np.einsum("bsngd,btnd->bsngt", f32(a), f32(bt[:, :, :, 0]))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(1, M, 1, G, N2), want)


def test_reduce_over_g_accumulates_into_c(prog):
    # C's G axis is 1 while A's and B's are 2: the two heads' products are summed into one C (atomic add,
    # so what C held before is kept and added to)
    M, G, K, N2 = 16, 2, 24, 20
    rng = np.random.default_rng(4)
    a, bt = ints(rng, 1, M, 1, G, K), ints(rng, 1, N2, 1, G, K)
    c0 = rng.integers(-9, 10, size=(1, 1, 1, M, N2)).astype(np.float32)
    res = run_batch(prog, BSNGD_BNGS1S2, a, bt, [1, M, 1, G, K, 1, N2, 1, G, K, 1, M, 1, 1, N2], [(2, 2, 0, 0, 0, 0)], M=M, N=N2,
                    K=K, trans_b=1, batch_num=2, c0=c0)
    want = c0[0, 0, 0] + np.einsum("sgd,tgd->st", f32(a[0, :, 0]), f32(bt[0, :, 0]))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(M, N2), want)


# ---- SBNGD, BNGS1S2, NORMAL ----------------------------------------------------------------------------------------

def test_sbngd_in_sbngd_out(prog):
    # one call over all B * N * G = 6 batches: rows are B * N * G * D apart, batches D apart
    Bb, M, N, G, K, N2 = 2, 19, 1, 3, 16, 30
    rng = np.random.default_rng(5)
    a, bt = ints(rng, M, Bb, N, G, K), ints(rng, N2, Bb, N, G, K)
    res = run_batch(prog, SBNGD_SBNGD, a, bt, [Bb, M, N, G, K, Bb, N2, N, G, K, Bb, M, N, G, N2], [(6, 6, 0, 0, 0, 0)], M=M, N=N2,
                    K=K, trans_b=1, batch_num=6, c0=np.zeros((M, Bb, N, G, N2)))
    want = np.einsum("sbngd,tbngd->sbngt", f32(a), f32(bt))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(M, Bb, N, G, N2), want)


def test_bngs1s2_contiguous_batches(prog):
    Bb, N, G, M, K, N2 = 1, 2, 3, 21, 35, 18
    rng = np.random.default_rng(6)
    a, b = ints(rng, Bb, N, G, M, K), ints(rng, Bb, N, G, K, N2)
    res = run_batch(prog, BNGS1S2_BNGS1S2, a, b, [Bb, M, N, G, K, Bb, K, N, G, N2, Bb, M, N, G, N2], [(6, 6, 0, 0, 0, 0)], M=M,
                    N=N2, K=K, trans_b=0, batch_num=6, c0=np.zeros((Bb, N, G, M, N2)))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(Bb, N, G, M, N2), f32(a) @ f32(b))


def test_normal_layout_two_calls_with_per_batch_bias(prog):
    batch, M, K, N2 = 4, 23, 29, 37
    rng = np.random.default_rng(7)
    a, b = ints(rng, batch, M, K), ints(rng, batch, K, N2)
    bias = rng.integers(-5, 6, size=(batch, N2)).astype(np.float32)
    calls = [(2, 2, i * 2 * M * K, i * 2 * K * N2, i * 2 * M * N2, i * 2 * N2) for i in range(2)]
    res = run_batch(prog, NORMAL_NORMAL, a, b, [2, M, 1, 1, K, 2, N2, 1, 1, K, 2, M, 1, 1, N2], calls, M=M, N=N2, K=K, trans_b=0,
                    batch_num=2, bias=bias, c0=np.zeros((batch, M, N2)))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(batch, M, N2), f32(a) @ f32(b) + bias[:, None])


# ---- IterateNBatch -------------------------------------------------------------------------------------------------

NB = dict(Bb=2, M=20, N=2, G=2, K=24, N2=27)


def nbatch_inputs(seed=8):
    p = NB
    rng = np.random.default_rng(seed)
    a = ints(rng, p["Bb"], p["M"], p["N"], p["G"], p["K"])
    bt = ints(rng, p["Bb"], p["N2"], p["N"], p["G"], p["K"])
    axes = [p["Bb"], p["M"], p["N"], p["G"], p["K"], p["Bb"], p["N2"], p["N"], p["G"], p["K"], p["Bb"], p["M"], p["N"], p["G"], p["N2"]]
    return a, bt, axes


def run_nbatch(prog, expect_ok=True, **kw):
    a, bt, axes = nbatch_inputs()
    p = NB
    c0 = np.zeros((p["Bb"], p["M"], p["N"], p["G"], p["N2"]), np.float32)
    return a, bt, prog.run("nbatch", expect_ok=expect_ok, a=a.ravel(), b=bt.ravel(), c0=c0.ravel(), axes=np.array(axes, np.int64),
                           M=p["M"], N=p["N2"], K=p["K"], transB=1, batchNum=2, loops=4, batch=2, **kw)


@pytest.mark.parametrize("is_async", [0, 1])
def test_iterate_nbatch_covers_every_batch(prog, is_async):
    # 2 batches per call, N * G = 4 per S row: call l covers (b, ng) = divmod(2 l, 4) and (b, ng + 1)
    a, bt, res = run_nbatch(prog, **{"async": is_async})
    p = NB
    want = np.einsum("bsngd,btngd->bsngt", f32(a), f32(bt))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(p["Bb"], p["M"], p["N"], p["G"], p["N2"]), want)
    pieces = res.out("pieces", np.int64)
    if is_async:  # GetBatchTensorC hands out each call's C: b * S1 * N * G * S2 + ng * S2
        ng = p["N"] * p["G"]
        assert list(pieces[:4]) == [(2 * l // ng) * p["M"] * ng * p["N2"] + (2 * l % ng) * p["N2"] for l in range(4)]
        assert (pieces[4:] == -1).all()


# ---- misuse ---------------------------------------------------------------------------------------------------------

def test_bsngd_call_across_s_rows_is_reported(prog):
    # N * G = 3 is not a multiple of batchA = 2: one call would need two SD rows
    M, G, K, N2 = 16, 3, 16, 16
    rng = np.random.default_rng(9)
    a, bt = ints(rng, 1, M, 1, G, K), ints(rng, 1, N2, 1, G, K)
    res = run_batch(prog, BSNGD_BSNGD, a, bt, [1, M, 1, G, K, 1, N2, 1, G, K, 1, M, 1, G, N2], [(2, 2, 0, 0, 0, 0)], M=M, N=N2, K=K,
                    trans_b=1, batch_num=2, c0=np.zeros(M * G * N2), expect_ok=False)
    assert [(e.code, e.line) for e in res.errors] == [("matmul-batch", line_of("iteratebatch"))]
    assert "one SD row per call" in res.errors[0].message


@pytest.mark.parametrize("combo,axes,why", [
    (MIXED, [1, 16, 1, 2, 16] * 3, "A is BSNGD but B is NORMAL"),
    (SBNGD_SBNGD, [0] * 15, "needs SetALayout, SetBLayout and SetCLayout"),
    (BSNGD_BSNGD, [1, 16, 1, 2, 16, 1, 16, 1, 4, 16, 1, 16, 1, 2, 16], "ALayoutInfoG / batchA must equal BLayoutInfoG / batchB"),
])
def test_layout_rules_are_reported(prog, combo, axes, why):
    z = np.zeros(4096, np.float16)
    res = run_batch(prog, combo, z, z, axes, [(2, 2, 0, 0, 0, 0)], M=16, N=16, K=16, trans_b=1, batch_num=2, c0=np.zeros(4096),
                    expect_ok=False)
    assert [(e.code, e.line) for e in res.errors] == [("matmul-batch", line_of("iteratebatch"))]
    assert why in res.errors[0].message


@pytest.mark.parametrize("kw,code", [(dict(plainCfg=1), "matmul-unsupported"), (dict(setWs=0), "matmul-no-workspace")])
def test_iterate_nbatch_needs_its_config_and_workspace(prog, kw, code):
    _, _, res = run_nbatch(prog, expect_ok=False, **kw)
    assert [(e.code, e.line) for e in res.errors] == [(code, line_of("nbatch"))]


# ---- constant tiling ----------------------------------------------------------------------------------------------

def test_full_constant_tiling_needs_no_tiling(prog):
    M, N, K = 50, 70, 40
    rng = np.random.default_rng(10)
    a, b = ints(rng, M, K), ints(rng, K, N)
    res = prog.run("static_tiling", a=a, b=b, M=M, N=N, K=K, full=1)
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(M, N), f32(a) @ f32(b))
    assert res.out("count", np.int32)[0] == 2 * 2  # the constant 32 x 48 base: ceil(50/32) x ceil(70/48) blocks


def test_partial_constant_tiling_overrides_the_runtime_base(prog):
    M, N, K = 50, 70, 40
    rng = np.random.default_rng(11)
    a, b = ints(rng, M, K), ints(rng, K, N)
    res = prog.run("static_tiling", a=a, b=b, M=M, N=N, K=K, full=0)
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(M, N), f32(a) @ f32(b))
    assert tuple(res.out("runtime", np.int32)) != (16, 32, 32)
    assert res.out("count", np.int32)[0] == 4 * 3  # constant 16 x 32 base: ceil(50/16) x ceil(70/32)


def test_partial_constant_tiling_without_a_tiling_is_reported(prog):
    rng = np.random.default_rng(12)
    res = prog.run("static_tiling", expect_ok=False, a=ints(rng, 16, 16), b=ints(rng, 16, 16), M=16, N=16, K=16, full=0, noTiling=1)
    assert [(e.code, e.line) for e in res.errors] == [("matmul-uninit", line_of("orgshape"))]


def test_get_matmul_api_tiling_values_by_hand(prog):
    v = prog.run("static_values").out("values", np.int32).reshape(2, 50)
    full, part = v
    # full: shape 1000^3, base 32 x 48 x 64 (half A/B, float bias): A block 4096 B, B block 6144 B;
    # L1 steps: (512 KB - 192 B bias) // (2 * 10240) = 25, capped at ceil(1000 / 64) = 16 K steps, depth 32
    assert list(full[:11]) == [-1, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 32, 48, 64]
    assert (full[11], full[12], full[13], full[14], full[15], full[17]) == (32, 32, 1, 1, 1, 0)
    assert (full[19], full[20], full[26], full[27], full[30], full[31], full[32]) == (32 * 10240 + 192, 32 * 48 * 4, 16, 16, 2, 2, 1)
    assert (full[33:50] == -1).all()  # no layout constants
    # partial: only the base block (and isBias, L0 double buffering) is constant
    assert list(part[8:11]) == [16, 32, 32] and part[15] == 1 and (part[30], part[31]) == (2, 2)
    assert (part[:8] == -1).all() and (part[11:15] == -1).all() and part[32] == -1


def test_setshape_minus_one_takes_the_original_shape(prog):
    # the official constant-tiling example tiles with SetOrgShape(M, N, K) + SetShape(-1, -1, K)
    v = prog.run("tiling_org", M=300, N=500, K=64, cores=8).out("tiling", np.int32).reshape(2, 51)
    assert v[0, 0] == 0 and v[1, 0] == 0
    np.testing.assert_array_equal(v[1], v[0])
    assert v[1, 1] == 8 and (v[1, 2], v[1, 3]) == (300, 500)  # usedCoreNum, M, N


# ---- CANN's official batch / constant-tiling Matmul examples, unmodified (only with a local asc-devkit) -----------

DEVKIT = os.environ.get("KGEN_ASC_DEVKIT", "")
OFFICIAL = ["01_simd_cpp_api/04_advanced_api/00_matmul/batch_matmul",
            "01_simd_cpp_api/04_advanced_api/00_matmul/batch_matmul_iterate_n_batch",
            "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_constant_tiling",
            "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_quant"]


@pytest.mark.slow
@pytest.mark.skipif(not DEVKIT or not Path(DEVKIT).is_dir(), reason="set KGEN_ASC_DEVKIT to a local asc-devkit checkout")
@pytest.mark.parametrize("example", OFFICIAL, ids=[e.split("/")[-1] for e in OFFICIAL])
def test_official_example_verifies(example):
    mod = sys.modules.get("kgen_official_examples")
    if mod is None:
        spec = importlib.util.spec_from_file_location("kgen_official_examples", ROOT / "benchmarks" / "official_examples.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["kgen_official_examples"] = mod
        spec.loader.exec_module(mod)
    path = Path(DEVKIT).resolve()
    base = path / "examples" if (path / "examples").is_dir() else path
    row = mod.run_example(base / example, base, None, timeout=900)
    assert row.verified, row.reason
