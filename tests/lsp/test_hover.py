"""Hover: signature and summary from the knowledge base."""
from __future__ import annotations

from lsp.hover import clean_signature, hover, hover_markdown
from lsp.parse import parse


def test_markdown_for_api():
    md = hover_markdown("DataCopyPad")
    assert md.startswith("```cpp\n") and "DataCopyPad(const LocalTensor<T>& dst" in md
    assert "KB page `api/DataCopyPad`" in md and "`AscendC::DataCopyPad`" in md


def test_member_signature_is_cleaned():
    md = hover_markdown("SetGlobalBuffer")
    assert "void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize);" in md
    assert "class GlobalTensor" not in md.split("```")[1]
    assert clean_signature("template <typename T> class X { public: void F(int a)", "F") == "void F(int a)"


def test_hover_at_position():
    u = parse("void f() {\n    AscendC::EnQue(t);\n    myLocal = 1;\n}\n")
    md, span = hover(u, 1, 15)
    assert "EnQue" in md and u.data[span[0]:span[1]] == b"EnQue"
    assert hover(u, 2, 6) is None       # not an API
    assert hover(u, 3, 0) is None       # punctuation
    assert hover(u, 50, 3) is None      # past the end
