"""Kernel entry signature problems: missing __global__/__aicore__/extern "C", a non-void return, and
non-GM_ADDR parameters in a custom-op kernel (allowed in a kernel-launch program); their quick fixes."""
from __future__ import annotations

from lsp.actions import apply
from lsp.checks import ERROR, WARNING, check_text
from lsp.checks.entry import CODE
from tests.lsp.client import ROOT, LspClient
from tests.lsp.stdio import diagnostics, pos

HEAD = '#include "kernel_operator.h"\n'


def _entry(text):
    return [f for f in check_text(text) if f.code == CODE]


def _marked(text, fs):
    return [(text.encode()[f.span[0]:f.span[1]].decode(), f.severity) for f in fs]


def test_a_correct_entry_is_quiet():
    text = HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, __gm__ uint8_t* y, GM_ADDR tiling) {\n' \
                  '    GET_TILING_DATA(t, tiling);\n}\n__aicore__ inline void helper(uint32_t n) {}\n'
    assert _entry(text) == []


def test_return_type_and_missing_aicore():
    text = HEAD + 'extern "C" __global__ int k(GM_ADDR x) { return 0; }\n'
    fs = _entry(text)
    assert _marked(text, fs) == [("int", ERROR), ("k", ERROR)]
    assert "must return void, not 'int'" in fs[0].message and "not __aicore__" in fs[1].message
    fixed = apply(apply(text, fs[0].fixes[0]), _entry(apply(text, fs[0].fixes[0]))[0].fixes[0])
    assert 'extern "C" __global__ __aicore__ void k(GM_ADDR x)' in fixed
    assert _entry(fixed) == []


def test_missing_global_and_extern_c():
    text = HEAD + 'extern "C" __aicore__ void k(GM_ADDR x) {}\n__global__ __aicore__ void j(GM_ADDR x) {}\n'
    fs = _entry(text)
    assert [(m, f.message.split(":")[0]) for (m, _), f in zip(_marked(text, fs), fs)] == [
        ("k", "extern \"C\" __aicore__ function 'k' is not __global__"),
        ("j", "kernel entry 'j' of a custom op is not extern \"C\"")]
    assert fs[1].severity == WARNING
    text2 = apply(text, fs[1].fixes[0])
    text2 = apply(text2, _entry(text2)[0].fixes[0])
    assert 'extern "C" __global__ __aicore__ void k(' in text2 and 'extern "C" __global__ __aicore__ void j(' in text2
    assert _entry(text2) == []


def test_extern_c_block_counts():
    assert _entry(HEAD + 'extern "C" {\n__global__ __aicore__ void k(GM_ADDR x) {}\n}\n') == []


def test_scalar_parameters():
    body = '__global__ __aicore__ void k(GM_ADDR x, uint32_t n, const __gm__ float* y) {}\n'
    fs = _entry(HEAD + 'extern "C" ' + body)
    assert _marked(HEAD + 'extern "C" ' + body, fs) == [("uint32_t n", ERROR), ("const __gm__ float* y", ERROR)]
    assert "parameter 'uint32_t n' of custom-op kernel 'k' is not a GM_ADDR" in fs[0].message
    assert "'const __gm__ float* y'" in fs[1].message
    # a kernel-launch program passes whatever it likes
    launch = HEAD + body + "int main() { k<<<8, nullptr, nullptr>>>(nullptr, 4, nullptr); }\n"
    assert _entry(launch) == []


def test_repo_kernels_are_quiet():
    files = [*ROOT.glob("examples/**/*.asc"), *ROOT.glob("tests/data/projects/**/*.cpp"),
             *ROOT.glob("tests/data/tasks/**/op_kernel/*.cpp")]
    assert len(files) >= 20
    assert {str(p): [f.message for f in _entry(p.read_text())] for p in files if _entry(p.read_text())} == {}


def test_over_stdio_with_quick_fix():
    text = HEAD + 'extern "C" __global__ int k(GM_ADDR x, int32_t n) { return 0; }\n'
    c = LspClient(timeout=30)
    try:
        c.initialize()
        path = ROOT / "tests/lsp/data/entry.cpp"
        diags = [d for d in diagnostics(c, path, text) if d["code"] == CODE]
        assert [d["range"]["start"] for d in diags] == [pos(text, "int k"), pos(text, "k(GM"), pos(text, "int32_t n")]
        p = pos(text, "int k", 1)
        acts = c.request("textDocument/codeAction", {"textDocument": {"uri": path.as_uri()}, "range": {"start": p, "end": p},
                                                     "context": {"diagnostics": []}})
        (act,) = [a for a in acts if a["title"] == "Return void"]
        (edit,) = act["edit"]["changes"][path.as_uri()]
        assert edit["newText"] == "void" and edit["range"]["start"] == pos(text, "int k")
    finally:
        c.close()
