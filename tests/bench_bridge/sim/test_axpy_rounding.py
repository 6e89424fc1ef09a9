"""Basic Axpy rounds the product to the element type before the add (Muls then Add): the high-level Axpy
page says that API "combines Muls and Add to provide higher precision" than the basic one, so the basic one
is no single-rounding multiply-add (vec_compound.h). Where x + y * a cancels, the two differ by far more than
a last bit: NPUKernelBench's ForeachAddList (half, alpha 3 and 5) matches PyTorch's half `x + y * alpha` only
so. A team-written kernel runs half and float Axpy; numpy's own half/float arithmetic is the reference."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline

N = 256
PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
constexpr int N = 256;
template <typename T>
__global__ __aicore__ void axpy_k(GM_ADDR x, GM_ADDR d, float s) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bd;
    pipe.InitBuffer(bx, N * sizeof(T));
    pipe.InitBuffer(bd, N * sizeof(T));
    GlobalTensor<T> gx, gd;
    gx.SetGlobalBuffer((__gm__ T *)x, N);
    gd.SetGlobalBuffer((__gm__ T *)d, N);
    LocalTensor<T> lx = bx.Get<T>(), ld = bd.Get<T>();
    DataCopy(lx, gx, N);
    DataCopy(ld, gd, N);
    PipeBarrier<PIPE_ALL>();
    Axpy(ld, lx, (T)s, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gd, ld, N);
}
template <typename T>
void go(float s) {
    T *x = (T *)GmAlloc(N * sizeof(T)), *d = (T *)GmAlloc(N * sizeof(T));
    FILE *f = fopen("x.bin", "rb"); fread(x, sizeof(T), N, f); fclose(f);
    f = fopen("d.bin", "rb"); fread(d, sizeof(T), N, f); fclose(f);
    axpy_k<T><<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)d, s);
    f = fopen("z.bin", "wb"); fwrite(d, sizeof(T), N, f); fclose(f);
}
int main(int argc, char **argv) {
    if (atoi(argv[1]) == 16) go<half>(atof(argv[2])); else go<float>(atof(argv[2]));
    return 0;
}
"""


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    return build_inline(tmp_path_factory.mktemp("axpy"), "axpy_round.cpp", PROGRAM)


@pytest.mark.parametrize("dtype, bits", [(np.float16, "16"), (np.float32, "32")])
def test_axpy_is_muls_then_add(binary, tmp_path, dtype, bits):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(N).astype(dtype)
    s = dtype(3.0)
    d = (-(x * s)).astype(dtype)            # cancels the rounded product exactly ...
    d[::2] = (-(x[::2].astype(np.float64) * 3.0 + 1e-3)).astype(dtype)   # ... or nearly
    x.tofile(tmp_path / "x.bin")
    d.tofile(tmp_path / "d.bin")
    r = run(binary, [bits, "3.0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    z = np.fromfile(tmp_path / "z.bin", dtype)
    want = d + x * s                        # numpy: the product rounded to dtype, then the sum
    np.testing.assert_array_equal(z, want)
    fused = (d.astype(np.float64) + x.astype(np.float64) * 3.0).astype(dtype)
    assert (fused != want).any()            # the inputs tell the two rules apart
