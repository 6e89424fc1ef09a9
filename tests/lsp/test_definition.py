"""Go-to-definition for kernel-local symbols over stdio: locals, parameters, members of the kernel class,
methods, the GET_TILING_DATA variable, and tiling struct fields/names in the project's tiling header."""
from __future__ import annotations

import pytest

from tests.lsp.client import ROOT, LspClient
from tests.lsp.stdio import pos

KERNEL = ROOT / "tests/data/projects/elt_add/op_kernel/elt_add.cpp"
TILING = ROOT / "tests/data/projects/elt_add/op_host/elt_add_tiling.h"
ADD = ROOT / "examples/add/add.asc"


@pytest.fixture(scope="module")
def client():
    c = LspClient(timeout=30)
    try:
        c.initialize()
        for p in (KERNEL, ADD):
            c.open(p.as_uri(), p.read_text())
            c.wait_notification("textDocument/publishDiagnostics", lambda q, p=p: q["uri"] == p.as_uri())
        yield c
    finally:
        c.close()


def _nth(text: str, needle: str, n: int) -> int:
    off = -1
    for _ in range(n + 1):
        off = text.index(needle, off + 1)
    return off


def _goto(c, path, needle, delta=0, n=0):
    text = path.read_text()
    off = _nth(text, needle, n) + delta
    p = {"line": text.count("\n", 0, off), "character": off - (text.rfind("\n", 0, off) + 1)}
    return c.request("textDocument/definition", {"textDocument": {"uri": path.as_uri()}, "position": p})


def _at(path, needle, delta=0):
    p = pos(path.read_text(), needle, delta)
    return {"uri": path.as_uri(), "start": p}


def _loc(r):
    return {"uri": r["uri"], "start": r["range"]["start"]}


def test_member_field_of_the_kernel_class(client):
    # `length_` used in Process -> `uint64_t length_ = 0;` in the class's private section
    assert _loc(_goto(client, KERNEL, "off < length_", 6)) == _at(KERNEL, "length_ = 0;")
    assert _loc(_goto(client, KERNEL, "inX_.AllocTensor")) == _at(KERNEL, "inX_, inY_;")


def test_local_variable_and_parameter(client):
    assert _loc(_goto(client, KERNEL, "n * sizeof(T)), 0")) == _at(KERNEL, "n = static_cast<uint32_t>(length_ - off")
    text = KERNEL.read_text()
    # the parameter `t` of Init
    r = _goto(client, KERNEL, "t.perCore) * AscendC")
    assert _loc(r) == _at(KERNEL, "t)\n")
    assert text[text.index("t)\n")] == "t"


def test_method_through_the_object(client):
    r = _goto(client, KERNEL, "op.Init(", 3)
    assert _loc(r) == _at(KERNEL, "Init(GM_ADDR x")


def test_tiling_variable_and_fields_go_to_the_header(client):
    assert _loc(_goto(client, KERNEL, "tilingData);\n    op.Process", 2)) == _at(KERNEL, "tilingData, tiling);")
    r = _goto(client, KERNEL, "t.totalLength", 3)
    assert _loc(r) == _at(TILING, "totalLength);")
    r = _goto(client, KERNEL, "EltAddTilingData& t", 2)
    assert _loc(r) == _at(TILING, "EltAddTilingData)")


def test_host_setter_goes_to_the_tiling_field():
    from lsp.definition import definition
    from lsp.parse import parse

    host = ROOT / "tests/data/projects/elt_add/op_host/elt_add.cpp"
    text = host.read_text()
    p = pos(text, "set_perCore(", 5)
    d = definition(parse(text), p["line"], p["character"], host)
    assert d is not None and d.path == str(TILING.resolve()) and d.start == tuple(pos(TILING.read_text(), "perCore);").values())


def test_kernel_launch_program(client):
    text = ADD.read_text()
    # a free function / class of the file and a constexpr global
    assert _loc(_goto(client, ADD, "TILE", 1, n=1))["start"] == pos(text, "TILE = ")
    assert _goto(client, ADD, "AscendC::DataCopy", 10) is None     # an AscendC API: not a local symbol
