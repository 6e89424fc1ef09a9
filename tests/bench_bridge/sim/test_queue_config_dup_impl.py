"""Three spellings published kernels use (NPUKernelBench level 2): a queue configured statically with a
``const TQueConfig*`` (MseLossGradV2), the internal count-form ``DuplicateImpl`` called with
``(__ubuf__ T*)tensor.GetPhyAddr()`` (GeGluV2), and the ``kernel_utils.h`` include (CoalesceSparse). A
team-written kernel fills half of a queue buffer through DuplicateImpl and the rest from GM, then copies
it out; the expected values are worked out by hand. A fill that runs past UB is an error."""
from __future__ import annotations

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline, marker_line

PROGRAM = r"""#include "kernel_operator.h"
#include "kernel_utils.h"
#include "tikicpulib.h"
using namespace AscendC;
__aicore__ constexpr TQueConfig MakeConfig(uint32_t len, uint32_t num) {
    return {false, false, false, len, num, 0, {TPosition::MAX, TPosition::MAX}};
}
constexpr TQueConfig kConf = MakeConfig(0, 1);
__global__ __aicore__ void fill_half(GM_ADDR x, GM_ADDR y, int32_t mode) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1, &kConf> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(int16_t));
    GlobalTensor<int16_t> gx, gy;
    gx.SetGlobalBuffer((__gm__ int16_t *)x, 64);
    gy.SetGlobalBuffer((__gm__ int16_t *)y, 64);
    LocalTensor<int16_t> t = q.AllocTensor<int16_t>();
    DataCopy(t, gx, 64);
    PipeBarrier<PIPE_ALL>();
    int32_t n = mode == 1 ? 200000 : 32;
    DuplicateImpl<int16_t>((__ubuf__ int16_t *)t.GetPhyAddr(), 7, n);   // @dup-impl
    q.EnQue(t);
    t = q.DeQue<int16_t>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 64);
    q.FreeTensor(t);
}
int main(int argc, char **argv) {
    int32_t mode = argc > 1 ? atoi(argv[1]) : 0;
    int16_t *x = (int16_t *)GmAlloc(128), *y = (int16_t *)GmAlloc(128);
    for (int i = 0; i < 64; ++i) { x[i] = (int16_t)(3 * i - 50); y[i] = -1; }
    fill_half<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, mode);
    for (int i = 0; i < 64; ++i) printf("%d ", y[i]);
    printf("\n");
    return 0;
}
"""


def test_a_statically_configured_queue_and_duplicate_impl(tmp_path):
    binary = build_inline(tmp_path, "fill_half.cpp", PROGRAM)
    r = run(binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr
    assert [int(v) for v in r.stdout.split()] == [7] * 32 + [3 * i - 50 for i in range(32, 64)]
    r = run(binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs and errs[0].code == "ub-out-of-bounds", r.stderr
    assert errs[0].line == marker_line(PROGRAM, "@dup-impl")
