"""The strictness policy (docs/emulator-rules.md): a rule the documentation states but the hardware or
CANN's host code does not enforce is a located warning and the run computes what the NPU would; only
what would fault, hang or corrupt stops the program.

- CANN's tiling helpers log bad arguments (their host assertions print and carry on) and compute their
  sizes anyway: GetAscendAntiQuantMaxMinTmpSize with a 1-D srcShape (K = the first dimension) and
  GetReduceMaxMaxMinTmpSize with isSrcInnerPad = false give the documented sizes plus a warning.
- SoftmaxGradFront with dst = src (the official softmaxgrad example): a warning, and each row's
  sum(grad * src) as the NPU computes it.
- InitBuffer(TBuf, 0) and InitBuffer(queue, num, 0) are empty buffers, not an error.
Expected values are computed here by hand or with numpy.
"""
from __future__ import annotations

import numpy as np

from bench_bridge.sim import compiler, run

HOST = r"""#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "tikicpulib.h"
#include <cstdio>
#include <vector>
using namespace AscendC;
__global__ __aicore__ void empty_tbuf(GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> none, some;
    pipe.InitBuffer(none, 0);                         // @empty
    pipe.InitBuffer(some, 64);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    LocalTensor<int32_t> e = none.Get<int32_t>(), s = some.Get<int32_t>();
    Duplicate(s, (int32_t)e.GetSize(), 8);
    s.SetValue(1, (int32_t)s.GetPhyAddr() - (int32_t)e.GetPhyAddr());   // the empty buffer takes no UB
    TQue<TPosition::VECIN, 1> eq;                     // a queue of one empty buffer
    pipe.InitBuffer(eq, 1, 0);
    LocalTensor<int32_t> qt = eq.AllocTensor<int32_t>();
    s.SetValue(2, (int32_t)qt.GetSize());
    eq.FreeTensor(qt);
    DataCopy(g, s, 8);
}
int main() {
    uint32_t mx = 7, mn = 7;
    std::vector<int64_t> src1d = {4096}, scale = {64};
    GetAscendAntiQuantMaxMinTmpSize(TensorShape(src1d), TensorShape(scale), false, ge::DT_INT8, ge::DT_BF16, mx, mn);  // @antiquant
    printf("antiquant %u %u\n", mx, mn);
    GetAscendAntiQuantMaxMinTmpSize(TensorShape(src1d), TensorShape(scale), false, ge::DT_INT8, ge::DT_FLOAT16, mx, mn);
    printf("antiquant_half %u %u\n", mx, mn);
    std::vector<int64_t> ar = {8, 100};
    GetReduceMaxMaxMinTmpSize(TensorShape(ar), ge::DT_FLOAT, ReducePattern::AR, false, false, mx, mn);  // @reducemax
    printf("reducemax %u %u\n", mx, mn);
    int32_t *o = (int32_t *)GmAlloc(32);
    empty_tbuf<<<1, nullptr, nullptr>>>((uint8_t *)o);
    printf("tbuf %d %d %d\n", o[0], o[1], o[2]);
    return 0;
}
"""


def _line(src: str, marker: str) -> int:
    return next(i for i, t in enumerate(src.splitlines(), 1) if marker in t)


def _values(stdout: str) -> dict[str, list[int]]:
    return {w[0]: [int(x) for x in w[1:]] for w in (l.split() for l in stdout.splitlines()) if w}


