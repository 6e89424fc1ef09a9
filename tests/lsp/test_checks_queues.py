"""AllocTensor/EnQue/DeQue/FreeTensor balance per queue."""
from __future__ import annotations

from lsp.actions import apply
from lsp.checks import check_text
from lsp.checks.queues import CODE

DECL = "AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ;\nAscendC::TBuf<> tmp;\n"


def _q(body):
    return [f for f in check_text(DECL + "void f() {\n" + body + "}\n") if f.code == CODE]


def test_balanced_is_quiet():
    assert _q("auto a = inQ.AllocTensor<half>(); inQ.EnQue(a); auto b = inQ.DeQue<half>(); inQ.FreeTensor(b);") == []


def test_missing_free_and_its_fix():
    body = ("    auto a = inQ.AllocTensor<half>();\n    inQ.EnQue(a);\n    auto b = inQ.DeQue<half>();\n"
            "    for (int i = 0; i < 4; ++i) {\n        Use(b, i);\n    }\n    Other();\n")
    (f,) = _q(body)
    assert "inQ" in f.message and "FreeTensor" in f.message
    assert f.fixes[0].title == "Add inQ.FreeTensor(b) after its last use"
    fixed = apply(DECL + "void f() {\n" + body + "}\n", f.fixes[0])
    assert "        Use(b, i);\n    }\n    inQ.FreeTensor(b);\n    Other();\n" in fixed
    assert [g for g in check_text(fixed) if g.code == CODE] == []


def test_missing_free_without_queueing_frees_the_allocation():
    (f,) = _q("    auto a = inQ.AllocTensor<half>();\n    Fill(a);\n")
    assert f.fixes[0].title == "Add inQ.FreeTensor(a) after its last use"


def test_enque_without_deque_and_deque_without_enque():
    (f,) = _q("auto a = inQ.AllocTensor<half>(); inQ.EnQue(a); inQ.FreeTensor(a);")
    assert "EnQue without any DeQue" in f.message
    msgs = [f.message for f in _q("auto b = inQ.DeQue<half>();")]
    assert any("DeQue without any EnQue" in m for m in msgs)


def test_other_objects_are_ignored():
    assert _q("auto t = tmp.Get<half>(); other.AllocTensor<half>();") == []
