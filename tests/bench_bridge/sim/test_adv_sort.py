"""The high-level sort flow on dav-2201 (Concat -> Sort<T, isFullSort> -> Extract) against an independent
stable sort, sized with the host helpers GetSortTmpSize / GetConcatTmpSize / GetSortLen (hand-checked),
and the Ascend 950 SortConfig forms reported as unsupported."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_sort.cpp")

DT = {"f32": np.float32, "f16": np.float16}


def stable_desc(x):
    """Documented: descending, equal scores keep input order; NaN first (emulator's documented choice)."""
    return np.array(sorted(range(len(x)), key=lambda j: (not np.isnan(x[j]), -float(x[j]) if not np.isnan(x[j]) else 0)))


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("n", [32, 128, 512, 2048])
def test_full_sort_matches_torch_stable_sort(prog, dt, n):
    rng = np.random.default_rng(n)
    x = rng.integers(-50, 50, n).astype(DT[dt])  # many ties
    ix = rng.permutation(n).astype(np.uint32) + 1000
    res = prog.run(f"sort_{dt}", x=x, ix=ix, full=1)
    ref = torch.sort(torch.from_numpy(x.astype(np.float32)), descending=True, stable=True)
    np.testing.assert_array_equal(res.out("v", DT[dt]), ref.values.numpy().astype(DT[dt]))
    np.testing.assert_array_equal(res.out("i", np.uint32), ix[ref.indices.numpy()])
    np.testing.assert_array_equal(res.out("sizes", np.uint32), [n * 8, 0, n * 8 // np.dtype(DT[dt]).itemsize])


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_without_full_sort_each_group_of_32_is_sorted_alone(prog, dt):
    n = 160
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(DT[dt])
    x[[3, 40, 77]] = np.nan
    ix = np.arange(n, dtype=np.uint32)
    res = prog.run(f"sort_{dt}", x=x, ix=ix, full=0)
    order = np.concatenate([g * 32 + stable_desc(x[g * 32:(g + 1) * 32]) for g in range(n // 32)])
    np.testing.assert_array_equal(res.out("i", np.uint32), order)
    np.testing.assert_array_equal(res.out("v", DT[dt]).view(np.uint8), x[order].view(np.uint8))


def test_documented_example_128_values(prog):
    """The Sort page: 4 groups of 32 descending halves [31..0], [63..32], ... fully sort to 127 .. 0."""
    x = np.concatenate([np.arange(32 * g + 31, 32 * g - 1, -1) for g in range(4)]).astype(np.float16)
    res = prog.run("sort_f16", x=x, ix=x.astype(np.uint32), full=1)
    np.testing.assert_array_equal(res.out("v", np.float16), np.arange(127, -1, -1).astype(np.float16))
    np.testing.assert_array_equal(res.out("i", np.uint32), np.arange(127, -1, -1))


def test_tmp_one_structure_short_is_a_located_error(prog):
    """GetSortTmpSize's size is the minimum: one 32-byte block less runs out of the tmp tensor in the merge."""
    n = 256
    x = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    res = prog.run("sort_f32", x=x, ix=np.arange(n, dtype=np.uint32), full=1, tmp=n * 8 - 32, expect_ok=False)
    err = res.errors[0]
    assert err.code == "ub-out-of-bounds" and "Sort" in err.message, err.format()
    assert err.file.endswith("adv_sort.cpp"), err.format()
    src = (prog.source.read_text()).splitlines()
    assert "@sort" in src[err.line - 1]


def test_host_helpers_outside_their_range(prog):
    res = prog.run("sort_host")
    np.testing.assert_array_equal(res.out("sizes", np.uint32), [0, 64 * 8, 0, 0, 0])
    err = res.run.stderr
    assert "GetSortTmpSize: elemCount must be greater than 0" in err
    assert "dataTypeSize must be 2 (half) or 4 (float)" in err and "[sort-tiling]" in err
    assert "GetSortMaxMinTmpSize serves the SortConfig forms" in err and "warning" in err


def test_sortconfig_form_is_an_ascend950_feature(prog):
    res = prog.run("sort_config", expect_ok=False)
    err = res.errors[0]
    assert err.code == "api-unsupported" and "Sort<T, isFullSort>" in err.message
    assert err.file.endswith("adv_sort.cpp") and "@E-config" in prog.source.read_text().splitlines()[err.line - 1]


# ---- the official dav-2201 examples (read from a local asc-devkit checkout, never copied here) ---------

def run_official(example: str):
    """Copy examples/<example> of $KGEN_ASC_DEVKIT to a temp dir, gen_data.py, kgen sim build, run; the
    program compares with the golden data itself and prints 'test pass!'."""
    import os
    import shutil
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from bench_bridge.sim import build, run

    devkit = os.environ.get("KGEN_ASC_DEVKIT", "")
    src = Path(devkit) / "examples" / example
    if not devkit or not src.is_dir():
        pytest.skip("set KGEN_ASC_DEVKIT to a local checkout of mirror-cann/asc-devkit")
    work = Path(tempfile.mkdtemp(prefix="kgen-sort-ex-")) / src.name
    shutil.copytree(src, work)
    b = work / "build"
    b.mkdir()
    subprocess.run([sys.executable, "../scripts/gen_data.py"], cwd=b, check=True, capture_output=True)
    res = build(sorted(work.glob("*.asc")), output=b / "demo", include_dirs=[work], defines=["__NPU_ARCH__=2201"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics)
    return run(b / "demo", cwd=b, timeout=120)


@pytest.mark.slow
def test_official_sort_example_passes_unmodified():
    r = run_official("01_simd_cpp_api/04_advanced_api/05_sort/sort")
    assert r.returncode == 0 and "test pass!" in r.stdout, r.stdout + r.stderr
    # its host code sizes the buffer with GetSortMaxMinTmpSize, an Ascend 950 helper: kgen says so
    assert "GetSortMaxMinTmpSize serves the SortConfig forms" in r.stderr
