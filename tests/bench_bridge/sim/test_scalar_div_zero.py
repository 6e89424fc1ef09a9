"""Scalar integer division by zero in kernel code does not trap the AI Core (Catlass's BlockGemm computes
`x % 0` for an absent next block and golden answers built on it pass on the NPU): the emulator finishes the
division with quotient 0 and remainder the dividend (the AArch64 convention), warns `scalar-div-zero` on
the kernel's line once, and the kernel goes on. Host code dividing by zero still crashes with a located
`kernel-crash`. Expected values are worked out by hand from that rule."""
from __future__ import annotations

import pytest

from bench_bridge.sim import compiler, run

KERNEL = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
__global__ __aicore__ void k(GM_ADDR io) {
  AscendC::GlobalTensor<int64_t> g; g.SetGlobalBuffer((__gm__ int64_t *)io, 16);
  int64_t a = g.GetValue(0), zero = g.GetValue(1);
  uint32_t ua = (uint32_t)a, uz = (uint32_t)zero;
  int32_t sa = -(int32_t)a, sz = (int32_t)zero;
  g.SetValue(2, a / zero); g.SetValue(3, a % zero);  // @div64
  g.SetValue(4, (int64_t)(ua / uz));
  g.SetValue(5, (int64_t)(ua % uz));
  g.SetValue(6, (int64_t)(sa % sz));
  g.SetValue(7, 1234);                          // the kernel went on
}
int main(int argc, char **) {
  int64_t *io = (int64_t *)AscendC::GmAlloc(128);
  io[0] = 37; io[1] = 0;
  k<<<1, nullptr, nullptr>>>((uint8_t *)io);
  printf("%lld %lld %lld %lld %lld %lld\n", (long long)io[2], (long long)io[3], (long long)io[4], (long long)io[5],
         (long long)io[6], (long long)io[7]);
  if (argc > 1) printf("%d\n", 10 / (int)io[1]);  // host code: still a crash
  AscendC::GmFree(io);
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    src = tmp_path_factory.mktemp("divzero") / "divzero.asc"
    src.write_text(KERNEL)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics)
    return src, res


def test_kernel_division_by_zero_goes_on_with_a_warning(program, tmp_path):
    src, res = program
    r = run(res.binary, cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "37", "0", "37", "-37", "1234"], r.stdout
    warns = [d for d in r.diagnostics if d.code == "scalar-div-zero"]
    line = next(i for i, t in enumerate(KERNEL.splitlines(), 1) if t.rstrip().endswith("@div64"))
    assert warns and warns[0].severity == "warning" and warns[0].file == str(src) and warns[0].line == line, r.stderr


def test_host_division_by_zero_still_crashes(program, tmp_path):
    _, res = program
    r = run(res.binary, ["host"], cwd=str(tmp_path), timeout=60)
    assert r.returncode != 0
    assert any(d.code == "kernel-crash" for d in r.diagnostics), r.stderr
