"""Invented or mis-cased names of the high-level APIs fail to compile on the emulator with a
"did you mean" pointing at the real API, and the language server's symbol table (built from the KB
pages) proposes the same real name."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bench_bridge.sim import build
from lsp.checks import check_text
from lsp.checks.unknown_api import CODE

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> t = b.Get<float>();
    %s
}
int main() { return 0; }
"""

CASES = [
    ("AscendC::LogSoftmax<float>(t, t, t, t, b.Get<uint8_t>(), LogSoftMaxTiling{}, SoftMaxShapeInfo{});", "LogSoftmax",
     "LogSoftMax"),
    ("AscendC::SoftMaxFlashV2<float>(t, t, t, t, t, t, t, SoftMaxTiling{}, SoftMaxShapeInfo{});", "SoftMaxFlashV2",
     "SoftmaxFlashV2"),
    ("AscendC::Rmsnorm<float>(t, t, t, 1e-5f, RmsNormTiling{});", "Rmsnorm", "RmsNorm"),
    ("AscendC::Deepnorm<float>(t, t, t, t, t, t, t, 1.0f, 1e-5f, *(DeepNormTiling*)nullptr);", "Deepnorm", "DeepNorm"),
]


@pytest.fixture(scope="module")
def results():
    out = {}
    work = Path(tempfile.mkdtemp(prefix="kgen-adv-names-"))
    for i, (call, bad, _) in enumerate(CASES):
        src = work / f"k{i}.cpp"
        src.write_text(KERNEL % call)
        out[bad] = build([src], use_cache=False)
    return out


@pytest.mark.parametrize("call,bad,good", CASES, ids=[c[1] for c in CASES])
def test_invented_name_fails_with_did_you_mean(results, call, bad, good):
    res = results[bad]
    assert not res.ok
    msgs = " ".join(d.message for d in res.errors)
    assert "did you mean" in msgs and good in msgs, msgs
    (f,) = [f for f in check_text("void f() { " + call + " }") if f.code == CODE]
    assert f"did you mean '{good}'" in f.message
