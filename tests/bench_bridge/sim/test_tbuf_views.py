"""TBuf views and the hardware's bounds (pipe.h / tensor.h rules, docs/emulator-rules.md):

- ``TBuf::Get(len)`` hands out a view at the start of the TBuf's buffer. The hardware bounds nothing but
  UB, so an instruction that runs past ``len`` elements but stays inside that buffer touches only the
  TBuf's own bytes: a ``ub-past-tensor`` warning, and the access is made (NPUKernelBench's Arange casts 8
  floats into ``Get<float>(0)`` of a 32-byte TBuf); likewise, for such a shorter view, past the last buffer
  laid out, into UB that no buffer occupies (its float16 path casts 16 floats there). Into the next buffer, or once
  ``GetWithOffset`` or a sub-view ``operator[]`` has carved neighbouring tensors out of the TBuf, it is still
  ``ub-out-of-bounds``.
- ``TBuf::Get`` on a TBuf InitBuffer never laid out gives a tensor of 0 elements with a ``queue-uninit``
  warning (TanhMath takes one on its float32 path and never touches it); accessing it is the error.

Expected values are computed here by hand: 2.5 duplicated, the int32 inputs converted to float.
"""
from __future__ import annotations

import pytest

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline, marker_line

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t mode) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> b, never, after;
    pipe.InitBuffer(q, 1, 32);
    pipe.InitBuffer(b, 8);                                  // 8 bytes asked: a 32-byte buffer
    if (mode == 2) pipe.InitBuffer(after, 32);              // b is no longer the last buffer
    GlobalTensor<int32_t> gx;
    GlobalTensor<float> gy;
    gx.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    gy.SetGlobalBuffer((__gm__ float *)y, 16);
    LocalTensor<int32_t> in = q.AllocTensor<int32_t>();
    DataCopy(in, gx, 8);
    q.EnQue(in);
    in = q.DeQue<int32_t>();
    LocalTensor<float> unused = never.Get<float>();         // never laid out: a tensor of 0 elements
    if (mode == 3) Duplicate(unused, 1.0f, 8);              // @touch-uninit
    LocalTensor<float> none = b.Get<float>(0);
    Duplicate(none, 2.5f, 8);                               // @dup-past-len
    PipeBarrier<PIPE_V>();
    DataCopy(gy, b.Get<float>(), 8);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> one = b.Get<float>(1);
    if (mode == 1) b.GetWithOffset<float>(4, 16);           // carve the buffer: views are strict again
    if (mode == 5) { LocalTensor<float> rest = b.Get<float>()[4]; (void)rest; }  // a sub-view carves it too
    Cast(one, in, RoundMode::CAST_NONE, 8);                 // @cast-past-len
    if (mode == 2 || mode == 4) Duplicate(one, 0.0f, 16);   // @past-buffer
    PipeBarrier<PIPE_V>();
    if (mode == 4) Duplicate(one, 7.0f, 8);                 // the buffer's own floats again
    PipeBarrier<PIPE_V>();
    DataCopy(gy[8], b.Get<float>(), 8);
    q.FreeTensor(in);
}
int main(int argc, char **argv) {
    uint32_t mode = argc > 1 ? atoi(argv[1]) : 0;
    int32_t *x = (int32_t *)GmAlloc(32);
    float *y = (float *)GmAlloc(64);
    for (int i = 0; i < 8; ++i) x[i] = 7 * i - 20;
    for (int i = 0; i < 16; ++i) y[i] = -1.0f;
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, mode);
    for (int i = 0; i < 16; ++i) printf("%.6g ", y[i]);
    printf("\n");
    return 0;
}
"""


def _line(marker: str) -> int:
    return marker_line(PROGRAM, marker)


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    return build_inline(tmp_path_factory.mktemp("tbuf_views"), "views.cpp", PROGRAM)


def test_get_len_views_may_run_past_len_inside_their_buffer(binary, tmp_path):
    r = run(binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr + r.stdout
    got = [float(v) for v in r.stdout.split()]
    assert got[:8] == [2.5] * 8                                  # Duplicate of 8 into Get<float>(0)
    assert got[8:] == [float(7 * i - 20) for i in range(8)]      # Cast of 8 into Get<float>(1)
    warns = {(d.code, d.line) for d in r.diagnostics if d.severity == "warning"}
    assert ("ub-past-tensor", _line("@dup-past-len")) in warns
    assert ("ub-past-tensor", _line("@cast-past-len")) in warns
    assert ("queue-uninit", _line("never.Get<float>()")) in warns


def test_past_the_last_buffer_into_unoccupied_ub_is_a_warning(binary, tmp_path):
    # b is the last buffer laid out: 16 floats from its start run 32 bytes into UB no buffer occupies
    r = run(binary, ["4"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr + r.stdout
    assert [float(v) for v in r.stdout.split()] == [2.5] * 8 + [7.0] * 8
    assert ("ub-past-tensor", _line("@past-buffer")) in {(d.code, d.line) for d in r.diagnostics}


@pytest.mark.parametrize("mode, marker", [("1", "@cast-past-len"), ("2", "@past-buffer"), ("3", "@touch-uninit"),
                                          ("5", "@cast-past-len")])
def test_past_the_buffer_a_carved_buffer_or_an_uninitialised_tbuf_is_an_error(binary, tmp_path, mode, marker):
    r = run(binary, [mode], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs, r.stderr + r.stdout
    assert errs[0].code == "ub-out-of-bounds" and errs[0].line == _line(marker), errs[0].format()


def test_the_rules_are_on_the_rules_page():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[3] / "docs" / "emulator-rules.md").read_text()
    assert "`ub-past-tensor`" in page and "`queue-uninit` | warning / error" in page
