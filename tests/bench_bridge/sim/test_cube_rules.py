"""One test per cube-unit hardware rule (dav-2201): the run reports the rule's diagnostic code on the
offending line of the kernel source (found by its marker comment) and exits with status 3. Also: each
local memory has its own capacity and allocation cursor, and L0A/L0B buffers start on fractals."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cube_rules.cpp")
SOURCE = CPP_DIR / "cube_rules.cpp"


def marker_line(marker: str) -> int:
    for i, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if line.rstrip().endswith(marker):
            return i
    raise AssertionError(marker)


@pytest.mark.parametrize("case,code,marker,text", [
    ("l1_overflow", "l1-overflow", "@l1-overflow", "L1"),
    ("l0a_overflow", "l0a-overflow", "@l0a-overflow", "L0A"),
    ("l0b_overflow", "l0b-overflow", "@l0b-overflow", "L0B"),
    ("l0c_overflow", "l0c-overflow", "@l0c-overflow", "L0C"),
    ("l0a_fixed_address_overflow", "l0a-overflow", "@l0a-fixed", "65536-byte L0A"),
    ("mmad_wrong_position", "wrong-position", "@mmad-position", "A2 (L0A)"),
    ("loaddata_from_ub", "wrong-position", "@loaddata-position", "A1/B1 (L1)"),
    ("fixpipe_from_l1", "wrong-position", "@fixpipe-position", "CO1 (L0C)"),
    ("fixpipe_quant_mismatch", "fixpipe-quant-mismatch", "@fixpipe-quant", "quantPre NoQuant needs the destination type equal"),
    ("l0a_misaligned", "cube-misaligned", "@l0a-misaligned", "512-byte"),
    ("datacopy_ub_to_l1", "wrong-position", "@ub-to-l1", "no such DataCopy path"),
    ("transpose_int8_load2d", "loaddata-transpose-dtype", "@transpose-dtype", "LoadDataWithTranspose"),
])
def test_rule_fires_on_the_users_line(prog, case, code, marker, text):
    res = prog.run(case, expect_ok=False)
    assert res.run.returncode == 3, f"exit {res.run.returncode}\n{res.run.stderr}"
    err = res.errors[0]
    assert err.code == code, err
    assert err.file == str(SOURCE) and err.line == marker_line(marker), (err.file, err.line)
    assert text in err.message, err.message
    assert f"{SOURCE}:{err.line}: error:" in res.run.stderr


def test_each_memory_has_its_own_capacity_and_l0a_buffers_start_on_fractals(prog):
    res = prog.run("memories_are_separate")
    assert not res.errors and not res.warnings, res.run.stderr
    out = res.out("out", np.float32)
    # two 100-byte A2 buffers: the second starts on the next 512-byte fractal of L0A
    assert out[0] == 0 and out[1] == 512
    # the UB and L0C tensors start at address 0 of their own memories
    assert out[2] == 0 and out[3] == 0
    assert out[4] == 1


def test_local_mem_allocator_hands_out_cube_memories_by_fractal(prog):
    res = prog.run("allocator_l0a", overflow=0)
    assert not res.errors, res.run.stderr
    out = res.out("out", np.float32)
    assert list(out[:4]) == [0, 512, 1, 1]  # 200 bytes rounded up to one 512-byte fractal; default positions A2, A1
    res = prog.run("allocator_l0a", overflow=1, expect_ok=False)
    err = res.errors[0]
    assert err.code == "l0a-overflow" and err.line == marker_line("@allocator-l0a"), err


def test_tbufpool_regions_live_in_their_positions_memory(prog):
    res = prog.run("bufpool_regions", overflow=0)
    assert not res.errors, res.run.stderr
    out = res.out("out", np.float32)
    assert list(out[:2]) == [1024, 2048]  # after the UB / L1 buffers the pipe gave out first
    res = prog.run("bufpool_regions", overflow=1, expect_ok=False)
    err = res.errors[0]
    assert err.code == "l1-overflow" and err.line == marker_line("@bufpool-l1"), err


def test_mmad_operand_smaller_than_its_fractals_warns_and_uses_the_memory_past_it(prog):
    # the hardware addresses Mmad operands by start address only (the official mmad example rounds n up
    # past its L0C tensor): a warning on the user's line, and the run goes on
    res = prog.run("mmad_operand_too_small")
    assert not res.errors, res.run.stderr
    warn = [w for w in res.warnings if w.code == "mmad-operand-size"]
    assert warn and warn[0].line == marker_line("@mmad-size"), res.run.stderr
    assert "1536 elements" in warn[0].message, warn[0].message


def test_tscm_position_lives_in_l1(prog):
    # the docs' data-path overview maps L1 to A1, B1, C1 and TSCM: a TSCM tensor is an L1 source for LoadData,
    # and a TSCM tensor that runs past L1's 512 KB is an L1 overflow on its own line
    res = prog.run("tscm_is_l1")
    assert not res.errors, res.run.stderr
    out = res.out("out", np.float32)
    assert out[0] == 1024 and out[1] == 13 % 7, out[:2]
    res = prog.run("tscm_overflow", expect_ok=False)
    err = res.errors[0]
    assert err.code == "l1-overflow" and err.line == marker_line("@tscm-overflow"), err
    assert "TSCM" in err.message, err.message

