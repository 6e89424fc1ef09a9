"""CPU-debug launch interface (tikicpulib.h): GmAlloc/GmFree, ICPU_RUN_KF with a kernel, a
template specialisation and a lambda, ICPU_SET_TILING_KEY, SetKernelMode, and the documented
rules the emulator checks, in a program built the way older samples are (-DASCENDC_CPU_DEBUG)."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import build
from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram


def marker_line(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "cpudebug.cpp").read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


@pytest.fixture(scope="module")
def prog():
    src = CPP_DIR / "cpudebug.cpp"
    res = build([src], include_dirs=[CPP_DIR], defines=["ASCENDC_CPU_DEBUG"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-4000:]
    return SimProgram(src, res)


@pytest.mark.parametrize("blocks", [1, 4, 8])
def test_icpu_run_kf_runs_every_block_on_gmalloc_memory(prog, blocks):
    rng = np.random.default_rng(blocks)
    n = 8 * 512
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    res = prog.run("run_kf_function", x=x, y=y, blocks=np.int64(blocks))
    expect = ((x + x).astype(np.float32) + y).astype(np.float32)
    np.testing.assert_array_equal(res.out("z", np.float32), expect)
    assert not res.warnings
    np.testing.assert_array_equal(res.out("fresh", np.uint8), np.zeros(100, np.uint8))


def test_template_specialisation_lambda_tiling_key_and_mode(prog):
    res = prog.run("run_kf_template_and_lambda", key=np.int64(5))
    out = res.out("out", np.int32).reshape(16, 8)
    # first launch: (report_launch<7>) on 3 blocks, key 5, MIX_MODE (= 0)
    for b in range(3):
        assert out[b, :5].tolist() == [b, 3, 5, 7, 0]
    # second launch: a lambda forwarding to report_launch<11>, 5 blocks, key 9, AIV_MODE (= 2)
    for b in range(5):
        assert out[8 + b, :5].tolist() == [b, 5, 9, 11, 2]
    assert not res.warnings


def test_atomic_add_onto_gmalloc_starts_from_zero(prog):
    x = (np.arange(6 * 64, dtype=np.float32) % 17 - 8).astype(np.float32)
    res = prog.run("atomic_on_gmalloc", x=x)
    np.testing.assert_array_equal(res.out("out", np.float32), x.reshape(6, 64).sum(axis=0))


def test_pointer_argument_not_from_gmalloc_is_warned(prog):
    res = prog.run("arg_not_gmalloc")
    (w,) = res.warnings
    assert w.code == "icpu-arg-not-gm"
    assert "argument 1" in w.message and "twice_plus" in w.message
    assert w.line == marker_line("@not-gm-site")


def test_tiling_key_zero_warns_and_runs_branch_zero(prog):
    res = prog.run("tiling_key_zero")
    (w,) = res.warnings
    assert w.code == "tiling-key-nonpositive"
    assert w.line == marker_line("@key-zero-site")
    assert res.out("out", np.int32)[:4].tolist() == [0, 1, 0, 1]


def test_double_gmfree_is_a_located_error(prog):
    res = prog.run("double_free", expect_ok=False)
    assert res.run.returncode == 3
    (e,) = res.errors
    assert e.code == "gmfree-bad-pointer"
    assert e.line == marker_line("@double-free-site")


def test_kernel_reading_past_a_gmalloc_buffer_is_reported(prog):
    # 4000 bytes allocated, 4096 read: past the end but inside the 512-byte granule, which the
    # hardware reads silently: a located warning, not an error
    res = prog.run("kernel_overruns_gmalloc", expect_ok=False)
    assert res.run.returncode == 0
    (w,) = [d for d in res.warnings if d.code == "gm-read-past-end"]
    assert w.file.endswith("cpudebug.cpp") and "of a 4000-byte device allocation" in w.message


def test_kernel_reading_far_past_a_gmalloc_buffer_is_an_error(prog):
    res = prog.run("kernel_overruns_gmalloc_far", expect_ok=False)
    assert res.run.returncode == 3
    assert res.errors[0].code == "gm-out-of-bounds"
    assert res.errors[0].file.endswith("cpudebug.cpp")


def test_more_than_32_kernel_arguments_do_not_compile(tmp_path):
    params = ", ".join(f"uint32_t a{i}" for i in range(33))
    args = ", ".join(["1u"] * 33)
    src = tmp_path / "too_many.cpp"
    src.write_text(
        '#include "tikicpulib.h"\n'
        f"extern \"C\" __global__ __aicore__ void k({params}) {{}}\n"
        f"int main() {{ ICPU_RUN_KF(k, 1, {args}); return 0; }}\n"
    )
    res = build([src], defines=["ASCENDC_CPU_DEBUG"], use_cache=False)
    assert not res.ok
    assert any("at most 32" in d.message for d in res.errors), "\n".join(d.format() for d in res.diagnostics)
