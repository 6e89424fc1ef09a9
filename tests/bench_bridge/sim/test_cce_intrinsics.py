"""The CCE intrinsic layer that published kernels call under ``#if __CCE_AICORE__ == 220`` (NPUKernelBench
level 2: RmsNorm, DeepNorm, LayerNormV4, AddLayerNorm, ...): ``vcadd`` per repeat and into the accumulator,
``get_acc_val``, ``set_mask_count`` / ``set_mask_norm`` / ``set_vector_mask``, ``vor``, ``vector_dup``,
``copy_ubuf_to_ubuf``, ``vtranspose``, ``set_va_reg_sb`` with ``scatter_vnchwconv_b16``. A team-written
kernel exercises each on random data; the expected values are computed here with numpy (the sums as the
documented pairwise tree, every step in float32). Reading an address register never set stops with a
located ``va-reg-unset``; an address past UB with ``ub-out-of-bounds``; reading the accumulator before
anything set it is a ``reduce-spr-unset`` warning."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline, marker_line

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
// x: 512 floats in; y: 512 floats out (meaning depends on the mode)
__global__ __aicore__ void cce_k(GM_ADDR x, GM_ADDR y, int32_t mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt;
    pipe.InitBuffer(bx, 512 * 4);
    pipe.InitBuffer(by, 512 * 4);
    pipe.InitBuffer(bt, 1024 * 2);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x, 512);
    gy.SetGlobalBuffer((__gm__ float *)y, 512);
    LocalTensor<float> tx = bx.Get<float>(), ty = by.Get<float>();
    DataCopy(tx, gx, 512);
    Duplicate(ty, -1.0f, 512);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) {          // a sum per repeat, first 64 lanes (float: all of them), 4 repeats
        AscendCUtils::SetMask<float>(64);
        vcadd((__ubuf__ float *)ty.GetPhyAddr(), (__ubuf__ float *)tx.GetPhyAddr(), 4, 1, 1, 8, false);
    } else if (mode == 1) {   // counter mode: the first 200 elements into the accumulator
        set_mask_count();
        set_vector_mask(0x0, 200);
        vcadd(nullptr, (__ubuf__ float *)tx.GetPhyAddr(), 1, 1, 1, 8, true);
        set_mask_norm();
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        int64_t acc = get_acc_val();
        ty.SetValue(0, *reinterpret_cast<float *>(&acc));
        int64_t again = GetAccVal();
        ty.SetValue(1, *reinterpret_cast<float *>(&again));
        ty.SetValue(2, GetAccVal<float>());
    } else if (mode == 2) {   // bit mask (even lanes), every other 64-float row, sums 3 apart
        set_vector_mask(0x0, 0x5555555555555555ull);
        vcadd((__ubuf__ float *)ty.GetPhyAddr(), (__ubuf__ float *)tx.GetPhyAddr(), 4, 3, 1, 16, 0);
    } else if (mode == 3) {   // normal mode, accumulate 3 repeats of the first 10 lanes
        AscendCUtils::SetMask<float>(10);
        vcadd(nullptr, (__ubuf__ float *)tx[64].GetPhyAddr(), 3, 1, 1, 8, 1);
        int64_t acc = get_acc_val();
        ty.SetValue(0, *reinterpret_cast<float *>(&acc));
    } else if (mode == 4 || mode == 5) {   // vector_dup, copy_ubuf_to_ubuf, vtranspose, scatter_vnchwconv_b16
        LocalTensor<int16_t> t = bt.Get<int16_t>();
        __ubuf__ int16_t *a = (__ubuf__ int16_t *)t.GetPhyAddr();
        set_vector_mask(0x0, 0xffff);
        vector_dup(a + 512, (int16_t)7, 1, 1, 0, (uint8_t)0, (uint8_t)0);   // 16 lanes of 7
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
        copy_ubuf_to_ubuf((__ubuf__ float *)a, (__ubuf__ float *)tx.GetPhyAddr(), 0, 2, 4, 4, 0);  // blocks 0-3, 8-11
        pipe_barrier(PIPE_V);
        vtranspose((__ubuf__ uint16_t *)(a + 256), (__ubuf__ uint16_t *)a);
        uint64_t dl[8], dh[8], sl[8], sh[8];
        for (int i = 0; i < 8; ++i) {
            dl[i] = (uint64_t)(a + 768 + 16 * i);
            dh[i] = (uint64_t)(a + 768 + 16 * (i + 8));
            sl[i] = (uint64_t)(a + 16 * i);
            sh[i] = (uint64_t)(a + 16 * (i + 8));
        }
        set_va_reg_sb(VA0, dl);
        set_va_reg_sb(VA1, dh);
        set_va_reg_sb(VA2, sl);
        if (mode == 4) set_va_reg_sb(VA3, sh);
        scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);   // @vnchw
        pipe_barrier(PIPE_V);
        LocalTensor<float> tf = t.ReinterpretCast<float>();
        DataCopy(ty, tf, 512);
    } else if (mode == 8) {   // vor: int16 lanes of x with x 128 lanes later, 2 repeats, every other lane
        __ubuf__ int16_t *xs = (__ubuf__ int16_t *)tx.GetPhyAddr();
        set_vector_mask(0x5555555555555555ull, 0x5555555555555555ull);
        vor((__ubuf__ int16_t *)ty.GetPhyAddr(), xs, xs + 128, 2, 1, 1, 1, 8, 8, 8);
        set_vector_mask((uint64_t)-1, (uint64_t)-1);
    } else if (mode == 6) {   // reading the accumulator before anything set it
        int64_t acc = get_acc_val();
        ty.SetValue(0, (float)(acc == 0));
    } else if (mode == 7) {   // an address past UB
        AscendCUtils::SetMask<float>(64);
        vcadd((__ubuf__ float *)ty.GetPhyAddr(), (__ubuf__ float *)(uintptr_t)(1u << 20), 1, 1, 1, 8, false);  // @past-ub
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, ty, 512);
}
int main(int argc, char **argv) {
    int32_t mode = argc > 1 ? atoi(argv[1]) : 0;
    float *x = (float *)GmAlloc(2048), *y = (float *)GmAlloc(2048);
    FILE *f = fopen("x.bin", "rb");
    if (!f || fread(x, 4, 512, f) != 512) return 9;
    fclose(f);
    cce_k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, mode);
    f = fopen("y.bin", "wb");
    fwrite(y, 4, 512, f);
    fclose(f);
    return 0;
}
"""

