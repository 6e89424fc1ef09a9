"""The SoC table (bench_bridge/soc.toml) is the one source of the hardware facts: the emulator's
generated constants and the performance model's cost table both come from it."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench_bridge.api import DEFAULT_SOC, SocFacts, soc_facts, soc_names
from bench_bridge.perf.costs import load
from bench_bridge.sim.compiler import INCLUDE_DIR
from bench_bridge.soc import HEADER_FILE, SOC_FILE, cpp_header

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = r"""
#include "kgen_sim/core.h"
#include "tiling/platform/platform_ascendc.h"
#include <cstdio>
int main() {
    platform_ascendc::PlatformAscendC p;
    uint64_t ub = 0, l2 = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L2, l2);
    std::printf("%u %llu %u %u %llu\n", kgen::UB_SIZE, (unsigned long long)ub, p.GetCoreNumAiv(), kgen::vector_core_num(),
                (unsigned long long)l2);
}
"""


def test_the_facts_of_the_default_soc():
    f = soc_facts()
    assert isinstance(f, SocFacts) and f.name == DEFAULT_SOC == "910B2" and f.soc_version == "Ascend910B2"
    assert (f.ub_bytes, f.vector_cores, f.ai_cores) == (196608, 48, 24)
    assert soc_facts("Ascend910B4").vector_cores == 40 and soc_names() == ["910B2", "910B4"]
    with pytest.raises(ValueError, match="known: 910B2, 910B4"):
        soc_facts("910C")


def test_the_committed_header_is_generated_from_the_table():
    assert HEADER_FILE.read_text() == cpp_header(), "run `python3 -m bench_bridge.soc` after editing soc.toml"


def test_no_other_file_of_the_emulator_or_the_model_writes_the_ub_size():
    hits = [str(p.relative_to(ROOT)) for base in (INCLUDE_DIR, ROOT / "bench_bridge" / "perf")
            for p in base.rglob("*") if p.is_file() and p != HEADER_FILE and "196608" in p.read_text(errors="replace")]
    assert hits == []


def _changed_table(tmp_path: Path) -> Path:
    text = SOC_FILE.read_text()
    for old, new in (("value = 196608,", "value = 131072,"), ("value = 48, unit", "value = 32, unit"),
                     ("value = 201326592,", "value = 100663296,")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    table = tmp_path / "soc.toml"
    table.write_text(text)
    return table


def test_a_value_changed_in_the_table_reaches_the_compiled_emulator_and_the_cost_model(tmp_path):
    table = _changed_table(tmp_path)
    costs = load("910B2", soc_file=table)
    assert (costs.ub_bytes, costs.vector_cores, costs.l2_bytes) == (131072, 32, 100663296)
    assert load("910B4", soc_file=table).ub_bytes == 131072        # inherited

    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    inc = tmp_path / "include" / "kgen_sim"
    inc.mkdir(parents=True)
    (inc / "soc_table.h").write_text(cpp_header(table))
    (tmp_path / "main.cpp").write_text(PROGRAM)
    exe = tmp_path / "main"
    subprocess.run([cxx, "-std=c++17", "-I", str(tmp_path / "include"), "-I", str(INCLUDE_DIR), str(tmp_path / "main.cpp"),
                    "-o", str(exe)], check=True, capture_output=True, timeout=300)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, env={}).stdout.split()
    # GetCoreMemSize(UB) reports the UB less the 256-byte KFC reserve of the Ascend910B family (kfc_reserved_bytes)
    assert out == ["131072", "130816", "32", "32", "100663296"]


def test_every_soc_must_share_the_core_memories(tmp_path):
    table = tmp_path / "soc.toml"
    table.write_text(SOC_FILE.read_text().replace('[soc.910B4]\ninherits = "910B2"\n',
                                                  '[soc.910B4]\ninherits = "910B2"\n'
                                                  'ub_bytes = { value = 65536, unit = "bytes", source = "assumption: test" }\n'))
    assert soc_facts("910B4", table).ub_bytes == 65536
    with pytest.raises(ValueError, match="share ub_bytes"):
        cpp_header(table)
