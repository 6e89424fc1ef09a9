"""A warning inside a hot loop is reported once per line and costs little after the first time
(NPUKernelBench's Cross reads GM element by element through a GlobalTensor whose SetGlobalBuffer size is 1:
every one of ~200k scalar reads is a `gm-view-overrun`; resolving each one's source line with addr2line
made the run time out). A team-written kernel reads 20000 elements through such a view; the sum is
checked with numpy."""
from __future__ import annotations

import time

import numpy as np

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline, marker_line

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void sum_k(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x, 1);      // a view of 1 element over 20000
    gy.SetGlobalBuffer((__gm__ float *)y, 1);
    float s = 0;
    for (int i = 0; i < 20000; ++i) s += gx.GetValue(i);   // @overrun
    gy.SetValue(0, s);
}
int main() {
    float *x = (float *)GmAlloc(20000 * 4), *y = (float *)GmAlloc(32);
    for (int i = 0; i < 20000; ++i) x[i] = float(i % 7);
    sum_k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y);
    printf("%g\n", y[0]);
    return 0;
}
"""


def test_a_warning_in_a_loop_is_reported_once_and_stays_cheap(tmp_path):
    binary = build_inline(tmp_path, "overrun_loop.cpp", PROGRAM)
    t0 = time.monotonic()
    r = run(binary, [], cwd=tmp_path, timeout=120)
    elapsed = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    assert [(d.code, d.line) for d in r.diagnostics] == [("gm-view-overrun", marker_line(PROGRAM, "@overrun"))]
    assert float(r.stdout.split()[0]) == float((np.arange(20000) % 7).sum())
    assert elapsed < 60, f"20000 repeats of one warning took {elapsed:.1f} s"


SAME_ERROR_ON_EVERY_CORE = r"""#include <atomic>
#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
static std::atomic<int> arrived{0};
__global__ __aicore__ void bad_k(GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    ++arrived;
    while (arrived.load() < 8) { }                  // every core reaches the bad call at the same moment
    // the emulator's error unwinds the core with an exception; catching it here keeps every core alive, so each
    // one's report is seen (on its own, the first error ends the run while the others may still be printing)
    try { Duplicate(t, 1.0f, 64 * 1024); } catch (...) { }     // @bad: far past the 256-byte buffer and past UB
}
int main() {
    uint8_t *y = (uint8_t *)GmAlloc(32);
    bad_k<<<8, nullptr, nullptr>>>(y);
    return 0;
}
"""


def test_the_same_error_on_every_core_is_reported_once(tmp_path):
    """Every core runs the same code, so an error one core hits the others hit at the same moment; the first
    one ends the run and the report names it once (CI once saw a test fail on two copies of one error)."""
    binary = build_inline(tmp_path, "every_core_fails.cpp", SAME_ERROR_ON_EVERY_CORE)
    for _ in range(2):
        r = run(binary, [], cwd=tmp_path, timeout=120)
        errors = [(d.code, d.line) for d in r.diagnostics if d.severity == "error"]
        assert len(errors) == 1 and errors[0][1] == marker_line(SAME_ERROR_ON_EVERY_CORE, "@bad"), r.stderr
