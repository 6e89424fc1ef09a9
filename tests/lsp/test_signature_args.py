"""Wrong argument count against the known overloads (emulator headers first, then the KB).

Expected arities are the documented AscendC signatures, counted by hand: DataCopy(dst, src, count |
params) takes 3 (and 4-5 with SliceInfo arrays and a dimension count); basic Exp(dst, src, count) 3 (and the advanced forms up to 5); Adds(dst, src, scalar,
count) 4 or the mask/repeat form 6; TPipe::InitBuffer(que, num, len) 3 or (buf, len) 2; TQue::EnQue(t) 1.
"""
from __future__ import annotations

from pathlib import Path

from lsp.checks import ERROR, WARNING, check_text
from lsp.checks.signature_args import CODE
from lsp.overloads import Arity, free_arities, member_arities
from tests.lsp.client import ROOT, LspClient
from tests.lsp.stdio import diagnostics, pos

KERNEL = '''#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Run() {
        LocalTensor<half> x = inQ.AllocTensor<half>();
        AscendC::DataCopy(x, xGm, 64, 1, 2, 3);
        AscendC::Exp(x, x);
        Adds(x, x, (half)1.0);
        pipe.InitBuffer(inQ, 2, 1024, 5);
        inQ.EnQue(x, x);
        AscendC::DataCopy(x, xGm, 64);
        AscendC::Exp(x, x, 64);
        Adds(x, x, (half)1.0, 64);
        pipe.InitBuffer(inQ, 2, 1024);
        pipe.InitBuffer(tmp, 1024);
        inQ.EnQue(x);
        x = inQ.DeQue<half>();
        inQ.FreeTensor(x);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<QuePosition::VECCALC> tmp;
    GlobalTensor<half> xGm;
};
'''


def _wrong(text):
    return [f for f in check_text(text) if f.code == CODE]


def test_overload_table_has_the_emulator_overloads_the_kb_misses():
    # Power: tensor^tensor with or without a temporary buffer and count (3, 4 or 5 arguments)
    assert {Arity(3, 3), Arity(4, 4), Arity(5, 5)} <= free_arities("Power")
    assert Arity(2, 2) in free_arities("Log10") and Arity(5, 5) in free_arities("Select")
    assert member_arities("TPipe", "InitBuffer") >= {Arity(2, 2), Arity(3, 3)}
    assert Arity(0, 0) in free_arities("GetBlockIdx")


def test_wrong_counts_are_flagged_and_right_ones_are_not():
    fs = _wrong(KERNEL)
    got = [(KERNEL.encode()[f.span[0]:f.span[1]].decode(), KERNEL.count("\n", 0, f.span[0]), f.severity) for f in fs]
    assert got == [("DataCopy", 6, ERROR), ("Exp", 7, ERROR), ("Adds", 8, WARNING), ("InitBuffer", 9, ERROR),
                   ("EnQue", 10, ERROR)]
    msg = {KERNEL.encode()[f.span[0]:f.span[1]].decode(): f.message for f in fs}
    assert msg["DataCopy"] == "AscendC::DataCopy called with 6 arguments; its overloads take 3 or 4-5 arguments"  # 4-5: SliceInfo
    assert msg["InitBuffer"] == "TPipe::InitBuffer called with 4 arguments; its overloads take 2 or 3 arguments"
    assert "Adds called with 3 arguments" in msg["Adds"] and "4" in msg["Adds"] and "6" in msg["Adds"]


def test_functions_of_the_file_shadow_the_api():
    text = "using namespace AscendC;\nvoid Adds(int a) {}\nvoid f() { Adds(1); }\n"
    assert _wrong(text) == []


def _corpus() -> list[Path]:
    files = [*ROOT.glob("examples/**/*.asc"), *ROOT.glob("examples/**/*.cpp")]
    files += [*ROOT.glob("tests/data/projects/**/*.cpp"), *ROOT.glob("tests/data/projects/**/*.h"),
              *ROOT.glob("tests/data/tasks/**/*.cpp")]
    return sorted(files)


def test_no_false_positives_on_the_repo_kernels():
    files = _corpus()
    assert len(files) >= 20
    bad = {str(p.relative_to(ROOT)): [f.message for f in _wrong(p.read_text())] for p in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_over_stdio():
    c = LspClient(timeout=30)
    try:
        c.initialize()
        diags = [d for d in diagnostics(c, ROOT / "tests/lsp/data/args.asc", KERNEL) if d["code"] == CODE]
        assert [d["range"]["start"] for d in diags] == [pos(KERNEL, "DataCopy(x, xGm, 64, 1, 2, 3)"), pos(KERNEL, "Exp(x, x);"),
                                                        pos(KERNEL, "Adds(x, x, (half)1.0);"),
                                                        pos(KERNEL, "InitBuffer(inQ, 2, 1024, 5)"), pos(KERNEL, "EnQue(x, x)")]
        assert [d["severity"] for d in diags] == [1, 1, 2, 1, 1]
    finally:
        c.close()
