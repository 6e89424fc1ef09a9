"""InitBuffer totals over the Unified Buffer (196,608 B on Atlas A2, buffers rounded up to 32 B):
hand-computed totals, the boundary, conditional and unknown sizes left out, and the emulator agrees
(ub-overflow at run time) on the kernel the check flags."""
from __future__ import annotations

from lsp.checks import ERROR, check_text
from lsp.checks.ub import CODE
from tests.lsp.client import ROOT, LspClient
from tests.lsp.stdio import diagnostics, pos

ADD = (ROOT / "examples/add/add.asc").read_text()


def _ub(text):
    return [f for f in check_text(text) if f.code == CODE]


def _add(tile: int) -> str:
    return ADD.replace("constexpr uint32_t TILE = 1024;", f"constexpr uint32_t TILE = {tile};")


def test_three_double_buffered_queues():
    # 3 queues x 2 buffers x TILE halves: 16384 -> 6 x 32768 = 196608 (fits exactly); 16400 -> 6 x 32800 = 196800
    assert _ub(_add(16384)) == []
    (f,) = _ub(_add(16400))
    text = _add(16400)
    assert f.severity == ERROR and "at least 196800 bytes" in f.message and "'pipe_' in Init" in f.message
    # flagged where the running total passes 192 KB: the third InitBuffer (outZ_)
    assert text[f.span[0]:f.span[1]] == "InitBuffer(outZ_, BUFFER_NUM, TILE * sizeof(half))"


def test_rounding_to_32_bytes_and_tbuf():
    k = ("AscendC::TPipe pipe;\nAscendC::TBuf<AscendC::TPosition::VECCALC> a, b;\nAscendC::TQue<AscendC::TPosition::VECIN, 1> q;\n"
         "void f() {{\n    pipe.InitBuffer(q, 4, {n});\n    pipe.InitBuffer(a, 180000);\n    pipe.InitBuffer(b, 100);\n}}\n")
    # 4 x round32(1000)=4 x 1024=4096; + 180000 (already a multiple of 32) = 184096; + round32(100)=128 -> 184224: fits
    assert _ub(k.format(n=1000)) == []
    # 4 x round32(3100)=4 x 3104=12416; + 180000 = 192416; + 128 = 192544 -> fits; 4 x 4100 -> 4 x 4128 = 16512 + 180128 > 196608
    assert _ub(k.format(n=3100)) == []
    (f,) = _ub(k.format(n=4100))
    assert "at least 196640 bytes" in f.message


def test_conditional_and_unknown_sizes_are_left_out():
    k = ("AscendC::TPipe pipe;\nAscendC::TBuf<AscendC::TPosition::VECCALC> a, b;\n"
         "void f(uint32_t n, bool big) {\n    pipe.InitBuffer(a, 150000);\n"
         "    if (big) { pipe.InitBuffer(b, 100000); }\n    pipe.InitBuffer(b, n * 1024);\n}\n")
    assert _ub(k) == []


def test_cube_positions_are_not_unified_buffer():
    # 256 KB in L1 (A1) and 64 KB in L0A (A2) live in their own memories; only the 100 KB VECIN queue is UB
    k = ("AscendC::TPipe pipe;\nAscendC::TQue<AscendC::TPosition::A1, 1> l1;\nAscendC::TBuf<AscendC::TPosition::A2> l0a;\n"
         "AscendC::TQue<AscendC::TPosition::VECIN, 1> q;\n"
         "void f() {{\n    pipe.InitBuffer(l1, 2, 131072);\n    pipe.InitBuffer(l0a, 65536);\n    pipe.InitBuffer(q, 1, {n});\n}}\n")
    assert _ub(k.format(n=102400)) == []
    (f,) = _ub(k.format(n=200000))  # the UB queue alone is over 192 KB
    assert "at least 200000 bytes" in f.message


def test_the_emulator_agrees(tmp_path):
    from bench_bridge.sim import build, run

    src = tmp_path / "add_big.asc"
    src.write_text(_add(16400))
    res = build([str(src)], output=str(tmp_path / "add_big"))
    assert res.ok, [d.format() for d in res.diagnostics]
    r = run(res.binary, cwd=tmp_path, timeout=120)
    assert any(d.code == "ub-overflow" for d in r.diagnostics), [d.format() for d in r.diagnostics]


def test_over_stdio():
    text = _add(16400)
    c = LspClient(timeout=30)
    try:
        c.initialize()
        (d,) = [d for d in diagnostics(c, ROOT / "tests/lsp/data/ub.asc", text) if d["code"] == CODE]
        assert d["range"]["start"] == pos(text, "InitBuffer(outZ_") and d["severity"] == 1
    finally:
        c.close()


def test_repo_kernels_are_quiet():
    files = [*ROOT.glob("examples/**/*.asc"), *ROOT.glob("tests/data/projects/**/*.cpp"),
             *ROOT.glob("tests/data/tasks/**/op_kernel/*.cpp")]
    assert len(files) >= 20
    assert {str(p): [f.message for f in _ub(p.read_text())] for p in files if _ub(p.read_text())} == {}
