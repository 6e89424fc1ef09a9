"""Cast round mode against the documented Atlas A2 Cast table, and its quick fixes (CAST_NONE on a
pair that must round -> CAST_RINT; a rounding mode on an exact, NONE-only pair -> CAST_NONE). The fixed
cast_hypot example builds and runs correctly on the emulator."""
from __future__ import annotations

from lsp.actions import apply
from lsp.checks import ERROR, check_text
from lsp.checks.cast_mode import CODE
from tests.lsp.client import ROOT, LspClient
from tests.lsp.stdio import diagnostics, pos

K = '''#include "kernel_operator.h"
__aicore__ inline void f(AscendC::LocalTensor<int32_t> i, AscendC::LocalTensor<float> x,
                         AscendC::LocalTensor<half> h, AscendC::LocalTensor<int16_t> s) {
    AscendC::Cast(i, x, AscendC::RoundMode::CAST_NONE, 64);
    AscendC::Cast(x, h, AscendC::RoundMode::CAST_FLOOR, 64);
    AscendC::Cast(h, x, AscendC::RoundMode::CAST_ODD, 64);
    AscendC::Cast<int32_t, half>(i, h, AscendC::RoundMode::CAST_NONE, 64);
    auto y = q.DeQue<float>();
    AscendC::Cast(s, y, AscendC::RoundMode::CAST_TRUNC, 64);
    AscendC::Cast(i, h, AscendC::RoundMode::CAST_TRUNC, 64);
}
'''


def _cast(text):
    return [f for f in check_text(text) if f.code == CODE]


def test_unsupported_modes_are_flagged():
    fs = _cast(K)
    got = [(K.count("\n", 0, f.span[0]), K.encode()[f.span[0]:f.span[1]].decode()) for f in fs]
    # line 3: int32 <- float has no CAST_NONE; line 4: float <- half is exact (NONE only);
    # line 6: int32 <- half (template arguments) has no CAST_NONE; CAST_ODD half <- float, int16 <- float
    # TRUNC and int32 <- half TRUNC are supported
    assert got == [(3, "CAST_NONE"), (4, "CAST_FLOOR"), (6, "CAST_NONE")]
    assert all(f.severity == ERROR for f in fs)
    assert fs[0].message.startswith("Cast float -> int32_t does not support CAST_NONE on Atlas A2")
    assert fs[0].fixes[0].title.startswith("Use CAST_RINT") and fs[1].fixes[0].title.startswith("Use CAST_NONE")


def test_fixes_apply():
    text = K
    for _ in range(5):
        fs = _cast(text)
        if not fs:
            break
        text = apply(text, fs[0].fixes[0])
    assert _cast(text) == []
    assert "Cast(i, x, AscendC::RoundMode::CAST_RINT, 64)" in text and "Cast(x, h, AscendC::RoundMode::CAST_NONE, 64)" in text
    assert "Cast<int32_t, half>(i, h, AscendC::RoundMode::CAST_RINT, 64)" in text


def test_unknown_element_types_are_quiet():
    assert _cast("template <typename T> void f(LocalTensor<T> a, LocalTensor<DTYPE_X> b) {\n"
                 "    AscendC::Cast(a, b, AscendC::RoundMode::CAST_NONE, 64);\n}\n") == []


def test_fixed_example_builds_and_runs(tmp_path):
    from bench_bridge.sim import build, run

    src = (ROOT / "examples/cast_hypot/cast_hypot.asc").read_text()
    broken = src.replace("AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, TILE);",
                         "AscendC::Cast(xf, x, AscendC::RoundMode::CAST_RINT, TILE);")
    assert broken != src
    (f,) = _cast(broken)
    fixed = apply(broken, f.fixes[0])
    assert fixed == src
    p = tmp_path / "cast_hypot.asc"
    p.write_text(fixed)
    res = build([str(p)], output=str(tmp_path / "cast_hypot"))
    assert res.ok, [d.format() for d in res.diagnostics]
    r = run(res.binary, cwd=tmp_path, timeout=60)
    assert r.ok and "PASS" in r.stdout, r.stdout[-2000:]


def test_over_stdio():
    c = LspClient(timeout=30)
    try:
        c.initialize()
        path = ROOT / "tests/lsp/data/cast.asc"
        diags = [d for d in diagnostics(c, path, K) if d["code"] == CODE]
        assert diags[0]["range"]["start"] == pos(K, "CAST_NONE, 64);\n    AscendC::Cast(x, h")
        p = diags[0]["range"]["start"]
        acts = c.request("textDocument/codeAction", {"textDocument": {"uri": path.as_uri()}, "range": {"start": p, "end": p},
                                                     "context": {"diagnostics": []}})
        assert acts[0]["title"].startswith("Use CAST_RINT") and acts[0]["isPreferred"]
        assert acts[0]["edit"]["changes"][path.as_uri()][0]["newText"] == "CAST_RINT"
    finally:
        c.close()


def test_repo_kernels_are_quiet():
    files = [*ROOT.glob("examples/**/*.asc"), *ROOT.glob("tests/data/projects/**/*.cpp"),
             *ROOT.glob("tests/data/tasks/**/op_kernel/*.cpp")]
    assert len(files) >= 20
    assert {str(p): [f.message for f in _cast(p.read_text())] for p in files if _cast(p.read_text())} == {}