RNG = np.random.default_rng(16)
X = RNG.standard_normal(512).astype(np.float32)


def tree(v: np.ndarray, lanes: int = 64) -> np.float32:
    """The documented pairwise tree over one repeat's lanes (masked-off lanes are zero), in float32."""
    v = np.concatenate([v.astype(np.float32), np.zeros(lanes - len(v), np.float32)])
    while len(v) > 1:
        v = (v[0::2] + v[1::2]).astype(np.float32)
    return v[0]


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    d = tmp_path_factory.mktemp("cce")
    return build_inline(d, "cce_intrinsics.cpp", PROGRAM)


def _run(binary, tmp_path, mode: int):
    X.tofile(tmp_path / "x.bin")
    r = run(binary, [str(mode)], cwd=tmp_path, timeout=60)
    y = np.fromfile(tmp_path / "y.bin", np.float32) if (tmp_path / "y.bin").exists() else None
    return r, y


def _ok(r):
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity in ("error", "warning")], r.stderr


def test_vcadd_writes_one_tree_sum_per_repeat(binary, tmp_path):
    r, y = _run(binary, tmp_path, 0)
    _ok(r)
    np.testing.assert_array_equal(y[:4], [tree(X[64 * i:64 * i + 64]) for i in range(4)])
    assert (y[4:] == -1).all()


