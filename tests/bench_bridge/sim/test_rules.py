"""One test per hardware rule: the run reports the rule's diagnostic code, on the offending line
of the kernel source (found by its marker comment), and ends with exit status 3 -- a located
error, never a segfault or a hang. Warnings (silent data loss) leave the program running."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("rules.cpp")
SOURCE = CPP_DIR / "rules.cpp"


def marker_line(marker: str) -> int:
    for i, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


def assert_located_error(res, code: str, marker: str, text: str = ""):
    assert res.run.returncode == 3, f"exit {res.run.returncode}\n{res.run.stderr}"
    assert not res.run.timed_out
    errs = res.errors
    assert errs, res.run.stderr
    err = errs[0]
    assert err.code == code, err
    assert err.source == "runtime"
    assert err.file == str(SOURCE), err.file
    assert err.line == marker_line(marker), (err.line, marker)
    assert text in err.message, err.message
    # the human line on stderr names the same place
    assert f"{SOURCE}:{err.line}: error:" in res.run.stderr and f"[{code}]" in res.run.stderr


def test_gm_access_outside_setglobalbuffer_view(prog):
    res = prog.run("gm_view", expect_ok=False)
    # the hardware ignores the view's size: a read and a write past it, inside the allocation, are
    # located warnings (each site once)
    assert res.run.returncode == 0 and not res.errors
    ws = [d for d in res.warnings if d.code == "gm-view-overrun"]
    assert [w.line for w in ws] == [marker_line("@gm-view"), marker_line("@gm-view-write")]
    assert "reads elements [64, 65) of a GlobalTensor of 64 elements" in ws[0].message
    assert "writes elements [64, 65)" in ws[1].message


def test_gm_copy_outside_device_allocation(prog):
    res = prog.run("gm_alloc", expect_ok=False)
    assert_located_error(res, "gm-out-of-bounds", "@gm-alloc", "of a 256-byte device allocation")


def test_gm_write_through_unbounded_view_past_allocation(prog):
    res = prog.run("gm_write", expect_ok=False)
    (w,) = [d for d in res.warnings if d.code == "gm-write-past-end"]
    assert "bytes [64, 68) of a 64-byte device allocation" in w.message
    assert_located_error(res, "gm-out-of-bounds", "@gm-write", "bytes [512, 516) of a 64-byte device allocation")


@pytest.mark.parametrize(
    "which,marker,text",
    [(0, "@ub-get", "GetValue touches elements [64, 65)"),
     (1, "@ub-set", "SetValue touches elements [70, 71)"),
     (2, "@ub-vec", "of 64 elements")],
)
def test_ub_access_outside_tensor(prog, which, marker, text):
    res = prog.run("ub_oob", which=np.int64(which), expect_ok=False)
    assert_located_error(res, "ub-out-of-bounds", marker, text)


def test_ub_allocation_over_capacity_is_a_warning_until_touched(prog):
    """The hardware does not check InitBuffer totals (NPUKernelBench answers that pass on an NPU lay out
    buffers past 192 KB on paths that never touch them): the InitBuffer is a located warning and the run
    goes on; the first access to bytes past the Unified Buffer is the located error."""
    res = prog.run("ub_overflow", which=np.int64(0))
    assert res.run.returncode == 0, res.run.stderr
    (w,) = [d for d in res.run.diagnostics if d.code == "ub-overflow"]
    assert w.severity == "warning" and w.line == marker_line("@ub-overflow  ")
    assert "131072 of 196608 bytes already in use" in w.message
    res = prog.run("ub_overflow", which=np.int64(1), expect_ok=False)
    assert_located_error(res, "ub-overflow-access", "@ub-overflow-access", "up to 196672")


@pytest.mark.parametrize("which,marker", [(0, "@misaligned-in"), (1, "@misaligned-out"), (2, "@misaligned-vec")])
def test_misaligned_ub_address(prog, which, marker):
    res = prog.run("misaligned", which=np.int64(which), expect_ok=False)
    assert_located_error(res, "ub-misaligned", marker, "UB offset 12")


def test_datacopy_length_rounded_down_warns_with_elements_lost(prog):
    x = (np.arange(64) + 1).astype(np.float16)
    res = prog.run("rounded", x=x, n=np.int64(40))  # 80 bytes: 2 whole blocks = 32 halves move, 8 are lost
    assert res.run.returncode == 0
    (w,) = res.warnings
    assert w.code == "datacopy-rounded"
    assert w.file == str(SOURCE) and w.line == marker_line("@rounded")
    assert "copies 32 elements" in w.message and "drops the last 8" in w.message
    z = res.out("z", np.float16)
    np.testing.assert_array_equal(z[:32], x[:32])
    assert np.all(z[32:] == 0)


def test_datacopy_whole_blocks_do_not_warn(prog):
    x = (np.arange(64) + 1).astype(np.float16)
    res = prog.run("rounded", x=x, n=np.int64(48))
    assert not res.warnings
    np.testing.assert_array_equal(res.out("z", np.float16)[:48], x[:48])


def test_deque_on_empty_queue_is_a_deadlock(prog):
    res = prog.run("deque_empty", expect_ok=False)
    assert_located_error(res, "deque-empty", "@deque-empty", "deadlock")


@pytest.mark.parametrize("which,marker", [(0, "@uaf-get"), (1, "@uaf-vec"), (2, "@uaf-copy")])
def test_use_after_free_tensor(prog, which, marker):
    res = prog.run("use_after_free", which=np.int64(which), expect_ok=False)
    assert_located_error(res, "use-after-free", marker, "after FreeTensor")


def test_use_after_free_while_the_buffer_is_still_free_warns(prog):
    # the NPU finds the freed tensor's bytes unchanged until AllocTensor hands the buffer out again
    res = prog.run("use_after_free", which=np.int64(3))
    assert [(w.code, w.line) for w in res.warnings] == [("use-after-free", marker_line("@uaf-stale"))]


def test_more_alloctensor_than_buffers(prog):
    res = prog.run("alloc_exhausted", expect_ok=False)
    assert_located_error(res, "alloc-exhausted", "@alloc-exhausted", "2 buffer(s) are all in use")


@pytest.mark.parametrize("which", [0, 1])
def test_waitflag_without_setflag(prog, which):
    res = prog.run("waitflag", which=np.int64(which), expect_ok=False)
    assert_located_error(res, "waitflag-deadlock", "@waitflag", "id 0")


def test_waitflag_after_matching_setflag_is_fine(prog):
    res = prog.run("waitflag", which=np.int64(2))
    assert res.run.returncode == 0 and not res.run.diagnostics


def test_kernel_segfault_becomes_located_crash_diagnostic(prog):
    res = prog.run("crash", expect_ok=False)
    assert_located_error(res, "kernel-crash", "@crash", "segmentation fault")


def test_endless_kernel_is_reported_as_timeout(prog):
    res = prog.run("endless", timeout=2, expect_ok=False)
    assert res.run.timed_out
    assert not res.run.ok
    assert 1.5 < res.run.seconds < 10
    (err,) = res.errors
    assert err.code == "timeout" and "did not finish within 2 s" in err.message
