"""FreeTensor of a tensor that another queue handed out (the FreeTensor / EnQue pages: a tensor goes back to
the queue it came from; CANN checks the owner only in CPU-debug builds). On the NPU FreeTensor frees the
buffer the tensor's handle names and sets the freeing queue's release event, which is the owner's own event
when both queues bind the same positions: the buffer is free again, a `foreign-tensor` warning
(NPUKernelBench's DeepNormGrad frees its mean and rstd tensors each on the other's VECIN queue). A queue of
other positions would set another event: still the `foreign-tensor` error (docs/emulator-rules.md).

A team-written kernel runs three rounds of y[r] = a_r * b_r, each round allocating one buffer from each of
two single-buffer VECIN queues and freeing them swapped; the values are checked with numpy."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline, marker_line

N = 64
ROUNDS = 3

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
constexpr int N = 64, ROUNDS = 3;
__global__ __aicore__ void swap_free(GM_ADDR a, GM_ADDR b, GM_ADDR y, int32_t mode) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qa, qb;
    TQue<TPosition::VECOUT, 1> qy;
    pipe.InitBuffer(qa, 1, N * sizeof(float));
    pipe.InitBuffer(qb, 1, N * sizeof(float));
    pipe.InitBuffer(qy, 1, N * sizeof(float));
    GlobalTensor<float> ga, gb, gy;
    ga.SetGlobalBuffer((__gm__ float *)a, ROUNDS * N);
    gb.SetGlobalBuffer((__gm__ float *)b, ROUNDS * N);
    gy.SetGlobalBuffer((__gm__ float *)y, ROUNDS * N);
    for (int r = 0; r < ROUNDS; ++r) {
        LocalTensor<float> ta = qa.AllocTensor<float>(), tb = qb.AllocTensor<float>();
        DataCopy(ta, ga[r * N], N);
        DataCopy(tb, gb[r * N], N);
        qa.EnQue(ta); qb.EnQue(tb);
        LocalTensor<float> xa = qa.DeQue<float>(), xb = qb.DeQue<float>();
        LocalTensor<float> ty = qy.AllocTensor<float>();
        Mul(ty, xa, xb, N);
        qy.EnQue(ty);
        if (mode == 0) {
            qa.FreeTensor(xb);   // @swapped
            qb.FreeTensor(xa);
        } else {
            qy.FreeTensor(xa);   // @other-kind
        }
        LocalTensor<float> oy = qy.DeQue<float>();
        DataCopy(gy[r * N], oy, N);
        qy.FreeTensor(oy);
    }
}
int main(int argc, char **argv) {
    int32_t mode = argc > 1 ? atoi(argv[1]) : 0;
    float *a = (float *)GmAlloc(ROUNDS * N * sizeof(float));
    float *b = (float *)GmAlloc(ROUNDS * N * sizeof(float));
    float *y = (float *)GmAlloc(ROUNDS * N * sizeof(float));
    FILE *f = fopen("a.bin", "rb"); fread(a, sizeof(float), ROUNDS * N, f); fclose(f);
    f = fopen("b.bin", "rb"); fread(b, sizeof(float), ROUNDS * N, f); fclose(f);
    swap_free<<<1, nullptr, nullptr>>>((uint8_t *)a, (uint8_t *)b, (uint8_t *)y, mode);
    f = fopen("y.bin", "wb"); fwrite(y, sizeof(float), ROUNDS * N, f); fclose(f);
    return 0;
}
"""


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    return build_inline(tmp_path_factory.mktemp("ffree"), "foreign_free.cpp", PROGRAM)


def _inputs(tmp_path):
    rng = np.random.default_rng(16)
    a = rng.uniform(-2, 2, ROUNDS * N).astype(np.float32)
    b = rng.uniform(-2, 2, ROUNDS * N).astype(np.float32)
    a.tofile(tmp_path / "a.bin")
    b.tofile(tmp_path / "b.bin")
    return a, b


def test_a_same_kind_queue_frees_the_buffer_with_a_warning(binary, tmp_path):
    a, b = _inputs(tmp_path)
    r = run(binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr
    warns = [d for d in r.diagnostics if d.code == "foreign-tensor"]
    assert warns and all(d.severity == "warning" for d in warns), r.stderr
    assert warns[0].line == marker_line(PROGRAM, "@swapped")
    # every round allocated again from both single-buffer queues: the swapped frees released both buffers
    np.testing.assert_array_equal(np.fromfile(tmp_path / "y.bin", np.float32), a * b)


def test_a_queue_of_other_positions_stays_the_error(binary, tmp_path):
    _inputs(tmp_path)
    r = run(binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert errs and errs[0].code == "foreign-tensor", r.stderr
    assert errs[0].line == marker_line(PROGRAM, "@other-kind")
