"""DataCopy with SliceInfo (kgen_sim/data_copy_slice.h) against numpy: the documented 2-D example shape
(rows of 87 floats; two segments of 3 blocks, 7 elements apart, from element 16; rows 0 and 2) gathered
into a dense [2, 48] tile and scattered back; a 1-D slice; an inconsistent SliceInfo is a located error."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import compiler, run

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, int which) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 96 * 4);
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, 3 * 87);
    gy.SetGlobalBuffer((__gm__ float *)y, 96);
    gz.SetGlobalBuffer((__gm__ float *)z, 3 * 87);
    LocalTensor<float> t = b.Get<float>();
    if (which == 0) {
        SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
        SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
        DataCopy(t, gx, dst, src, 2);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gy, t, 96);
        DataCopy(gz, t, src, dst, 2);          // back to where it came from
    } else if (which == 1) {
        SliceInfo src[] = {{8, 31, 8, 1, 87}};     // two blocks of 8 floats, 8 apart
        SliceInfo dst[] = {{0, 15, 0, 1, 16}};
        DataCopy(t, gx, dst, src);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gy, t, 16);
    } else {
        SliceInfo src[] = {{8, 32, 8, 1, 87}};     // @bad  25 elements: not (N-1)*8 + N*8
        SliceInfo dst[] = {{0, 15, 0, 1, 16}};
        DataCopy(t, gx, dst, src);
    }
}
int main(int argc, char **argv) {
    float *x = (float *)GmAlloc(3 * 87 * 4), *y = (float *)GmAlloc(96 * 4), *z = (float *)GmAlloc(3 * 87 * 4);
    for (int i = 0; i < 3 * 87; ++i) { x[i] = (float)i; z[i] = -1.0f; }
    for (int i = 0; i < 96; ++i) y[i] = -1.0f;
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, (uint8_t *)z, atoi(argv[1]));
    FILE *f = fopen("out.bin", "wb");
    fwrite(y, 4, 96, f);
    fwrite(z, 4, 3 * 87, f);
    fclose(f);
    return 0;
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    d = tmp_path_factory.mktemp("slice")
    (d / "s.cpp").write_text(PROGRAM)
    res = compiler.build([d / "s.cpp"])
    assert res.ok, "\n".join(x.format() for x in res.diagnostics) + res.log[-2000:]
    return res.binary, d


def _out(prog, which):
    exe, d = prog
    r = run(exe, [str(which)], cwd=d, timeout=60)
    assert r.returncode == 0 and not [e for e in r.diagnostics if e.severity == "error"], r.stderr
    o = np.fromfile(d / "out.bin", np.float32)
    return o[:96], o[96:].reshape(3, 87)


def test_two_dimensional_slice_and_back(prog):
    x = np.arange(3 * 87, dtype=np.float32).reshape(3, 87)
    cols = np.r_[16:40, 47:71]
    y, z = _out(prog, 0)
    np.testing.assert_array_equal(y.reshape(2, 48), x[[0, 2]][:, cols])
    want = np.full((3, 87), -1, np.float32)
    want[np.ix_([0, 2], cols)] = x[np.ix_([0, 2], cols)]
    np.testing.assert_array_equal(z, want)


def test_one_dimensional_slice(prog):
    y, _ = _out(prog, 1)
    np.testing.assert_array_equal(y[:16], np.r_[8:16, 24:32].astype(np.float32))


def test_an_inconsistent_slice_is_a_located_error(prog):
    exe, d = prog
    r = run(exe, ["2"], cwd=d, timeout=60)
    errs = [e for e in r.diagnostics if e.severity == "error"]
    assert r.returncode == 3 and errs and errs[0].code == "datacopy-slice", r.stderr
    assert errs[0].line == next(i for i, t in enumerate(PROGRAM.splitlines(), 1) if "@bad" in t) + 2
