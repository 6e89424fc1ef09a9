"""utils/debug/asc_dump.h: asc_dump_gm / asc_dump_ubuf print the elements at the address with the tag
(the documented dump of a memory), checked against the values the program wrote; a dump past UB is a
located error."""
from __future__ import annotations

from bench_bridge.sim import compiler, run

PROGRAM = r"""#include "kernel_operator.h"
#include "utils/debug/asc_dump.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, int bad) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 2.5f, 16);
    asc_dump_gm<int32_t>((__gm__ int32_t *)x, 7, 4);
    asc_dump_ubuf<float>((__ubuf__ float *)t[8].GetPhyAddr(), 9, 3);
    if (bad) asc_dump_ubuf<float>((__ubuf__ float *)(uintptr_t)196600, 1, 8);   // @past
}
int main(int argc, char **argv) {
    int32_t *x = (int32_t *)GmAlloc(32);
    for (int i = 0; i < 8; ++i) x[i] = 10 * i;
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, atoi(argv[1]));
    return 0;
}
"""


def test_dumps_print_the_tagged_elements(tmp_path):
    (tmp_path / "d.cpp").write_text(PROGRAM)
    res = compiler.build([tmp_path / "d.cpp"])
    assert res.ok, "\n".join(x.format() for x in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stdout.splitlines() if l.startswith("DumpTensor")]
    assert "desc=7 GM size=4 data=[0, 10, 20, 30]" in lines[0]
    assert "desc=9 UB size=3 data=[2.5, 2.5, 2.5]" in lines[1]
    r = run(res.binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [e for e in r.diagnostics if e.severity == "error"]
    assert r.returncode == 3 and errs[0].code == "ub-out-of-bounds"
    assert errs[0].line == next(i for i, t in enumerate(PROGRAM.splitlines(), 1) if "@past" in t)
