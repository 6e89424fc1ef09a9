"""CrossCoreSetFlag / CrossCoreWaitFlag (dav-2201) are real events between the emulator's core threads.

Expected values are worked out by hand from the documented modes: mode 0 releases every core of one
type once all of them have set; mode 1 the two AIVs of one AI Core; mode 2 the AIVs after their AIC set,
or the AIC after both AIVs set. Each observation is something a kernel writes to GM, so a wait that did
not block (or a flag delivered to the wrong core) shows up as a wrong value. Every rule breach is a
diagnostic on the kernel's own line (found by its marker comment), exit status 3."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cube_crosscore.cpp")
SOURCE = CPP_DIR / "cube_crosscore.cpp"


def marker_line(marker: str) -> int:
    for i, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if line.rstrip().endswith(marker):
            return i
    raise AssertionError(marker)


def test_mode2_orders_gm_writes_between_aic_and_its_aivs(prog):
    res = prog.run("mode2")
    assert not res.errors and not res.warnings, res.run.stderr
    out = res.out("out", np.int32).reshape(4, 16)
    for b in range(3):
        row = out[b]
        assert list(row[2:4]) == [0, 0], row      # before the AIC's set: its write has not happened
        assert list(row[4:6]) == [1000 + b] * 2, row  # after the wait: both AIVs see it
        assert list(row[6:8]) == [10 + b, 20 + b], row
        # the AIC waited for BOTH AIVs (AIV 1 wrote 100 ms late): it summed both values
        assert row[8] == (10 + b) + (20 + b), row


def test_mode0_releases_all_cores_of_one_type_only_when_all_have_set(prog):
    res = prog.run("mode0_mix")
    assert not res.errors, res.run.stderr
    out = res.out("out", np.int32)
    aiv_total = sum(range(1, 7))  # 3 blocks x 2 AIVs, GetBlockIdx() 0..5, each adds idx + 1
    assert list(out[1:7]) == [aiv_total] * 6, out
    # the AICs synchronise among themselves on the same flag id: each sees all three adds
    assert out[40] == 300 and list(out[41:44]) == [300] * 3, out


def test_mode0_in_a_vector_kernel_synchronises_its_blocks(prog):
    res = prog.run("mode0_vector")
    assert not res.errors, res.run.stderr
    out = res.out("out", np.int32)
    assert list(out[1:5]) == [1 + 2 + 3 + 4] * 4, out


def test_mode1_pairs_the_two_aivs_of_an_ai_core(prog):
    res = prog.run("mode1")
    assert not res.errors, res.run.stderr
    out = res.out("out", np.int32).reshape(4, 16)
    for b in range(2):
        assert list(out[b, 1:3]) == [500 + b] * 2, out[b]


def test_sixteen_outstanding_sets_are_counted_and_consumed(prog):
    res = prog.run("counts")
    assert not res.errors, res.run.stderr
    out = res.out("out", np.int32)
    assert list(out[1:3]) == [16, 16], out  # after 16 waits each AIV sees the AIC's 16th write


@pytest.mark.parametrize("case,code,marker,text", [
    ("overflow", "crosscore-flag-overflow", "@overflow", "16 sets"),
    ("no_set", "crosscore-deadlock", "@no-set", "CrossCoreWaitFlag(9)"),
    ("half_set", "crosscore-deadlock", "@half-set", "on the AIC of block 0"),
    ("pipe_s", "crosscore-pipe", "@pipe-s", "PIPE_S"),
    ("mode4", "crosscore-mode", "@mode4", "Ascend 950"),
    ("mode2_in_vector", "crosscore-kernel-type", "@vector-mode2", "needs a MIX kernel"),
    ("mode0_waves", "crosscore-waves", "@waves", "waves"),
])
def test_rule_fires_on_the_users_line(prog, case, code, marker, text):
    res = prog.run(case, expect_ok=False)
    assert res.run.returncode == 3, f"exit {res.run.returncode}\n{res.run.stderr}"
    err = res.errors[0]
    assert err.code == code, err
    assert err.file == str(SOURCE) and err.line == marker_line(marker), (err.file, err.line, res.run.stderr)
    assert text in err.message, err.message


def test_flag_id_above_15_keeps_its_low_four_bits_with_a_warning(prog):
    res = prog.run("flag_id")
    assert not res.errors, res.run.stderr
    warn = [w for w in res.warnings if w.code == "crosscore-flag-id"]
    assert warn and warn[0].line == marker_line("@flag-id"), res.run.stderr
    out = res.out("out", np.int32)
    assert list(out[1:3]) == [77, 77], out  # flag 19 released the AIVs waiting on flag 3


def test_templated_mix_entry_runs_as_mix_at_once(prog):
    """g++ drops the section attribute of a templated __mix__ entry; the build reads the qualifier from the
    source instead (the table of kernel entries, launch.h), so the launch runs as MIX from the start with
    either compiler: no rerun, no warning, the AIVs see the AIC's value."""
    res = prog.run("templated_mix")
    assert not res.errors and not res.warnings, res.run.stderr
    out = res.out("out", np.int32)
    assert list(out[:3]) == [42, 42, 42], out[:3]

