"""Two-pass MIX builds: bisheng compiles a MIX kernel once per core type with `g_coreType` a compile-time
constant in each pass, so kernels may select their cube (AIC) and vector (AIV) halves at compile time
(`template <int32_t CORE_TYPE = g_coreType>`, `if constexpr (g_coreType == AIC)`). kgen sim build compiles
such a unit twice and the launcher runs each core on its own pass (bench_bridge/sim/compiler.py, section
"two-pass builds"; kgen_sim/core_type.h).

The kernel (cpp/two_pass_mix.cpp, ours) computes, per block b, s[b] = sum(w[b]) on the AIC and
y = x * s[b] on the block's two AIVs after a mode-2 cross-core flag; expected values come from numpy. Each
core also records a tag from a non-inlined function that has one name and a different body in each pass:
if the two copies were merged by the linker, one core type would report the other's tag."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from bench_bridge.sim import compiler, run

CPP = Path(__file__).resolve().parent / "cpp"
SOURCE = CPP / "two_pass_mix.cpp"
COMPILERS = compiler.find_compilers()
K, L = 8, 64


@pytest.fixture(scope="module", params=sorted(COMPILERS), ids=sorted(COMPILERS))
def built(request):
    res = compiler.build([SOURCE], include_dirs=[CPP], cxx=COMPILERS[request.param])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:]
    return res


def _run(res, blocks: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(blocks * 2 * L).astype(np.float32)
    w = rng.standard_normal(blocks * K).astype(np.float32)
    with tempfile.TemporaryDirectory(prefix="kgen-2pass-") as d:
        x.tofile(Path(d) / "x.bin")
        w.tofile(Path(d) / "w.bin")
        np.array(blocks, np.int64).tofile(Path(d) / "blocks.bin")
        r = run(res.binary, ["scale"], cwd=d, timeout=60)
        assert r.returncode == 0 and not r.diagnostics, r.stderr[-3000:]
        return x, w, np.fromfile(Path(d) / "y.bin", np.float32), np.fromfile(Path(d) / "tags.bin", np.int32)


@pytest.mark.parametrize("blocks", [1, 3])
def test_each_core_type_runs_its_own_pass(built, blocks):
    x, w, y, tags = _run(built, blocks, seed=blocks)
    s = w.reshape(blocks, K).sum(axis=1)
    np.testing.assert_allclose(y, (x.reshape(blocks, 2 * L) * s[:, None]).ravel(), rtol=1e-6, atol=1e-6)
    # AIC pass: PassTag() 1000 + CoreName<AIC (1)> 10; AIV pass: 2000 + CoreName<AIV (2)> 20
    assert list(tags[:blocks]) == [1010] * blocks and tags[blocks] == -1, tags[:8]
    assert list(tags[32:32 + 2 * blocks]) == [2020] * (2 * blocks) and tags[32 + 2 * blocks] == -1, tags[32:40]


def test_the_two_copies_stay_apart_in_the_executable(built):
    """One definition of each pass's copy of the same-named function (not merged, not a duplicate)."""
    nm = subprocess.run(["nm", str(built.binary)], capture_output=True, text=True).stdout
    names = [line.split()[-1] for line in nm.splitlines() if line.split()[-1].startswith("_Z7PassTagv")]
    assert sorted(names) == ["_Z7PassTagv", "_Z7PassTagv" + compiler.AIC_SUFFIX], names


def test_a_vector_kernel_that_never_names_the_core_type_is_one_pass(tmp_path):
    src = tmp_path / "vec.asc"
    src.write_text('#include "kernel_operator.h"\n#include "tikicpulib.h"\n'
                   "__global__ __aicore__ void k(GM_ADDR x) {\n"
                   "  AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x, 8);\n"
                   "  g.SetValue(AscendC::GetBlockIdx(), ASCEND_IS_AIV ? 7 : 9);\n}\n"
                   "int main() { uint8_t *x = (uint8_t *)AscendC::GmAlloc(32); k<<<2, nullptr, nullptr>>>(x);\n"
                   '  printf("%d %d\\n", ((int32_t *)x)[0], ((int32_t *)x)[1]); AscendC::GmFree(x); }\n')
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics)
    nm = subprocess.run(["nm", str(res.binary)], capture_output=True, text=True).stdout
    assert compiler.AIC_SUFFIX not in nm and "kgen_core_pass_table" not in nm.replace("w kgen_core_pass_table", "")
    r = run(res.binary, cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["7", "7"], r.stdout + r.stderr


def test_both_pass_objects_come_from_the_cache_in_a_new_link(built, tmp_path):
    """The object cache keys each pass apart (the pass defines are part of the key): a new executable
    (here: one more translation unit) takes both objects of the unchanged unit from the cache, and the
    program linked from them still runs each core type on its own pass."""
    src = tmp_path / "two_pass_mix.cpp"
    src.write_text(SOURCE.read_text())
    extra = tmp_path / "extra.cpp"
    extra.write_text("int kgen_test_unrelated_function(int a) { return a + 1; }\n")
    cxx = built.command[0]
    first = compiler.build([src], include_dirs=[CPP], cxx=cxx)
    assert first.ok and first.reused_objects == 0
    second = compiler.build([src, extra], include_dirs=[CPP], cxx=cxx)
    assert second.ok and not second.cached and second.reused_objects == 2, second.reused_objects
    x, w, y, tags = _run(second, 2)
    np.testing.assert_allclose(y, (x.reshape(2, 2 * L) * w.reshape(2, K).sum(axis=1)[:, None]).ravel(), rtol=1e-6, atol=1e-6)
    assert list(tags[:2]) == [1010, 1010] and list(tags[32:36]) == [2020] * 4, tags[:40]


@pytest.mark.parametrize("family", sorted(COMPILERS))
@pytest.mark.parametrize("n", [1, 1000, 3001])
def test_a_custom_op_project_with_a_two_pass_mix_kernel(family, n, monkeypatch):
    """tests/data/projects/mix_scale (ours): y = x * sum(w), the sum on each block's AIC, the scaling on its
    two AIVs after a mode-2 flag, halves chosen from g_coreType at compile time (a factor that is 1 only in
    the right pass). Built with each compiler as `kgen bench` builds a project, checked against numpy."""
    from bench_bridge.project import build_project, describe_project, run_project

    monkeypatch.setenv("KGEN_CXX", COMPILERS[family])
    project = describe_project(Path(__file__).resolve().parents[2] / "data" / "projects" / "mix_scale")
    pb = build_project(project)
    assert pb.ok, "\n".join(d.format() for d in pb.diagnostics)
    assert pb.result.command[0] == COMPILERS[family]
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    w = rng.standard_normal(5).astype(np.float32)
    r = run_project(pb, [x, w], [((n,), np.float32)])
    assert r.ok, "\n".join(d.format() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs[0], x * w.sum(dtype=np.float32), rtol=1e-5, atol=1e-6)
