"""The Matmul high-level API and its host tiling on the emulator (tests/bench_bridge/sim/cpp/matmul_api.cpp).

Every result is checked against numpy (float64 products of the same inputs, then one rounding to C's
type); inputs are small integers where the check is exact (their fp32 sums are exact), random normals
elsewhere. Tiling values are computed by hand from the rule in kgen_sim/matmul/tiling_algo.h.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

ROOT = Path(__file__).resolve().parents[3]
prog = SimProgram.fixture("matmul_api.cpp")

FIELDS = ("usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN isBias "
          "transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN singleBatchM singleBatchN "
          "stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C").split()


def line_of(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "matmul_api.cpp").read_text().splitlines(), 1):
        if f"MARK:{marker}" in line:
            return i
    raise AssertionError(marker)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    return torch.from_numpy(np.ascontiguousarray(x, np.float32)).to(torch.bfloat16).view(torch.int16).numpy()


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    return torch.from_numpy(b.astype(np.int16)).view(torch.bfloat16).float().numpy()


# (case, input numpy type, output kind, bias numpy type)
CASES = {
    "mm_f16_f32": (np.float16, "f32", np.float32),
    "mm_f16_f16": (np.float16, "f16", np.float16),
    "mm_bf16_bf16": ("bf16", "bf16", np.float32),
    "mm_f32_f32": (np.float32, "f32", np.float32),
    "mm_i8_i32": (np.int8, "i32", np.int32),
}


def run_mm(prog, case, M, N, K, *, transA=0, transB=0, bias=0, mode=0, cores=1, base=(-1, -1, -1), ints=True, seed=0,
           atomic=0, first_n=0, c0=None, ab=None):
    in_t, out_t, bias_t = CASES[case]
    rng = np.random.default_rng(seed)
    draw = (lambda *s: rng.integers(-3, 4, size=s).astype(np.float64)) if ints else (lambda *s: rng.standard_normal(s))
    a, b, bv = draw(M, K), draw(K, N), draw(N)
    if ab is not None:
        a, b = ab
    # what the cube sees: the inputs rounded to their type
    if in_t == "bf16":
        conv = lambda x: from_bf16_bits(bf16_bits(x)).astype(np.float64)  # noqa: E731
        store = bf16_bits
    else:
        conv = lambda x: x.astype(in_t).astype(np.float64)  # noqa: E731
        store = lambda x: x.astype(in_t)  # noqa: E731
    a, b, bv = conv(a), conv(b), bv.astype(bias_t).astype(np.float64)
    ref = a @ b + (bv if bias else 0)
    a_st = store(a.T.copy() if transA else a)
    b_st = store(b.T.copy() if transB else b)
    out_np = {"f32": np.float32, "f16": np.float16, "bf16": np.int16, "i32": np.int32}[out_t]
    c_init = np.zeros((M, N)) if c0 is None else c0
    c_st = bf16_bits(c_init) if out_t == "bf16" else c_init.astype(out_np)
    res = prog.run(case, a=a_st.ravel(), b=b_st.ravel(), bias=bv.astype(bias_t), c0=c_st.ravel(), M=M, N=N, K=K, transA=transA,
                   transB=transB, withBias=bias, mode=mode, cores=cores, baseM=base[0], baseN=base[1], baseK=base[2],
                   atomic=atomic, firstN=first_n)
    raw = res.out("c", out_np).reshape(M, N)
    got = from_bf16_bits(raw) if out_t == "bf16" else raw.astype(np.float64)
    if atomic:
        ref = ref + c_init
    if out_t == "bf16":
        want = from_bf16_bits(bf16_bits(ref))
    else:
        want = ref.astype(out_np).astype(np.float64)
    tiling = dict(zip(FIELDS, res.out("tiling", np.int32)))
    return got, want, ref, tiling, res


# ---- numerics per type, aligned and non-aligned shapes ---------------------------------------------------

@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("M,N,K", [(64, 64, 64), (37, 29, 53)])
def test_types_exact_with_integer_inputs(prog, case, M, N, K):
    got, want, _, t, _ = run_mm(prog, case, M, N, K, bias=1, cores=2)
    # integer inputs: fp32 (int32) accumulation is exact, so C is the exact product rounded once
    np.testing.assert_array_equal(got, want)
    assert t["usedCoreNum"] == 2


@pytest.mark.parametrize("case,rtol", [("mm_f16_f32", 1e-5), ("mm_f32_f32", 1e-5), ("mm_f16_f16", 2e-3), ("mm_bf16_bf16", 1.6e-2)])
def test_types_random_inputs(prog, case, rtol):
    M, N, K = 48, 80, 300
    got, want, ref, _, _ = run_mm(prog, case, M, N, K, ints=False, seed=3)
    # fp32 accumulation of K=300 products: within a few fp32 ulps of the float64 sum
    scale = np.abs(ref).max()
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale)


def pack_int4(x: np.ndarray) -> np.ndarray:
    """int values -8..7, row-major -> bytes, element 2i in the low nibble of byte i (the documented S4 packing)."""
    flat = (x.ravel().astype(np.int64) & 0xF).astype(np.uint8)
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


@pytest.mark.parametrize("M,N,K,cores,bias", [(64, 128, 128, 1, 1), (96, 160, 192, 4, 1), (48, 64, 64, 2, 0)])
def test_int4_inputs_multiply_exactly_into_int32(prog, M, N, K, cores, bias):
    # int4b_t x int4b_t -> int32 (Matmul type table): GM tensors of packed 4-bit values, each core's slice taken
    # with GlobalTensor<int4b_t>::operator[] (element offsets)
    rng = np.random.default_rng(11)
    a, b = rng.integers(-8, 8, (M, K)), rng.integers(-8, 8, (K, N))
    bv = rng.integers(-100, 100, N).astype(np.int32)
    res = prog.run("mm_i4_i32", a=pack_int4(a), b=pack_int4(b), bias=bv, c0=np.zeros(M * N, np.int32), M=M, N=N, K=K,
                   transA=0, transB=0, withBias=bias, cores=cores)
    got = res.out("c", np.int32).reshape(M, N)
    np.testing.assert_array_equal(got, a @ b + (bv if bias else 0))


def sparse_case(rng, N, K):
    """A 4:2 sparse B^T [N, K] built from (position, index, values) per group of four, its densified form
    [N, K / 2] and the index matrix: per group the first position (0..2) and the second minus one (0..2), 2 bits
    each, four indices per byte from the low bits, in NZ fractals of 16 rows x 8 bytes."""
    # (first position, second index): the six distinct pairs, and the two table rows whose second index (0) does not
    # point past the first position, which select the first position's element for both values ("X/X")
    pairs = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2), (1, 0), (2, 0)]
    full = np.zeros((N, K), np.int64)
    dense = np.zeros((N, K // 2), np.int8)
    idx2 = np.zeros((N, K // 2), np.int64)  # the 2-bit indices, two per group
    for n in range(N):
        for g in range(K // 4):
            p1, i2 = pairs[rng.integers(len(pairs))]
            p2 = max(i2 + 1, p1)
            v = rng.integers(-9, 10, 2)
            full[n, 4 * g + p1] += v[0]
            full[n, 4 * g + p2] += v[1]
            dense[n, 2 * g: 2 * g + 2] = v
            idx2[n, 2 * g], idx2[n, 2 * g + 1] = p1, i2
    nd = np.zeros((N, K // 8), np.uint8)
    for j in range(K // 8):
        for e in range(4):
            nd[:, j] |= (idx2[:, 4 * j + e] << (2 * e)).astype(np.uint8)
    n16, k8 = -(-N // 16) * 16, -(-(K // 8) // 8) * 8
    pad = np.zeros((n16, k8), np.uint8)
    pad[:N, : K // 8] = nd
    nz = pad.reshape(n16, k8 // 8, 8).transpose(1, 0, 2).ravel()
    return full, dense, nz


@pytest.mark.parametrize("M,N,K", [(32, 48, 64), (20, 40, 128)])
def test_sparse_b_is_expanded_by_its_index_matrix(prog, M, N, K):
    # SparseMatmulType B with SetSparseIndex: C = A x B where B (given as B^T [N, K]) keeps two values of every four
    # along K, passed densified with their positions (the documented 4:2 index encoding)
    rng = np.random.default_rng(5)
    a = rng.integers(-9, 10, (M, K)).astype(np.int8)
    full, dense, nz = sparse_case(rng, N, K)
    res = prog.run("mm_sparse", a=a.ravel(), b=dense.ravel(), idx=nz, M=M, N=N, K=K)
    got = res.out("c", np.int32).reshape(M, N)
    np.testing.assert_array_equal(got, a.astype(np.int64) @ full.T)


def test_half_output_is_one_rounding_of_the_fp32_sum(prog):
    # 2049 is not a half: the fp32 accumulator holds it exactly, the output rounds it once (to even: 2048)
    M, N, K = 16, 16, 683  # every element: 683 products 3 * 1 = 2049
    got, want, ref, _, _ = run_mm(prog, "mm_f16_f16", M, N, K, ab=(np.full((M, K), 3.0), np.ones((K, N))))
    assert (ref == 2049).all()
    assert (got == 2048).all() and (want == 2048).all()  # a tie between 2048 and 2050: to even
    # accumulating in half instead would stall: 2046 + 3 = 2049 -> 2048, then 2048 + 3 = 2051 -> 2052, ...


# ---- transposes, bias, non-aligned shapes, multi-core ----------------------------------------------------

@pytest.mark.parametrize("transA,transB", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_transposed_inputs(prog, transA, transB):
    got, want, _, _, _ = run_mm(prog, "mm_f16_f32", 45, 70, 39, transA=transA, transB=transB, bias=1, cores=4, base=(16, 32, -1))
    np.testing.assert_array_equal(got, want)


def test_without_bias_the_bias_tensor_is_ignored(prog):
    got, want, _, t, _ = run_mm(prog, "mm_f16_f32", 40, 24, 20, bias=0)
    assert t["isBias"] == 0
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("cores", [1, 3, 8, 24])
def test_multicore_split_covers_c(prog, cores):
    M, N, K = 131, 97, 45
    got, want, _, t, _ = run_mm(prog, "mm_f16_f32", M, N, K, bias=1, cores=cores)
    np.testing.assert_array_equal(got, want)
    mdim = -(-M // t["singleCoreM"])
    ndim = -(-N // t["singleCoreN"])
    assert t["usedCoreNum"] == mdim * ndim <= cores


# ---- ways of getting C ---------------------------------------------------------------------------------

@pytest.mark.parametrize("first_n", [0, 1])
@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_iterate_getc_iterateall_async_agree(prog, mode, first_n):
    # base 32 x 16: several blocks per core with tails in both M and N
    got, want, _, t, _ = run_mm(prog, "mm_f16_f32", 75, 41, 70, bias=1, mode=mode, cores=2, base=(32, 16, -1), first_n=first_n)
    assert (t["baseM"], t["baseN"], t["iterateOrder"]) == (32, 16, first_n)
    np.testing.assert_array_equal(got, want)


def test_iterateall_atomic_add_accumulates_into_c(prog):
    c0 = np.arange(30 * 20, dtype=np.float64).reshape(30, 20) % 7
    got, want, _, _, _ = run_mm(prog, "mm_f16_f32", 30, 20, 16, atomic=1, cores=3, c0=c0)
    np.testing.assert_array_equal(got, want)


# ---- tiling values ----------------------------------------------------------------------------------------

def tiling(prog, **kw):
    res = prog.run("tiling", **{k: np.int64(v) for k, v in kw.items()})
    raw = res.out("tiling", np.int32)
    host = res.out("host", np.int32)
    t = dict(zip(FIELDS, raw[:50]))
    return t, int(raw[50]), int(raw[51]), raw[:50], host, res


def test_tiling_512_cube_by_hand(prog):
    t, rc, size, raw, host, _ = tiling(prog, M=512, N=512, K=512, cores=1, atype=0, ctype=1)
    assert rc == 0 and size == 200
    # base: min(512, 128) x min(512, 256); baseK: the largest multiple of 16 with 256 * baseK * 2 <= 32 KB -> 64
    # L1: 2 * step * (16 KB + 32 KB) <= 512 KB -> step 5 (of 8 K steps), depth 10
    assert {k: t[k] for k in ("usedCoreNum", "M", "N", "Ka", "Kb", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN",
                              "baseK", "depthA1", "depthB1", "stepM", "stepN", "stepKa", "stepKb", "dbL0A", "dbL0B", "dbL0C",
                              "shareL1Size", "shareL0CSize", "iterateOrder", "isBias")} == {
        "usedCoreNum": 1, "M": 512, "N": 512, "Ka": 512, "Kb": 512, "singleCoreM": 512, "singleCoreN": 512, "singleCoreK": 512,
        "baseM": 128, "baseN": 256, "baseK": 64, "depthA1": 10, "depthB1": 10, "stepM": 1, "stepN": 1, "stepKa": 5, "stepKb": 5,
        "dbL0A": 2, "dbL0B": 2, "dbL0C": 1, "shareL1Size": 10 * 16384 + 10 * 32768, "shareL0CSize": 131072, "iterateOrder": 0,
        "isBias": 0}
    np.testing.assert_array_equal(host, raw)  # optiling::TCubeTiling's SaveToBuffer bytes are the struct


def test_single_shape_needing_more_cores_than_setdim_is_kept_with_a_warning(prog):
    # CANN's GetTiling keeps a single-core shape that splits the problem into more blocks than SetDim's cores (the
    # official L2-cache best practice sets 1024 x 1536 of 8192 x 8192 on 24 cores and covers M in two passes)
    t, rc, _, _, _, res = tiling(prog, M=512, N=512, K=64, cores=2, atype=0, ctype=1, singleM=128, singleN=256, singleK=64)
    assert rc == 0
    assert (t["singleCoreM"], t["singleCoreN"], t["usedCoreNum"]) == (128, 256, 2)
    assert "matmul-tiling" in [d.code for d in res.warnings]


def test_tiling_unaligned_by_hand(prog):
    t, rc, *_ = tiling(prog, M=100, N=70, K=33, cores=1, atype=0, ctype=1)
    assert rc == 0
    # base 112 x 80 (aligned up to 16); baseK = align16(33) = 48; one K step, double-buffered
    assert (t["baseM"], t["baseN"], t["baseK"], t["stepKa"], t["depthA1"], t["depthB1"]) == (112, 80, 48, 1, 2, 2)
    assert (t["dbL0A"], t["dbL0B"], t["dbL0C"]) == (2, 2, 2)
    assert t["shareL1Size"] == 2 * 112 * 48 * 2 + 2 * 80 * 48 * 2 and t["shareL0CSize"] == 2 * 112 * 80 * 4


@pytest.mark.parametrize("M,N,K,cores,want", [
    (512, 512, 128, 2, (256, 512, 2)),      # equal balance and traffic: M is split first
    (1000, 30, 64, 8, (125, 30, 8)),        # 8 x 1 beats 4 x 2 on traffic
    (48, 64, 32, 6, (16, 32, 6)),           # 3 x 2: least area (512), then least traffic
    (20, 20, 16, 48, (10, 10, 4)),          # a core takes at least a 16-wide fractal: 2 x 2 cores
    (5, 3, 16, 48, (5, 3, 1)),              # smaller than one fractal: one core
])
def test_tiling_core_split_by_hand(prog, M, N, K, cores, want):
    t, rc, *_ = tiling(prog, M=M, N=N, K=K, cores=cores, atype=0, ctype=1)
    assert rc == 0
    assert (t["singleCoreM"], t["singleCoreN"], t["usedCoreNum"]) == want
    assert t["singleCoreK"] == K


def test_tiling_int8_and_traverse(prog):
    t, rc, *_ = tiling(prog, M=64, N=64, K=64, atype=3, ctype=4, firstN=1)
    assert rc == 0
    assert (t["baseM"], t["baseN"], t["baseK"], t["iterateOrder"]) == (64, 64, 64, 1)  # C0 = 32 int8


@pytest.mark.parametrize("kw,why", [
    (dict(M=64, N=64, K=64, baseM=24), "baseM must be a multiple of 16"),
    (dict(M=64, N=64, K=0), "must be set"),
    (dict(M=64, N=64, K=64, l1=1024), "does not fit L1"),
    (dict(M=64, N=64, K=64, baseM=256, baseN=256), "exceed L0C"),
    (dict(M=64, N=64, K=64, atype=0, ctype=3), "C of type int8"),
])
def test_gettiling_failure_returns_minus_one(prog, kw, why):
    kw = {"atype": 0, "ctype": 1, **kw}
    t, rc, _, raw, _, res = tiling(prog, **kw)
    assert rc == -1
    assert not raw.any()  # all zero: a kernel that uses it is told (matmul-bad-tiling)
    w = [d for d in res.warnings if d.code == "matmul-tiling"]
    assert w and why in w[0].message and w[0].file.endswith("matmul_api.cpp")


# ---- MIX launches -----------------------------------------------------------------------------------------

def test_mix_launch_runs_two_vector_cores_per_cube_core(prog):
    res = prog.run("coretypes", blocks=np.int64(3))
    out = res.out("out", np.int32).reshape(-1, 4)
    # AIV cores: GetBlockIdx = block * 2 + sub-block, g_coreType AIV (2), GetBlockNum 3, GetTaskRation 2
    np.testing.assert_array_equal(out[:6], [[2, i % 2, 3, 2] for i in range(6)])
    assert (out[6:64] == -1).all()
    # AIC cores: GetBlockIdx = block, g_coreType AIC (1), ration 1
    np.testing.assert_array_equal(out[64:67], [[1, 0, 3, 1] for _ in range(3)])
    assert (out[67:] == -1).all()


# ---- misuse -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("what,code,marker", [
    (0, "matmul-no-tensor", "no_tensor"),
    (1, "matmul-shape-exceeds-tiling", "tail"),
    (2, "matmul-bias-disabled", "bias"),
    (3, "matmul-no-result", "getc"),
])
def test_misuse_is_reported_at_the_user_line(prog, what, code, marker):
    res = prog.run("misuse", what=np.int64(what), expect_ok=False)
    assert res.run.returncode == 3
    assert [(e.code, e.line) for e in res.errors] == [(code, line_of(marker))]


def test_kernel_using_a_failed_tiling_is_reported(prog):
    res = prog.run("misuse", bad=np.int64(1), expect_ok=False)
    assert "GetTiling returned -1" in res.run.stderr
    assert [w.line for w in res.warnings if w.code == "matmul-tiling"] == [line_of("gettiling")]
    assert [e.code for e in res.errors] == ["matmul-bad-tiling"]


def test_the_good_misuse_program_computes(prog):
    res = prog.run("misuse")
    np.testing.assert_array_equal(res.out("c", np.float32), np.full(32 * 32, 32.0, np.float32))


def test_unsupported_type_combination(prog):
    res = prog.run("misuse_dtype", expect_ok=False)
    assert [(e.code, e.line) for e in res.errors] == [("matmul-dtype", line_of("dtype"))]
    assert "B is float" in res.errors[0].message


# ---- NZ inputs, several objects, Unified Buffer operands ------------------------------------------------

def to_nz(x: np.ndarray, c0: int = 16) -> np.ndarray:
    """NZ layout of a 2-D matrix: rows padded to 16 and columns to C0, then the C0-wide fractal columns
    one after another, each row-major (numpy reshape, independent of the emulator's formula)."""
    r, c = x.shape
    rp, cp = -(-r // 16) * 16, -(-c // c0) * c0
    p = np.zeros((rp, cp), x.dtype)
    p[:r, :c] = x
    return p.reshape(rp, cp // c0, c0).transpose(1, 0, 2).copy()


@pytest.mark.parametrize("M,N,K,base", [(32, 32, 32, -1), (40, 50, 70, 16)])
def test_nz_inputs(prog, M, N, K, base):
    rng = np.random.default_rng(M + K)
    a = rng.integers(-3, 4, size=(M, K)).astype(np.float16)
    b = rng.integers(-3, 4, size=(K, N)).astype(np.float16)
    res = prog.run("mm_nz", a=to_nz(a).ravel(), b=to_nz(b).ravel(), M=M, N=N, K=K, baseM=base, baseN=base)
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(M, N), a.astype(np.float32) @ b.astype(np.float32))


def test_two_objects_in_one_registration(prog):
    rng = np.random.default_rng(9)
    a, b = rng.integers(-3, 4, size=(20, 24)).astype(np.float16), rng.integers(-3, 4, size=(24, 40)).astype(np.float16)
    a2, b2 = rng.integers(-3, 4, size=(33, 50)).astype(np.float16), rng.integers(-3, 4, size=(50, 17)).astype(np.float16)
    res = prog.run("mm_two", a=a, b=b, a2=a2, b2=b2)
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(20, 40), a.astype(np.float32) @ b.astype(np.float32))
    np.testing.assert_array_equal(res.out("c2", np.float32).reshape(33, 17), a2.astype(np.float32) @ b2.astype(np.float32))


def test_unified_buffer_operands(prog):
    rng = np.random.default_rng(4)
    a, b = rng.integers(-3, 4, size=(32, 48)).astype(np.float16), rng.integers(-3, 4, size=(48, 24)).astype(np.float16)
    res = prog.run("mm_ub", a=a, b=b)
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(32, 24), a.astype(np.float32) @ b.astype(np.float32))


