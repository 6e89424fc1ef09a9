"""Team-written Matmul projects: matmul_bias_relu (Matmul API + bias on the cube core, ReLU on the vector
cores of a MIX kernel, float or half output) and batch_matmul (IterateBatch over [B, M, K] x [B, K, N],
batches spread over the vector cores, b optionally broadcast). Each is benched end to end with its kgen
spec (aligned and non-aligned M/N/K), its results checked directly against torch, and a broken copy
must be caught.
"""
from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from bench_bridge.project import build_project, describe_project, run_project

ROOT = Path(__file__).resolve().parents[3]
PROJECTS = ROOT / "tests" / "data" / "projects"
FIELDS = "usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK".split()
_CACHE: dict = {}
pytestmark = pytest.mark.slow  # every test builds a project or runs `kgen bench` (20-90 s each on a shared machine)


def built(name: str, combo: int):
    if (name, combo) not in _CACHE:
        p = describe_project(PROJECTS / name)
        assert p.ok, "\n".join(d.format() for d in p.diagnostics)
        b = build_project(p, combo)
        assert b.ok, "\n".join(d.format() for d in b.diagnostics)
        _CACHE[(name, combo)] = b
    return _CACHE[(name, combo)]


def ok(r):
    assert r.ok, "\n".join(d.format() for d in r.diagnostics) + (r.run.stderr[-2000:] if r.run else "")
    return r


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=900)


def bench_json(target: Path) -> dict:
    r = kgen("bench", str(target), "--json")
    assert r.stdout, r.stderr[-2000:]
    return {"rc": r.returncode, **json.loads(r.stdout)}


# ---- matmul_bias_relu ----------------------------------------------------------------------------------------

def test_bias_relu_spec_passes_every_case():
    rep = bench_json(PROJECTS / "matmul_bias_relu")
    assert rep["rc"] == 0 and rep["correct"], json.dumps(rep)[:3000]
    cases = {c["case_id"]: c for c in rep["cases"]}
    assert list(cases) == ["aligned-f32", "tails-f32", "tiny-f16", "many-cores-f16"]
    assert all(c["status"] == "pass" for c in cases.values())
    # MIX: block dim = half the vector cores the tiling uses; a 3 x 7 output fits one core
    assert cases["tiny-f16"]["block_dim"] == 1 and cases["many-cores-f16"]["block_dim"] == 24


def test_bias_relu_float_output_against_torch():
    torch.manual_seed(3)
    M, K, N = 150, 77, 93  # 64 x 64 base blocks: tails in M and N, K not a multiple of 16
    a, b, bias = torch.randn(M, K).half(), torch.randn(K, N).half(), torch.randn(N)
    r = ok(run_project(built("matmul_bias_relu", 0), [a, b, bias], [((M, N), torch.float32)]))
    t = dict(zip(FIELDS, struct.unpack("<11i", r.tiling_bytes[8:52])))
    assert (t["baseM"], t["baseN"]) == (64, 64) and (t["M"], t["N"], t["Ka"]) == (M, N, K)
    # fp32 accumulation of half products, bias added, ReLU: float64 reference within fp32 rounding
    ref = torch.relu(a.double() @ b.double() + bias.double()).numpy()
    got = r.outputs[0]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    assert (got == 0).sum() > M * N // 4 and (got >= 0).all()  # the epilogue really clamped negatives


def test_bias_relu_half_output_is_exact_for_integer_inputs():
    g = torch.Generator().manual_seed(4)
    M, K, N = 70, 40, 45
    a = torch.randint(-3, 4, (M, K), generator=g).half()
    b = torch.randint(-3, 4, (K, N), generator=g).half()
    bias = torch.randint(-20, 21, (N,), generator=g).half()
    r = ok(run_project(built("matmul_bias_relu", 1), [a, b, bias], [((M, N), torch.float16)]))
    want = torch.relu(a.double() @ b.double() + bias.double()).half().numpy()
    np.testing.assert_array_equal(r.outputs[0], want)


def test_bias_relu_without_the_epilogue_is_caught(tmp_path):
    proj = tmp_path / "matmul_bias_relu"
    shutil.copytree(PROJECTS / "matmul_bias_relu", proj)
    k = proj / "op_kernel" / "matmul_bias_relu.cpp"
    src = k.read_text()
    assert "Relu(r, c," in src
    k.write_text(src.replace("Relu(r, c,", "Adds(r, c, (YT)0,"))
    rep = bench_json(proj)
    assert rep["rc"] == 1 and not rep["correct"]
    assert any(c["status"] == "fail" for c in rep["cases"])


# ---- batch_matmul ----------------------------------------------------------------------------------------------

def test_batch_matmul_spec_passes_every_case():
    rep = bench_json(PROJECTS / "batch_matmul")
    assert rep["rc"] == 0 and rep["correct"], json.dumps(rep)[:3000]
    cases = {c["case_id"]: c for c in rep["cases"]}
    assert list(cases) == ["aligned-f16", "tails-f32", "many-batches-f16", "broadcast-b-f32"]
    assert all(c["status"] == "pass" for c in cases.values())
    # 100 batches over 48 vector cores: 3 per core, 34 cores, 17 MIX blocks
    assert cases["many-batches-f16"]["block_dim"] == 17


@pytest.mark.parametrize("B,M,K,N,bb", [(7, 37, 29, 53, 7), (6, 16, 48, 20, 1)])
def test_batch_matmul_against_torch(B, M, K, N, bb):
    g = torch.Generator().manual_seed(B)
    a = torch.randint(-3, 4, (B, M, K), generator=g).float()
    b = torch.randint(-3, 4, (bb, K, N), generator=g).float()
    r = ok(run_project(built("batch_matmul", 1), [a, b], [((B, M, N), torch.float32)]))
    batch, per_core, used, bcast = struct.unpack("<4I", r.tiling_bytes[:16])
    assert (batch, per_core, used, bcast) == (B, 1, B, int(bb == 1))  # fewer batches than cores: one each
    batch_num, = struct.unpack("<i", r.tiling_bytes[16 + 48 * 4:16 + 49 * 4])
    assert batch_num == 1  # SetBatchInfoForNormal(1, 1, ...): BatchNum is the larger batch count
    np.testing.assert_array_equal(r.outputs[0], torch.matmul(a, b).numpy())  # small integers: exact in fp32


def test_batch_matmul_wrong_broadcast_is_caught(tmp_path):
    proj = tmp_path / "batch_matmul"
    shutil.copytree(PROJECTS / "batch_matmul", proj)
    k = proj / "op_kernel" / "batch_matmul.cpp"
    src = k.read_text()
    assert "bGm[broadcastB ? 0 : i * sizeB]" in src
    k.write_text(src.replace("bGm[broadcastB ? 0 : i * sizeB]", "bGm[i * sizeB]"))  # reads past a [1, K, N] b
    rep = bench_json(proj)
    assert rep["rc"] != 0 and not rep["correct"]
    bad = {c["case_id"]: c for c in rep["cases"]}["broadcast-b-f32"]
    assert bad["status"] in ("fail", "error")
