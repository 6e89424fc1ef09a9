"""Matmul strategies the official dav-2201 Matmul examples use, against numpy: partial output (each Iterate
one baseK slice of K, the slices of a block one after another), Iterate into a CO1 tensor (the block in
the NZ layout Mmad leaves in L0C), the triangular MatmulPolicy templates (the other triangle's base
blocks are not written), and the host tiling's core split (equal core blocks preferred, a TSCM operand
kept whole)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("matmul_policies.cpp")


def operands(M, N, K, seed=0):
    rng = np.random.default_rng(seed)
    # small integers: every product and sum is exact in fp32, so C is compared exactly
    a = rng.integers(-4, 5, (M, K)).astype(np.float16)
    b = rng.integers(-4, 5, (K, N)).astype(np.float16)
    return a, b


def test_partial_output_gives_each_k_slice_of_each_block(prog):
    M, N, K, bm, bn, bk = 32, 48, 80, 16, 32, 32   # 2 x 2 blocks (N tail 16), K slices 32 + 32 + 16
    a, b = operands(M, N, K)
    mi_n, ni_n, k_n = 2, 2, 3
    res = prog.run("partial", M=M, N=N, K=K, bm=bm, bn=bn, bk=bk, a=a, b=b,
                   out0=np.full(mi_n * ni_n * k_n * bm * bn, -7, np.float32))
    got = res.out("out", np.float32).reshape(-1, bm, bn)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    want = []
    for blk in range(mi_n * ni_n):                 # iterateOrder 0: M moves first
        mi, ni = blk % mi_n, blk // mi_n
        rows, cols = slice(mi * bm, mi * bm + bm), slice(ni * bn, min(ni * bn + bn, N))
        for ki in range(k_n):
            ks = slice(ki * bk, min(ki * bk + bk, K))
            part = np.zeros((bm, bn))
            part[:, :cols.stop - cols.start] = af[rows, ks] @ bf[ks, cols]
            want.append(part)
    want = np.array(want)
    # a block written sequentially keeps row stride baseN (a tail block leaves the rest of each row alone)
    for i in range(len(want)):
        nc = min(bn, N - (i // k_n // mi_n) * bn)
        np.testing.assert_array_equal(got[i][:, :nc], want[i][:, :nc])
    # the K slices of a block add up to the full product
    full = want.reshape(mi_n * ni_n, k_n, bm, bn).sum(axis=1)
    np.testing.assert_array_equal(full[0], af[:bm] @ bf[:, :bn])


def test_iterate_into_co1_leaves_the_block_in_nz(prog):
    # the kernel also calls SetFixPipeConfig(co1Float, true) first: the unit-flag form on an L0C tensor of any type
    M, N, K, bm, bn, bk = 40, 32, 48, 32, 32, 48   # M tail: the second block has 8 rows, padded to 16
    a, b = operands(M, N, K, seed=1)
    res = prog.run("co1", M=M, N=N, K=K, bm=bm, bn=bn, bk=bk, a=a, b=b, out0=np.zeros(2 * bm * bn, np.float32))
    got = res.out("out", np.float32).reshape(2, bm * bn)
    c = a.astype(np.float64) @ b.astype(np.float64)
    for blk, (r0, rows) in enumerate([(0, 32), (32, 8)]):
        m16 = -(-rows // 16) * 16
        for r in range(rows):
            for col in range(bn):
                assert got[blk][((col // 16) * m16 + r) * 16 + col % 16] == c[r0 + r, col]


@pytest.mark.parametrize("policy", ["upper", "lower"])
def test_triangular_policy_writes_one_triangle_of_base_blocks(prog, policy):
    M, N, K, bm, bn = 48, 64, 32, 16, 16
    a, b = operands(M, N, K, seed=2)
    res = prog.run(policy, M=M, N=N, K=K, bm=bm, bn=bn, bk=32, a=a, b=b, out0=np.full(M * N, -1, np.float32))
    got = res.out("out", np.float32).reshape(M, N)
    want = a.astype(np.float64) @ b.astype(np.float64)
    bi, bj = np.meshgrid(np.arange(M) // bm, np.arange(N) // bn, indexing="ij")
    keep = bi <= bj if policy == "upper" else bi >= bj
    want = np.where(keep, want, -1)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("M,N,K,cores,tscm,want", [
    (256, 512, 192, 24, 0, (64, 128, 16)),   # equal 4 x 4 blocks (16 cores) beat 24 cores with tails
    (640, 1024, 512, 48, 0, (128, 128, 40)),  # 5 x 8 equal blocks
    (37, 29, 53, 2, 0, (19, 29, 2)),          # no equal split keeps more than half the cores: tails stay
    (64, 64, 64, 24, 1, (64, 16, 4)),         # A in TSCM stays whole: only N is split
])
def test_core_split(prog, M, N, K, cores, tscm, want):
    res = prog.run("split", M=M, N=N, K=K, cores=cores, tscm=tscm)
    assert tuple(res.out("split", np.int32)) == want


@pytest.mark.parametrize("case,c0", [("nz", 16), ("nz_split", 8)])
def test_c_in_nz_and_channel_split(prog, case, c0):
    M, N, K = 40, 48, 32                         # M padded to 48 rows in NZ
    a, b = operands(M, N, K, seed=3)
    rows = 48
    res = prog.run(case, M=M, N=N, K=K, bm=16, bn=16, bk=32, a=a, b=b, out0=np.full(rows * N, -1, np.float32))
    got = res.out("out", np.float32)
    c = a.astype(np.float64) @ b.astype(np.float64)
    want = np.full(rows * N, -1.0)
    for r in range(M):
        for col in range(N):
            want[((col // c0) * rows + r) * c0 + col % c0] = c[r, col]
    np.testing.assert_array_equal(got, want)


def test_gemv_vector_a(prog):
    M, N, K = 1, 32, 256
    a, b = operands(M, N, K, seed=4)
    res = prog.run("gemv", M=M, N=N, K=K, bm=16, bn=32, bk=64, a=a, b=b, out0=np.zeros(N, np.float32))
    np.testing.assert_array_equal(res.out("out", np.float32), (a.astype(np.float64) @ b.astype(np.float64))[0])
