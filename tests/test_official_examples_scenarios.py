"""benchmarks/official_examples.py: which scenarios an example's CMakeLists accepts and which it reserves for
dav-3510. Team-written CMakeLists fragments in the shapes the examples use (no asc-devkit needed)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mod():
    name = "kgen_official_examples"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "official_examples.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def _example(tmp_path: Path, cmake: str) -> Path:
    ex = tmp_path / "ex"
    ex.mkdir()
    (ex / "CMakeLists.txt").write_text(cmake)
    return ex


def test_a_validation_line_lists_the_scenarios_and_does_not_tie_them_to_dav_3510(tmp_path):
    # a required SCENARIO_NUM (no default), checked by a NOT ... AND NOT ... line, the last value dav-3510 only
    ex = _example(tmp_path, "\n".join([
        'set(ARCH "dav-2201" CACHE STRING "dav-2201 or dav-3510")',
        "if(NOT DEFINED SCENARIO_NUM)",
        '    message(FATAL_ERROR "give -DSCENARIO_NUM")',
        "endif()",
        "if(NOT SCENARIO_NUM EQUAL 1 AND NOT SCENARIO_NUM EQUAL 2 AND NOT SCENARIO_NUM EQUAL 5)",
        '    message(FATAL_ERROR "bad SCENARIO_NUM")',
        "endif()",
        'if(SCENARIO_NUM EQUAL 5 AND NOT ARCH STREQUAL "dav-3510")',
        '    message(FATAL_ERROR "scenario 5 needs dav-3510")',
        "endif()",
    ]))
    assert _mod().scenarios(ex) == (["1", "2", "5"], {"5"})


def test_a_nested_architecture_check_still_reserves_its_scenarios(tmp_path):
    ex = _example(tmp_path, "\n".join([
        'set(SCENARIO_NUM "1" CACHE STRING "Scene (1-4)")',
        'if(SCENARIO_NUM STREQUAL "3" OR SCENARIO_NUM STREQUAL "4")',
        '    if(ARCH STREQUAL "dav-2201")',
        '        message(FATAL_ERROR "only dav-3510")',
        "    endif()",
        "endif()",
    ]))
    assert _mod().scenarios(ex) == (["1", "2", "3", "4"], {"3", "4"})
