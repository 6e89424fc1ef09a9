"""benchmarks/cmake_defines.py: the compile definitions an example's CMakeLists gives its demo target
(team-written CMake text; expected lists by hand)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from cmake_defines import compile_definitions  # noqa: E402

CMAKE = """
cmake_minimum_required(VERSION 3.16)
set(SCENARIO_NUM 0 CACHE STRING "Case (0-3)")   # a comment (with parentheses)
set(COPY_DST "UB" CACHE STRING "UB or L1")
if(NOT SCENARIO_NUM MATCHES "^[0-3]$")
    message(FATAL_ERROR "bad")
endif()
add_executable(demo demo.asc)
if(COPY_DST STREQUAL "UB")
    target_compile_definitions(demo PRIVATE COPY_DST_UB=1)
elseif(COPY_DST STREQUAL "L1")
    target_compile_definitions(demo PRIVATE COPY_DST_L1=1)
else()
    target_compile_definitions(demo PRIVATE COPY_DST_NONE)
endif()
if(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510" OR SCENARIO_NUM STREQUAL "9")
    target_compile_definitions(demo PRIVATE ARCH_3510=1)
endif()
add_definitions(-DTILE=${SCENARIO_NUM})
target_compile_definitions(demo PRIVATE
    SCENARIO_NUM=${SCENARIO_NUM}
    NAME="${COPY_DST}"
    $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=${CMAKE_ASC_ARCHITECTURES}>
)
"""


def test_defaults_branches_and_substitution(tmp_path):
    f = tmp_path / "CMakeLists.txt"
    f.write_text(CMAKE)
    got = compile_definitions(f, {"CMAKE_ASC_ARCHITECTURES": "dav-2201", "SCENARIO_NUM": "2"})
    assert got == ["COPY_DST_UB=1", "TILE=2", "SCENARIO_NUM=2", 'NAME="UB"']


def test_overrides_pick_other_branches(tmp_path):
    f = tmp_path / "CMakeLists.txt"
    f.write_text(CMAKE)
    got = compile_definitions(f, {"CMAKE_ASC_ARCHITECTURES": "dav-3510", "COPY_DST": "L2"})
    assert got == ["COPY_DST_NONE", "ARCH_3510=1", "TILE=0", "SCENARIO_NUM=0", 'NAME="L2"']


def test_option_defaults_off_and_undefined_names_are_false(tmp_path):
    """CMake: `option(NAME "help" OFF)` defines NAME (OFF unless given); `if(NAME)` on a name no command set is
    false (a plain word is true only when it is a true constant such as ON or 1). An official example guards its
    alternative mode this way; taking the guarded definition by default built the wrong mode."""
    f = tmp_path / "CMakeLists.txt"
    f.write_text('option(FRONT "front mode" OFF)\noption(EXTRA "extra" ON)\nadd_executable(demo d.asc)\n'
                 'if(FRONT)\n  target_compile_definitions(demo PRIVATE FRONT)\nendif()\n'
                 'if(EXTRA)\n  target_compile_definitions(demo PRIVATE EXTRA)\nendif()\n'
                 'if(NEVER_SET)\n  target_compile_definitions(demo PRIVATE NEVER)\nendif()\n'
                 'if(1)\n  target_compile_definitions(demo PRIVATE ONE)\nendif()\n')
    assert compile_definitions(f, {}) == ["EXTRA", "ONE"]
    assert compile_definitions(f, {"FRONT": "ON"}) == ["FRONT", "EXTRA", "ONE"]


def test_string_regex_derives_a_definition(tmp_path):
    """`string(REGEX MATCH ...)` / `string(REGEX REPLACE ...)` / `string(TOUPPER ...)` set a variable a later
    definition uses (a basic cube example derives its architecture number from CMAKE_ASC_ARCHITECTURES this way;
    unevaluated, the define was empty and the example's `#if` did not parse)."""
    f = tmp_path / "CMakeLists.txt"
    f.write_text('set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")\n'
                 'string(REGEX MATCH "([0-9]+)" ARCH_NUM "${CMAKE_ASC_ARCHITECTURES}")\n'
                 'string(REGEX REPLACE "dav-([0-9]+)" "v\\\\1" ARCH_TAG "${CMAKE_ASC_ARCHITECTURES}")\n'
                 'string(TOUPPER "${CMAKE_ASC_ARCHITECTURES}" ARCH_UP)\n'
                 'add_definitions(-DARCH=${ARCH_NUM} -DTAG=${ARCH_TAG} -DUP=${ARCH_UP})\n')
    assert compile_definitions(f, {}) == ["ARCH=2201", "TAG=v2201", "UP=DAV-2201"]
    assert compile_definitions(f, {"CMAKE_ASC_ARCHITECTURES": "dav-3510"}) == ["ARCH=3510", "TAG=v3510", "UP=DAV-3510"]
