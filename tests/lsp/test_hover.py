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
    # the KB's trailing comment of the previous line lands in front of a declaration: dropped
    assert "void SetGlobalBuffer(__gm__ T* buffer);" in md
    assert clean_signature("// blocks of the kernel launch uint32_t GetBlockDim() const", "GetBlockDim") == \
        "uint32_t GetBlockDim() const"
    assert clean_signature("// member of TPipe TEventID FetchEventID(HardEvent evt)", "FetchEventID") == \
        "TEventID FetchEventID(HardEvent evt)"
    assert clean_signature("// ceil(a / b) for integers template <typename T> T AlignUp(T value, T align)", "AlignUp") == \
        "template <typename T> T AlignUp(T value, T align)"
    assert clean_signature("#define ASSERT(cond) // printf-style message", "ASSERT") == "#define ASSERT(cond)"


def test_hover_at_position():
    u = parse("void f() {\n    AscendC::EnQue(t);\n    myLocal = 1;\n}\n")
    md, span = hover(u, 1, 15)
    assert "EnQue" in md and u.data[span[0]:span[1]] == b"EnQue"
    assert hover(u, 2, 6) is None       # not an API
    assert hover(u, 3, 0) is None       # punctuation
    assert hover(u, 50, 3) is None      # past the end
