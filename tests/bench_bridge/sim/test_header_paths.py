"""Install-path headers that kernel-launch programs include instead of kernel_operator.h
(utils/debug/asc_printf.h): a team-written program that only includes that header and acl/acl.h."""
from __future__ import annotations

from bench_bridge.sim import build, run

PROGRAM = r"""
#include "utils/debug/asc_printf.h"
#include "acl/acl.h"

__global__ __vector__ void greet(int base) { printf("block %d says %d\n", AscendC::GetBlockIdx(), base + AscendC::GetBlockIdx()); }

int main() {
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    greet<<<4, nullptr, stream>>>(10);
    aclrtSynchronizeStream(stream);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    return 0;
}
"""


def test_asc_printf_header_gives_device_printf(tmp_path):
    src = tmp_path / "greet.asc"
    src.write_text(PROGRAM)
    res = build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path)
    assert r.ok, r.stderr
    lines = sorted(line for line in r.stdout.splitlines() if line.startswith("block"))
    assert lines == [f"block {b} says {10 + b}" for b in range(4)]
