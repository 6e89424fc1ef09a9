"""Unknown AscendC API with "did you mean" (symbol table) and its replace quick fix."""
from __future__ import annotations

from lsp.actions import apply
from lsp.checks import ERROR, WARNING, check_text
from lsp.checks.unknown_api import CODE


def _unknown(text):
    return [f for f in check_text(text) if f.code == CODE]


def test_qualified_call():
    (f,) = _unknown("void f() { AscendC::Expp(z, x, 64); }")
    assert "'Expp'" in f.message and "did you mean 'Exp'" in f.message and f.severity == ERROR
    assert f.fixes[0].title == "Replace 'Expp' with 'Exp'"
    assert apply("void f() { AscendC::Expp(z, x, 64); }", f.fixes[0]) == "void f() { AscendC::Exp(z, x, 64); }"


def test_alias_from_kb():
    (f,) = _unknown("void f() { AscendC::DeQueue<half>(); }")
    assert "did you mean 'DeQue'" in f.message


def test_member_of_queue():
    text = "AscendC::TQue<AscendC::TPosition::VECIN, 2> q;\nvoid f() { auto t = q.AllocTensr<half>(); }"
    (f,) = _unknown(text)
    assert "member of TQue" in f.message and "AllocTensor" in f.message


def test_unknown_type_name():
    (f,) = _unknown("AscendC::LocalTensr<half> t;")
    assert "LocalTensor" in f.message


def test_known_apis_and_local_names_are_quiet():
    text = """using namespace AscendC;
class KernelAdd { public: void Init(); void Process(); };
void Helper() {}
void f() {
    AscendC::LocalTensor<half> t; AscendC::TPipe pipe; KernelAdd op;
    AscendC::DataCopy(t, g, 64); AscendC::Add(t, t, t, 64); op.Init(); op.Process(); Helper();
    pipe.InitBuffer(q, 2, 1024); DataCopy(t, g, 64); printf("x");
}"""
    assert _unknown(text) == []


def test_bare_call_with_using_namespace():
    (f,) = _unknown("using namespace AscendC;\nvoid f() { DataCopyy(t, g, 64); }")
    assert "did you mean 'DataCopy'" in f.message and f.severity == WARNING


def test_bare_call_without_using_is_not_checked():
    assert _unknown("void f() { DataCopyy(t, g, 64); }") == []
