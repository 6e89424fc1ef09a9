"""TransDataTo5HD (kgen_sim/trans_5hd.h) against numpy: the documented gather of one position from 16
data blocks -- a 16 x 16 transpose for 2-byte types, two blocks per position for 4-byte types (NCHW ->
NC1HWC0 with C0 = 16), half blocks for 1-byte types (srcHighHalf / dstHighHalf) -- with repeats and their
strides, including the documented quirk that a single repeat is placed at the listed addresses plus the
strides. The three call forms (address arrays, address tensors, tensor arrays) agree."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import compiler, run

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
using namespace AscendC;

template <typename T>
__global__ __aicore__ void k(GM_ADDR in, GM_ADDR out, uint32_t n, int form, int reps, int sstride, int dstride,
                             int srcGap, int hi) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, l;
    pipe.InitBuffer(a, n * sizeof(T));
    pipe.InitBuffer(b, n * sizeof(T));
    pipe.InitBuffer(l, 256);
    GlobalTensor<T> gi, go;
    gi.SetGlobalBuffer((__gm__ T *)in, n);
    go.SetGlobalBuffer((__gm__ T *)out, n);
    LocalTensor<T> src = a.Get<T>(), dst = b.Get<T>();
    DataCopy(src, gi, n);
    DataCopy(dst, gi, n);                       // untouched halves keep the input
    PipeBarrier<PIPE_ALL>();
    const uint32_t blk = 32 / sizeof(T);
    TransDataTo5HDParams p((hi & 2) != 0, (hi & 1) != 0, (uint8_t)reps, (uint16_t)dstride, (uint16_t)sstride);
    if (form == 0) {
        uint64_t d[16], s[16];
        for (int i = 0; i < 16; ++i) { d[i] = dst[blk * i].GetPhyAddr(); s[i] = src[srcGap * i].GetPhyAddr(); }
        TransDataTo5HD<T>(d, s, p);
    } else if (form == 3) {   // the internal entry point with UB "pointers" from GetPhyAddr
        __ubuf__ T *d[16], *s[16];
        __ubuf__ T *dUb = (__ubuf__ T *)dst.GetPhyAddr(), *sUb = (__ubuf__ T *)src.GetPhyAddr();
        for (int i = 0; i < 16; ++i) { d[i] = dUb + blk * i; s[i] = sUb + srcGap * i; }
        TransDataTo5HDImpl<T>(d, s, p);
    } else if (form == 1) {
        LocalTensor<uint64_t> lists = l.Get<uint64_t>();
        for (int i = 0; i < 16; ++i) {
            lists.SetValue(i, dst[blk * i].GetPhyAddr());
            lists.SetValue(16 + i, src[srcGap * i].GetPhyAddr());
        }
        TransDataTo5HD<T>(lists, lists[16], p);
    } else {
        LocalTensor<T> d[16], s[16];
        for (int i = 0; i < 16; ++i) { d[i] = dst[blk * i]; s[i] = src[srcGap * i]; }
        TransDataTo5HD<T>(d, s, p);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(go, dst, n);
}

int main(int argc, char **argv) {
    int bytes = atoi(argv[1]), form = atoi(argv[2]), reps = atoi(argv[3]), ss = atoi(argv[4]), ds = atoi(argv[5]);
    int gap = atoi(argv[6]), hi = atoi(argv[7]);
    uint32_t n = atoi(argv[8]);
    FILE *f = fopen("in.bin", "rb");
    uint8_t *in = (uint8_t *)GmAlloc(n * bytes), *out = (uint8_t *)GmAlloc(n * bytes);
    if (fread(in, bytes, n, f) != n) return 1;
    fclose(f);
    if (bytes == 1) k<int8_t><<<1, nullptr, nullptr>>>(in, out, n, form, reps, ss, ds, gap, hi);
    if (bytes == 2) k<half><<<1, nullptr, nullptr>>>(in, out, n, form, reps, ss, ds, gap, hi);
    if (bytes == 4) k<float><<<1, nullptr, nullptr>>>(in, out, n, form, reps, ss, ds, gap, hi);
    f = fopen("out.bin", "wb");
    fwrite(out, bytes, n, f);
    fclose(f);
    return 0;
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    d = tmp_path_factory.mktemp("t5hd")
    (d / "t5hd.cpp").write_text(PROGRAM)
    res = compiler.build([d / "t5hd.cpp"])
    assert res.ok, "\n".join(x.format() for x in res.diagnostics) + res.log[-2000:]
    return res.binary, d


def _run(prog, x: np.ndarray, form=0, reps=1, ss=0, ds=0, gap=None, hi=0) -> np.ndarray:
    exe, d = prog
    blk = 32 // x.itemsize
    x.tofile(d / "in.bin")
    args = [x.itemsize, form, reps, ss, ds, blk if gap is None else gap, hi, x.size]
    r = run(exe, [str(a) for a in args], cwd=d, timeout=60)
    assert r.returncode == 0 and not [e for e in r.diagnostics if e.severity == "error"], r.stderr
    return np.fromfile(d / "out.bin", x.dtype)


@pytest.mark.parametrize("form", [0, 1, 2, 3])
def test_half_16x16_transpose_in_every_form(prog, form):
    x = np.arange(256, dtype=np.float16)
    np.testing.assert_array_equal(_run(prog, x, form=form).reshape(16, 16), x.reshape(16, 16).T)


def test_float_to_nc1hwc0_with_repeats(prog):
    # 16 channels, H * W = 32 floats: sources at each channel plane (gap 32), 4 repeats of 8 positions,
    # source stride 1 block, destination stride 16 blocks (the page's recipe)
    c, hw = 16, 32
    x = np.random.default_rng(1).standard_normal(c * hw).astype(np.float32)
    out = _run(prog, x, reps=hw // 8, ss=1, ds=16, gap=hw)
    np.testing.assert_array_equal(out.reshape(hw, c), x.reshape(c, hw).T)   # [HW, C0]: C0 = 16 contiguous


def test_int8_halves(prog):
    x = np.random.default_rng(2).integers(-128, 127, 512).astype(np.int8)
    src = x.reshape(16, 32)
    # srcHighHalf: positions 16..31; dstHighHalf: the upper 16 bytes of each destination block
    out = _run(prog, x, hi=3).reshape(16, 32)
    np.testing.assert_array_equal(out[:, 16:], src[:, 16:].T)
    np.testing.assert_array_equal(out[:, :16], src[:, :16])            # the other half is untouched
    out = _run(prog, x, hi=0).reshape(16, 32)
    np.testing.assert_array_equal(out[:, :16], src[:, :16].T)


def test_one_repeat_starts_at_the_addresses_plus_the_strides(prog):
    # repeatTimes = 1 with srcRepStride 1: each source address moves on one block (the page's note)
    x = np.arange(512, dtype=np.float16)
    out = _run(prog, x, reps=1, ss=1, gap=32).reshape(32, 16)
    src = x.reshape(32, 16)                     # 32 blocks of 16; sources are blocks 2i (+1 for the stride)
    np.testing.assert_array_equal(out[:16], src[1::2].T)