def test_vcadd_in_counter_mode_accumulates_into_the_register(binary, tmp_path):
    r, y = _run(binary, tmp_path, 1)
    _ok(r)
    acc = np.float32(0)
    for k in range(4):   # 200 elements: three whole repeats and a tail of 8, repeats added in order
        s = tree(X[64 * k:min(64 * k + 64, 200)])
        acc = s if k == 0 else np.float32(acc + s)
    # get_acc_val, GetAccVal() and GetAccVal<float>() read the same register
    np.testing.assert_array_equal(y[:3], [acc] * 3)
    assert abs(float(acc) - float(X[:200].astype(np.float64).sum())) < 1e-4


def test_vcadd_with_a_bit_mask_and_strides(binary, tmp_path):
    r, y = _run(binary, tmp_path, 2)
    _ok(r)
    want = np.full(512, -1, np.float32)
    for k in range(4):   # srcRepStride 16 blocks: rows 0, 2, 4, 6; even lanes; dstRepStride 3
        row = X[128 * k:128 * k + 64].copy()
        row[1::2] = 0
        want[3 * k] = tree(row)
    np.testing.assert_array_equal(y, want)


def test_vcadd_accumulates_repeats_of_a_normal_mask(binary, tmp_path):
    r, y = _run(binary, tmp_path, 3)
    _ok(r)
    sums = [tree(X[64 + 64 * k:64 + 64 * k + 10]) for k in range(3)]
    np.testing.assert_array_equal(y[0], np.float32(np.float32(sums[0] + sums[1]) + sums[2]))
    assert y[1] == -1


def test_dup_copy_transpose_and_scatter_vnchwconv(binary, tmp_path):
    r, y = _run(binary, tmp_path, 4)
    _ok(r)
    a = y.view(np.int16)
    xi = X.view(np.int16)
    blocks = np.concatenate([xi[0:64], xi[128:192]])   # copy_ubuf_to_ubuf: 2 bursts of 4 blocks, source gap 4
    np.testing.assert_array_equal(a[:128], blocks)
    square = a[:256].reshape(16, 16)
    np.testing.assert_array_equal(a[256:512].reshape(16, 16), square.T)          # vtranspose
    np.testing.assert_array_equal(a[512:528], [7] * 16)                          # vector_dup, 16 lanes
    np.testing.assert_array_equal(a[768:1024].reshape(16, 16), square.T)        # scatter_vnchwconv_b16


def test_an_address_register_never_set_stops_located(binary, tmp_path):
    r, _ = _run(binary, tmp_path, 5)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs and errs[0].code == "va-reg-unset", r.stderr
    assert errs[0].line == marker_line(PROGRAM, "@vnchw")


def test_reading_the_accumulator_before_anything_set_it_warns(binary, tmp_path):
    r, y = _run(binary, tmp_path, 6)
    assert r.returncode == 0
    assert [d.code for d in r.diagnostics if d.severity == "warning"] == ["reduce-spr-unset"], r.stderr
    assert y[0] == 1


def test_an_address_past_ub_stops_located(binary, tmp_path):
    r, _ = _run(binary, tmp_path, 7)
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert r.returncode == 3 and errs and errs[0].code == "ub-out-of-bounds", r.stderr
    assert errs[0].line == marker_line(PROGRAM, "@past-ub")


def test_vor_with_the_mask_register(binary, tmp_path):
    r, y = _run(binary, tmp_path, 8)
    _ok(r)
    xi, yi = X.view(np.int16), y.view(np.int16)
    want = np.full(512, -1, np.float32).view(np.int16).copy()
    lanes = np.arange(256)
    on = lanes % 2 == 0
    want[:256][on] = (xi[:256] | xi[128:384])[on]
    np.testing.assert_array_equal(yi[:256], want[:256])
