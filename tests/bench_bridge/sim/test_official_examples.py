"""CANN's official AscendC examples, unmodified, on the emulator (benchmarks/official_examples.py).

Runs only when KGEN_ASC_DEVKIT points at a local asc-devkit checkout (its code is never copied into
this repository). One test per (example, scenario): gen_data.py, kgen sim build, run, verify_result.py.
Examples listed in MUST_VERIFY have passed before and must keep passing; any other example that does
not verify is reported as an expected failure with the reason (a gap in the emulator's API coverage).
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DEVKIT = os.environ.get("KGEN_ASC_DEVKIT", "")

pytestmark = pytest.mark.skipif(
    not DEVKIT or not Path(DEVKIT).is_dir(),
    reason="set KGEN_ASC_DEVKIT to a local checkout of mirror-cann/asc-devkit to run its official examples",
)

# (example path relative to examples/, scenario) that verified on the emulator when this list was written
MUST_VERIFY = {
    ("01_simd_cpp_api/00_introduction/01_add/add_tpipe_tque", "-"),
    ("01_simd_cpp_api/03_basic_api/07_tpipe_tque/tpipe_reuse", "-"),
    # verified since issue 23 (block sync, scalar atomics, GM bypass, Gatherb, TransDataTo5HD, SliceInfo, asc_dump, int4 Cast)
    ("01_simd_cpp_api/01_utilities/02_dump/simple_dump", "-"),
    ("01_simd_cpp_api/03_basic_api/00_data_movement/data_copy_gm2ub_slice", "-"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/cast", "0"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/gather", "1"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/gather", "2"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/gather", "3"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/gather", "4"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/transpose", "1"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/transpose", "2"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/transpose", "3"),
    ("01_simd_cpp_api/03_basic_api/05_sync_control/ib_set_wait", "-"),
    ("01_simd_cpp_api/03_basic_api/05_sync_control/sequential_block_sync", "-"),
    ("01_simd_cpp_api/03_basic_api/05_sync_control/task_sync", "-"),
    ("01_simd_cpp_api/03_basic_api/06_atomic/scalar_atomic_operations", "1"),
    ("01_simd_cpp_api/03_basic_api/06_atomic/scalar_atomic_operations", "2"),
    ("01_simd_cpp_api/03_basic_api/06_atomic/set_atomic_deterministic_computation", "1"),
    ("01_simd_cpp_api/03_basic_api/09_utils/gm_by_pass_dcache", "-"),
    # verified since aclrtMalloc / aclrtMallocHost hand out zeroed memory (docs/emulator-rules.md, "Memory contents")
    ("01_simd_cpp_api/03_basic_api/05_sync_control/data_sync_barrier", "-"),
    ("01_simd_cpp_api/03_basic_api/05_sync_control/cross_core_set_wait_flag", "0"),
    ("01_simd_cpp_api/03_basic_api/05_sync_control/cross_core_set_wait_flag", "1"),
    ("01_simd_cpp_api/03_basic_api/04_memory_management/tbufpool_management", "1"),
    ("01_simd_cpp_api/03_basic_api/04_memory_management/tbufpool_management", "2"),
    ("01_simd_cpp_api/03_basic_api/04_memory_management/tbufpool_management", "3"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/reduce", "-"),
    # Copy in counter mode: the mask counts the elements of each repeat (the Copy page)
    ("01_simd_cpp_api/03_basic_api/00_data_movement/copy_ub2ub", "3"),
    # scenarios 2 and 3 run since the runner reads the CMakeLists' validation line (4 is dav-3510 only)
    ("01_simd_cpp_api/03_basic_api/04_memory_management/tensor_allocation", "1"),
    ("01_simd_cpp_api/03_basic_api/04_memory_management/tensor_allocation", "2"),
    ("01_simd_cpp_api/03_basic_api/04_memory_management/tensor_allocation", "3"),
}


def _load():
    name = "kgen_official_examples"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "official_examples.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def _cases():
    if not DEVKIT or not Path(DEVKIT).is_dir():
        return []
    mod = _load()
    path = Path(DEVKIT).resolve()
    base = path / "examples" if (path / "examples").is_dir() else path
    cases = []
    for ex in mod.find_examples(path, False):
        scens, only3510 = mod.scenarios(ex)
        for s in scens:
            if s not in only3510:
                cases.append((str(ex.relative_to(base)), s))
    return cases


CASES = _cases()


@pytest.mark.parametrize("example,scenario", CASES, ids=[f"{e.split('/')[-1]}[{s or '-'}]" for e, s in CASES])
def test_official_example(example, scenario):
    mod = _load()
    path = Path(DEVKIT).resolve()
    base = path / "examples" if (path / "examples").is_dir() else path
    row = mod.run_example(base / example, base, scenario, timeout=180)
    key = (example, scenario or "-")
    if row.verified:
        return
    if key in MUST_VERIFY:
        pytest.fail(f"{example} [{scenario or '-'}] no longer verifies: {row.reason}")
    pytest.xfail(row.reason or "did not verify")


def test_script_finds_the_vector_examples():
    assert len(CASES) >= 30, CASES
    assert ("01_simd_cpp_api/00_introduction/01_add/add_tpipe_tque", None) in CASES
    assert not any("matmul" in e or "/reg_" in e for e, _ in CASES)
