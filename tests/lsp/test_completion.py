"""Completion: AscendC APIs with snippet arguments."""
from __future__ import annotations

from lsp.completion import CLASS, complete, items_for, snippet
from lsp.parse import parse


def test_snippets_from_overloads():
    assert snippet("DataCopy", "template <typename T> void DataCopy(const LocalTensor<T>& dst, "
                               "const GlobalTensor<T>& src, const uint32_t count)") == \
        "DataCopy(${1:dst}, ${2:src}, ${3:count})$0"
    assert snippet("AllocTensor", "template <typename T> LocalTensor<T> AllocTensor()") == "AllocTensor<${1:T}>()$0"
    assert snippet("F", "void F(const uint64_t mask[], int n = 3)") == "F(${1:mask}, ${2:n})$0"
    assert snippet("TQue", "template <TPosition pos> class TQue { public:") == "TQue"


def test_items_for_prefix():
    items = {i.label: i for i in items_for("Alloc")}
    assert items["AllocTensor"].snippet == "AllocTensor<${1:T}>()$0"
    assert items["AllocTensor"].documentation
    assert {i.label: i for i in items_for("TQu")}["TQue"].kind == CLASS


def test_contexts():
    text = "void f() {\n    AscendC::Data\n    inQ.\n    \n    GET_TIL\n}\n"
    u = parse(text)
    labels = [i.label for i in complete(u, 1, 17)]
    assert "DataCopy" in labels and "DataCopyPad" in labels
    assert "EnQue" in [i.label for i in complete(u, 2, 8)]          # after '.': every API, members included
    assert complete(u, 3, 4) == []                                    # nothing typed
    assert [i.snippet for i in complete(u, 4, 11) if i.label == "GET_TILING_DATA"] == \
        ["GET_TILING_DATA(${1:var}, ${2:tiling})$0"]
