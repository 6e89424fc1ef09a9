"""APIs documented as Ascend 950 (dav-3510) only (BitwiseAnd, Clamp, Fma, LogicalAnd, Rint, Where, Interleave):
a dav-2201 kernel calling one fails to build with a message that names the architecture and the
dav-2201 alternative, instead of a bare "is not a member of AscendC". One real g++ build."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bench_bridge.sim import build

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> a = b.Get<float>();
    Fma(a, a, a, a, 64);
    Where(a, a, a, a, 64);
    Interleave(a, a[64], a[128], a[192], 64);
}
int main() { return 0; }
"""


@pytest.fixture(scope="module")
def result():
    d = Path(tempfile.mkdtemp(prefix="kt-a950-"))
    (d / "k.cpp").write_text(SRC)
    return build([d / "k.cpp"], output=d / "k")


def test_build_fails_with_the_reason(result):
    assert not result.ok
    text = result.log + "\n".join(e.message for e in result.errors)
    assert "Fma is an Ascend 950 (dav-3510) API" in text and "MulAddDst" in text
    assert "Where is an Ascend 950 (dav-3510) API" in text
    assert "Interleave is an Ascend 950 (dav-3510) API" in text   # basic API, same product table
    assert "is not a member" not in text


def test_errors_point_at_the_calls(result):
    where = {(Path(e.file).name, e.line) for e in result.errors}
    assert ("k.cpp", 9) in where and ("k.cpp", 10) in where  # the Fma and Where lines of SRC
