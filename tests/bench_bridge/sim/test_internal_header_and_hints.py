"""Spellings real kernels use that are not API calls: the internal header path
``impl/dav_c220/kernel_operator_reg_others_impl.h`` (included under ``#if __CCE_AICORE__ == 220`` by
NPUKernelBench's norm kernels) exists and brings in the umbrella header, and the branch hints
``likely`` / ``unlikely`` are macros kernel code sees (RmsNorm's reduce helpers). A team-written kernel
clamps each value to [lo, hi] with hinted branches; the expected values are computed here by hand."""
from __future__ import annotations

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline

PROGRAM = r"""#include "kernel_operator.h"
#if __CCE_AICORE__ == 220
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"
#endif
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void clamp_hinted(GM_ADDR x, GM_ADDR y, int32_t lo, int32_t hi) {
    GlobalTensor<int32_t> gx, gy;
    gx.SetGlobalBuffer((__gm__ int32_t *)x, 16);
    gy.SetGlobalBuffer((__gm__ int32_t *)y, 16);
    for (int i = 0; i < 16; ++i) {
        int32_t v = gx.GetValue(i);
        if (unlikely(v < lo)) v = lo;
        else if (likely(v <= hi)) v = v * 1;
        else v = hi;
        gy.SetValue(i, v);
    }
}
int main() {
    int32_t *x = (int32_t *)GmAlloc(64), *y = (int32_t *)GmAlloc(64);
    for (int i = 0; i < 16; ++i) x[i] = 5 * i - 20;
    clamp_hinted<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, -7, 31);
    for (int i = 0; i < 16; ++i) printf("%d ", y[i]);
    printf("\n");
    return 0;
}
"""


def test_the_internal_header_and_the_branch_hints_build_and_run(tmp_path):
    r = run(build_inline(tmp_path, "hinted.cpp", PROGRAM), [], cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    want = [min(max(5 * i - 20, -7), 31) for i in range(16)]
    assert [int(v) for v in r.stdout.split()] == want