# ---- a cube-only program (ASCENDC_CUBE_ONLY): numBlocks cube cores ------------------------------------------

cube_prog = SimProgram.fixture("matmul_cube_only.cpp")


def test_cube_only_program_runs_on_cube_cores(cube_prog):
    M, N, K = 70, 90, 33
    rng = np.random.default_rng(12)
    a, b = rng.integers(-3, 4, size=(M, K)).astype(np.float16), rng.integers(-3, 4, size=(K, N)).astype(np.float16)
    res = cube_prog.run("cube", a=a, b=b, M=M, N=N, K=K, cores=np.int64(6))
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(M, N), a.astype(np.float32) @ b.astype(np.float32))
    used = int(res.out("used", np.int32)[0])
    assert used == 6
    who = res.out("who", np.int32).reshape(-1, 2)
    np.testing.assert_array_equal(who[:used], [[1, used]] * used)  # g_coreType AIC, GetBlockNum = numBlocks
    assert (who[used:] == -1).all()


# ---- batch matmul ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ba,bb,shared", [(3, 3, 0), (3, 3, 1), (4, 2, 0), (1, 3, 1)])
def test_iterate_batch_normal_layout(prog, ba, bb, shared):
    M, N, K = 20, 33, 24
    rng = np.random.default_rng(ba * 10 + bb + shared)
    a = rng.integers(-3, 4, size=(ba, M, K)).astype(np.float16)
    b = rng.integers(-3, 4, size=(bb, K, N)).astype(np.float16)
    n = max(ba, bb)
    bias = rng.integers(-5, 6, size=(1 if shared else n, N)).astype(np.float32)
    res = prog.run("mm_batch", a=a, b=b, bias=bias, M=M, N=N, K=K, batchA=ba, batchB=bb, sharedBias=shared)
    # the smaller batch is broadcast: consecutive batches of the larger one share a matrix
    want = np.stack([a[i // (n // ba)].astype(np.float32) @ b[i // (n // bb)].astype(np.float32) + bias[0 if shared else i]
                     for i in range(n)])
    np.testing.assert_array_equal(res.out("c", np.float32).reshape(n, M, N), want)
    assert res.out("batchnum", np.int32)[0] == n


# ---- CANN's official Matmul examples, unmodified (only with a local asc-devkit checkout) ---------------------

DEVKIT = os.environ.get("KGEN_ASC_DEVKIT", "")
# examples (relative to examples/) that verified on the emulator when this list was written
OFFICIAL_MATMUL = [
    "01_simd_cpp_api/00_introduction/02_matrix/matmul_advanced_api",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_async_iterate_all",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_multi_core_unaligned",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_format_nd_align",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_fused",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_k_reorder_load",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_unitflag",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_mn_double_buffer",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_preload",
    "01_simd_cpp_api/04_advanced_api/00_matmul/batch_matmul_bias_reuse",
    # verified since the issue-23 Matmul work (test_matmul_policies.py covers the APIs they needed)
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_partial_output",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_co1_output",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_tscm",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_triangle",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_nbuffer33",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_fused_manual",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_channelsplit_output",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_format_gemv",
    "01_simd_cpp_api/04_advanced_api/00_matmul/matmul_async_iterate",
    "01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_unitflag",
]


@pytest.mark.slow
@pytest.mark.skipif(not DEVKIT or not Path(DEVKIT).is_dir(), reason="set KGEN_ASC_DEVKIT to a local asc-devkit checkout")
@pytest.mark.parametrize("example", OFFICIAL_MATMUL, ids=[e.split("/")[-1] for e in OFFICIAL_MATMUL])
def test_official_matmul_example_verifies(example):
    spec = importlib.util.spec_from_file_location("kgen_official_examples", ROOT / "benchmarks" / "official_examples.py")
    mod = sys.modules.get("kgen_official_examples")
    if mod is None:
        mod = importlib.util.module_from_spec(spec)
        sys.modules["kgen_official_examples"] = mod
        spec.loader.exec_module(mod)
    path = Path(DEVKIT).resolve()
    base = path / "examples" if (path / "examples").is_dir() else path
    row = mod.run_example(base / example, base, None, timeout=300)
    assert row.verified, row.reason


# ---- trace for the performance model ---------------------------------------------------------------------------

def test_matmul_traces_the_cube_pipes(prog, tmp_path):
    import json

    from bench_bridge.sim import run

    M, N, K = 40, 50, 70  # base 32 x 16 on one core: 2 x 4 blocks, with tails
    rng = np.random.default_rng(0)
    for name, arr in dict(a=rng.integers(-3, 4, size=(M, K)).astype(np.float16), b=rng.integers(-3, 4, size=(K, N)).astype(np.float16),
                          bias=np.zeros(N, np.float32), c0=np.zeros(M * N, np.float32)).items():
        arr.tofile(tmp_path / f"{name}.bin")
    for name, v in dict(M=M, N=N, K=K, cores=1, baseM=32, baseN=16, baseK=-1, mode=0).items():
        np.int64(v).tofile(tmp_path / f"{name}.bin")
    r = run(prog.build.binary, ["mm_f16_f32"], cwd=tmp_path, trace=True)
    assert r.ok, r.stderr
    events = [e for line in r.trace_file.read_text().splitlines() for e in json.loads(line)["events"]]
    by = lambda api: [e for e in events if e[0] == api]  # noqa: E731
    # 8 blocks: one Mmad each, on M; repeats = 16 x 16 x 16 fractal products: ceil(rows/16) * ceil(cols/16) * ceil(70/16)
    mmad = by("Matmul::Mmad")
    rows, cols = [32, 8], [16, 16, 16, 2]
    assert len(mmad) == 8 and all(e[1] == "M" for e in mmad)
    assert sum(e[3] for e in mmad) == sum(-(-r // 16) * -(-c // 16) * 5 for r in rows for c in cols)
    # Fixpipe writes every element of C once, as float
    fix = by("Matmul::Fixpipe")
    assert all(e[1] == "FIX" for e in fix) and sum(e[2] for e in fix) == M * N * 4
    # M moves first: each B column block is loaded once (4), A once per block (8)
    assert len(by("Matmul::CopyInB")) == 4 and len(by("Matmul::CopyInA")) == 8
    assert all(e[1] == "MTE1" for e in by("Matmul::LoadData"))
