"""InitBuffer lengths are rounded up to 32 bytes, as on hardware (pipe.h: "each rounded up to 32
bytes"): a queue or TBuf asked for 4 or 12 bytes holds a whole 32-byte block, so a 32-byte DataCopy
into it is in bounds (NPUKernelBench's Arange copies 32 bytes into a 4-byte buffer); 33 bytes still
take 64, and a copy past the rounded length is still an out-of-bounds error."""
from __future__ import annotations

import subprocess

from bench_bridge.sim import compiler, run

PROGRAM = """#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t copyElems) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(q, 1, 4);          // 4 bytes asked: 32 on hardware
    pipe.InitBuffer(b, 12);            // 12 bytes asked: 32 on hardware
    GlobalTensor<int32_t> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ int32_t *)x, 64); gy.SetGlobalBuffer((__gm__ int32_t *)y, 64);
    gz.SetGlobalBuffer((__gm__ int32_t *)z, 64);
    LocalTensor<int32_t> t = q.AllocTensor<int32_t>();
    DataCopy(t, gx, copyElems);
    q.EnQue(t);
    t = q.DeQue<int32_t>();
    DataCopy(gy, t, copyElems);
    q.FreeTensor(t);
    LocalTensor<int32_t> s = b.Get<int32_t>();
    DataCopy(s, gx[8], 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, s, 8);
}
int main(int argc, char **argv) {
    uint32_t n = argc > 1 ? atoi(argv[1]) : 8;
    int32_t *x = (int32_t *)GmAlloc(256), *y = (int32_t *)GmAlloc(256), *z = (int32_t *)GmAlloc(256);
    for (int i = 0; i < 64; ++i) { x[i] = 100 + 3 * i; y[i] = -1; z[i] = -1; }
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, (uint8_t *)z, n);
    bool ok = true;
    for (int i = 0; i < 8; ++i) ok = ok && y[i] == 100 + 3 * i && z[i] == 100 + 3 * (i + 8);
    printf(ok ? "PASS\\n" : "FAIL\\n");
    return 0;
}
"""


def test_a_32_byte_copy_fits_a_4_byte_queue_buffer_and_a_12_byte_tbuf(tmp_path):
    src = tmp_path / "round.cpp"
    src.write_text(PROGRAM)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, ["8"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr + r.stdout
    assert "PASS" in r.stdout
    # 16 int32 = 64 bytes: past the 32-byte buffer, an error on the DataCopy line
    r = run(res.binary, ["16"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert errs and errs[0].line == PROGRAM.splitlines().index("    DataCopy(t, gx, copyElems);") + 1, r.stderr
