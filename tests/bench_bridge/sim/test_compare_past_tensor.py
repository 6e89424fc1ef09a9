"""Views and reads the NPU allows past a tensor, which the emulator allows with a warning. (1) A mask/repeat
Compare whose mask is partial: on dav-2201 the mask is ignored and the whole repeat is compared, so lanes past a short source tensor read what lies next to it in UB (NPUKernelBench's
CrossEntropyLossGrad compares 8 floats with mask 8, repeat 1). A team-written kernel lays out two 32-byte
TBufs and a neighbour; the 64 result bits are worked out here from that UB layout with numpy. A lane the
mask asks for past the tensor is still ``ub-out-of-bounds``, at the user's line. (2) ``TBuf::Get(len)`` longer
than its buffer (CANN asserts it only in CPU-debug builds): a warning, and a tensor bounded by the buffer."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline, marker_line

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void cmp_k(GM_ADDR y, int32_t mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bc, bm;
    pipe.InitBuffer(ba, 32);
    pipe.InitBuffer(bb, 32);
    pipe.InitBuffer(bc, 256);
    pipe.InitBuffer(bm, 32);
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>(), c = bc.Get<float>();
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    for (int i = 0; i < 8; ++i) { a.SetValue(i, float(i + 1)); b.SetValue(i, (i % 2) ? 0.0f : float(i + 1)); }
    for (int i = 0; i < 64; ++i) c.SetValue(i, float(i % 3));
    Duplicate(m.ReinterpretCast<uint16_t>(), (uint16_t)0, 16);
    BinaryRepeatParams p = {1, 1, 1, 8, 8, 8};
    if (mode == 0) Compare(m, a, b, CMPMODE::EQ, 8, 1, p);
    else Compare(m, a, b, CMPMODE::EQ, 64, 1, p);   // @asks-all
    GlobalTensor<uint8_t> gy;
    gy.SetGlobalBuffer((__gm__ uint8_t *)y, 32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, m, 32);
}
int main(int argc, char **argv) {
    uint8_t *y = (uint8_t *)GmAlloc(32);
    cmp_k<<<1, nullptr, nullptr>>>(y, argc > 1 ? atoi(argv[1]) : 0);
    for (int i = 0; i < 8; ++i) printf("%d ", y[i]);
    printf("\n");
    return 0;
}
"""


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    return build_inline(tmp_path_factory.mktemp("cmp"), "cmp_past.cpp", PROGRAM)


def test_lanes_the_mask_leaves_out_read_the_neighbouring_ub(binary, tmp_path):
    r = run(binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    codes = {d.code for d in r.diagnostics}
    assert codes == {"compare-mask-ignored", "compare-past-tensor"}, r.stderr
    a = np.arange(1, 9, dtype=np.float32)
    b = np.where(np.arange(8) % 2 == 1, 0, a).astype(np.float32)
    c = (np.arange(64) % 3).astype(np.float32)
    ub = np.concatenate([a, b, c])                       # the three buffers, back to back
    bits = ub[0:64] == ub[8:72]
    assert [int(v) for v in r.stdout.split()] == list(np.packbits(bits, bitorder="little"))


def test_a_lane_the_mask_asks_for_past_the_tensor_is_an_error(binary, tmp_path):
    r = run(binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs and errs[0].code == "ub-out-of-bounds", r.stderr
    assert errs[0].line == marker_line(PROGRAM, "@asks-all")


TBUF_PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void long_get(GM_ADDR y, int32_t mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<float> t = b.Get<float>(400);   // @long-get
    Duplicate(t, 1.5f, mode == 0 ? 16 : 24);    // @dup
    GlobalTensor<float> gy;
    gy.SetGlobalBuffer((__gm__ float *)y, 16);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 16);
    printf("size %u\n", t.GetSize());
}
int main(int argc, char **argv) {
    float *y = (float *)GmAlloc(64);
    long_get<<<1, nullptr, nullptr>>>((uint8_t *)y, argc > 1 ? atoi(argv[1]) : 0);
    for (int i = 0; i < 16; ++i) printf("%g ", y[i]);
    printf("\n");
    return 0;
}
"""


def test_tbuf_get_longer_than_its_buffer_warns_and_bounds_the_tensor(tmp_path):
    # GroupNormSwishGrad: Get<float>(C_G*H*W) of a one-channel TBuf, of which it uses one channel
    binary = build_inline(tmp_path, "long_get.cpp", TBUF_PROGRAM)
    r = run(binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    assert [(d.code, d.line) for d in r.diagnostics] == [("tbuf-get-too-long", marker_line(TBUF_PROGRAM, "@long-get"))]
    out = r.stdout.splitlines()
    assert out[0] == "size 16" and out[1].split() == ["1.5"] * 16
    r = run(binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs[0].code == "ub-out-of-bounds" and errs[0].line == marker_line(TBUF_PROGRAM, "@dup")


UNALLOC_PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__aicore__ inline void Maybe(const LocalTensor<float>& extra, const LocalTensor<float>& t, bool use) {
    if (use) Duplicate(extra, 2.0f, 8);   // @access
    Duplicate(t, 1.0f, 8);
}
__global__ __aicore__ void view_k(GM_ADDR y, int32_t mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<float> t = b.Get<float>();
    LocalTensor<float> never;                 // never allocated (AddLayerNormGrad's dSumLocal)
    Maybe(never[8], t, mode == 1);            // @view
    GlobalTensor<float> gy;
    gy.SetGlobalBuffer((__gm__ float *)y, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 8);
}
int main(int argc, char **argv) {
    float *y = (float *)GmAlloc(32);
    view_k<<<1, nullptr, nullptr>>>((uint8_t *)y, argc > 1 ? atoi(argv[1]) : 0);
    printf("%g\n", y[0]);
    return 0;
}
"""


def test_a_view_of_a_tensor_never_allocated_warns_and_its_access_fails(tmp_path):
    # (3) operator[] of a LocalTensor never allocated is an address computation on the NPU
    binary = build_inline(tmp_path, "unalloc_view.cpp", UNALLOC_PROGRAM)
    r = run(binary, ["0"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["1"], r.stderr
    assert [(d.code, d.severity, d.line) for d in r.diagnostics] == [
        ("tensor-unallocated", "warning", marker_line(UNALLOC_PROGRAM, "@view"))]
    r = run(binary, ["1"], cwd=tmp_path, timeout=60)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs[0].code == "tensor-unallocated" and errs[0].line == marker_line(UNALLOC_PROGRAM, "@access")
