"""A LocalTensor is an address into UB on hardware: a tensor taken from a TBuf (or a queue) that is
then destroyed stays usable (Catlass keeps the tensor and drops a local TBuf), while a use after
FreeTensor, once the buffer is handed out again, is still reported (`use-after-free`, tensor.h's documented rule)."""
from __future__ import annotations

from bench_bridge.sim import compiler, run

PROGRAM = """#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
// the TBuf is a local of this function: only the tensor leaves it
LocalTensor<float> Scratch(TPipe &pipe, uint32_t bytes) {
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, bytes);
    return buf.Get<float>();
}
LocalTensor<float> FromQueue(TPipe &pipe) {
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    return q.AllocTensor<float>();
}
__global__ __aicore__ void k(GM_ADDR y, uint32_t mode) {
    TPipe pipe;
    GlobalTensor<float> gy; gy.SetGlobalBuffer((__gm__ float *)y, 128);
    LocalTensor<float> a = Scratch(pipe, 256);
    uint64_t pad[64]; for (auto &p : pad) p = 0xdeadbeefu;     // reuse the stack the TBuf lived in
    LocalTensor<float> b = FromQueue(pipe);
    Duplicate(a, 1.5f, 64);
    Duplicate(b, 2.0f, 64);
    PipeBarrier<PIPE_V>();
    Add(a, a, b, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, a, 64);
    if (mode == 1) {
        TQue<TPosition::VECIN, 1> q; pipe.InitBuffer(q, 1, 256);
        LocalTensor<float> t = q.AllocTensor<float>();
        q.FreeTensor(t);
        LocalTensor<float> u = q.AllocTensor<float>();   // the buffer is handed out again
        (void)u;
        DataCopy(gy[64], t, 64);
    }
    (void)pad;
}
int main(int argc, char **argv) {
    uint32_t mode = argc > 1 ? atoi(argv[1]) : 0;
    float *y = (float *)GmAlloc(128 * sizeof(float));
    k<<<1, nullptr, nullptr>>>((uint8_t *)y, mode);
    bool ok = true;
    for (int i = 0; i < 64; ++i) ok = ok && y[i] == 3.5f;     // 1.5 + 2.0
    printf(ok ? "PASS\\n" : "FAIL\\n");
    return 0;
}
"""


def test_tensors_outlive_their_tbuf_and_queue_but_not_free_tensor(tmp_path):
    src = tmp_path / "life.cpp"
    src.write_text(PROGRAM)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr + r.stdout
    assert "PASS" in r.stdout
    r = run(res.binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert errs and errs[0].code == "use-after-free", r.stderr
    assert errs[0].line == PROGRAM.splitlines().index("        DataCopy(gy[64], t, 64);") + 1
