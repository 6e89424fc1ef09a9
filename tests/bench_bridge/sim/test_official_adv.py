"""Official AscendC examples that needed the APIs added for the advanced-API families (CumSum, Fill on
Global Memory, Std type traits, the CANN 9.1 reduce names and the sum register, Broadcast of 2/4-byte
types), run unmodified through benchmarks/official_examples.py. Runs only when KGEN_ASC_DEVKIT points at a local asc-devkit
checkout (nothing from it is copied here); see docs/official-examples.md for the whole table."""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DEVKIT = os.environ.get("KGEN_ASC_DEVKIT", "")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not DEVKIT or not Path(DEVKIT).is_dir(),
                       reason="set KGEN_ASC_DEVKIT to a local asc-devkit checkout to run its official examples"),
]

MUST_VERIFY = [
    ("01_simd_cpp_api/04_advanced_api/10_math/cumsum", None),
    ("01_simd_cpp_api/04_advanced_api/08_transpose/fill", None),
    ("01_simd_cpp_api/04_advanced_api/11_utils/type_traits", None),
    ("01_simd_cpp_api/04_advanced_api/10_math/power", "1"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/reduce_repeat", "2"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/reduce_repeat", "4"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/reduce_data_block", "3"),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/reduce_pair_elem", None),
    ("01_simd_cpp_api/03_basic_api/01_memory_vector_compute/reduce_computation", "1"),
]


def _mod():
    name = "kgen_official_examples"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "official_examples.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _base() -> Path:
    p = Path(DEVKIT).resolve()
    return p / "examples" if (p / "examples").is_dir() else p


@pytest.mark.parametrize("example,scenario", MUST_VERIFY)
def test_example_verifies(example, scenario):
    row = _mod().run_example(_base() / example, _base(), scenario, 300.0)
    assert row.verified, f"{example} [{scenario}]: {row.reason}"