def test_tiling_helpers_warn_and_compute_what_cann_does(tmp_path):
    src = tmp_path / "host.cpp"
    src.write_text(HOST)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr
    got = _values(r.stdout)
    # AscendAntiQuant, per channel (64 scales), not transposed, K = 4096 (the first dimension):
    # scale and offset as float (2 x 64 x 4 bytes) plus 64 floats per row of K
    assert got["antiquant"] == [2 * 64 * 4 + 64 * 4096 * 4] * 2
    assert got["antiquant_half"] == [0, 0]          # a half result needs no buffer
    # ReduceMax, AR, float, last axis 100 >= one repeat (64 floats): first * 64 floats
    assert got["reducemax"] == [8 * 64 * 4] * 2
    warns = {(d.code, d.line) for d in r.diagnostics if d.severity == "warning"}
    assert ("quant-tiling", _line(HOST, "@antiquant")) in warns, r.stderr
    assert ("reduce-tiling", _line(HOST, "@reducemax")) in warns, r.stderr
    assert "isSrcInnerPad must be true" in r.stderr and "srcShape has 1 dimension(s)" in r.stderr
    # InitBuffer(TBuf, 0): an empty buffer (0 elements) that takes no UB; InitBuffer(queue, 1, 0) likewise
    assert got["tbuf"] == [0, 0, 0]


FRONT = r"""#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "tikicpulib.h"
using namespace AscendC;
constexpr uint32_t M = 6, K = 64;
__global__ __aicore__ void front(GM_ADDR g, GM_ADDR y, GM_ADDR z, GM_ADDR tl) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bg, by;
    pipe.InitBuffer(bg, M * K * 4);
    pipe.InitBuffer(by, M * K * 4);
    GlobalTensor<float> gg, gy, gz;
    gg.SetGlobalBuffer((__gm__ float *)g, M * K); gy.SetGlobalBuffer((__gm__ float *)y, M * K);
    gz.SetGlobalBuffer((__gm__ float *)z, M * 8);
    LocalTensor<float> tg = bg.Get<float>(), ty = by.Get<float>();
    DataCopy(tg, gg, M * K);
    DataCopy(ty, gy, M * K);
    PipeBarrier<PIPE_ALL>();
    SoftMaxShapeInfo info{M, K, M, K};
    SoftmaxGradFront<float>(ty, tg, ty, *reinterpret_cast<const SoftMaxTiling *>(tl), info);  // @front
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, ty, M * 8);
}
int main() {
    std::vector<int64_t> shape = {M, K};
    optiling::SoftMaxTiling host;
    SoftMaxGradTilingFunc(TensorShape(shape), 4, GetSoftMaxGradMaxTmpSize(TensorShape(shape), 4, true, false), host, true);
    uint8_t *tl = (uint8_t *)GmAlloc(sizeof(SoftMaxTiling));
    host.SaveToBuffer(tl, sizeof(SoftMaxTiling));
    float *g = (float *)GmAlloc(M * K * 4), *y = (float *)GmAlloc(M * K * 4), *z = (float *)GmAlloc(M * 8 * 4);
    FILE *f = fopen("in.bin", "rb");
    if (fread(g, 4, M * K, f) != M * K || fread(y, 4, M * K, f) != M * K) return 1;
    fclose(f);
    front<<<1, nullptr, nullptr>>>((uint8_t *)g, (uint8_t *)y, (uint8_t *)z, tl);
    f = fopen("out.bin", "wb");
    fwrite(z, 4, M * 8, f);
    fclose(f);
    return 0;
}
"""


def test_softmax_grad_front_in_place_warns_and_computes_each_row(tmp_path):
    rng = np.random.default_rng(5)
    g = rng.uniform(-1, 1, (6, 64)).astype(np.float32)
    y = rng.uniform(-1, 1, (6, 64)).astype(np.float32)
    np.concatenate([g.ravel(), y.ravel()]).tofile(tmp_path / "in.bin")
    src = tmp_path / "front.cpp"
    src.write_text(FRONT)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr
    (w,) = [d for d in r.diagnostics if d.code == "operand-in-place"]
    assert w.severity == "warning" and w.line == _line(FRONT, "@front")
    out = np.fromfile(tmp_path / "out.bin", np.float32).reshape(6, 8)
    want = (g.astype(np.float64) * y).sum(-1)
    np.testing.assert_allclose(out, np.repeat(want[:, None], 8, 1), rtol=1e-5, atol=1e-5)
