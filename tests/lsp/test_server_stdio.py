"""End to end: the real server (``python -m assistant.cli lsp``) over stdio, one session for all
features: diagnostics with "did you mean", hover, completion, code actions, a debounced change."""
from __future__ import annotations

import pytest

from tests.lsp.client import ROOT, LspClient

BUGGY = ROOT / "tests/lsp/data/buggy.asc"


@pytest.fixture(scope="module")
def session():
    c = LspClient(timeout=20)
    try:
        caps = c.initialize()["capabilities"]
        text = BUGGY.read_text()
        uri = BUGGY.as_uri()
        c.open(uri, text)
        diags = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]
        yield c, caps, uri, text, diags
    finally:
        c.close()


def _pos(text: str, needle: str, delta: int = 0) -> dict:
    off = text.index(needle) + delta
    line = text.count("\n", 0, off)
    return {"line": line, "character": off - (text.rfind("\n", 0, off) + 1)}


def test_capabilities(session):
    _, caps, *_ = session
    assert caps["hoverProvider"] and caps["completionProvider"] and caps["codeActionProvider"]


def test_diagnostics_on_open(session):
    _, _, _, text, diags = session
    by_code = {d["code"]: d for d in diags}
    assert set(by_code) == {"unknown-api", "datacopy-unaligned", "queue-balance", "missing-tiling-data"}
    unk = by_code["unknown-api"]
    assert "did you mean 'Exp'" in unk["message"] and unk["severity"] == 1 and unk["source"] == "kgen"
    assert unk["range"]["start"] == _pos(text, "Expp(")
    assert by_code["datacopy-unaligned"]["range"]["start"] == _pos(text, "DataCopy(x, xGm_")
    assert "outZ_" in by_code["queue-balance"]["message"]


def test_hover(session):
    c, _, uri, text, _ = session
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _pos(text, "DataCopy(x", 3)})
    assert r["contents"]["kind"] == "markdown"
    assert "void DataCopy(const LocalTensor<T>& dst" in r["contents"]["value"]
    assert "Unified Buffer" in r["contents"]["value"]
    none = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _pos(text, "KernelBuggy op", 2)})
    assert none is None


def test_completion(session):
    c, _, uri, text, _ = session
    r = c.request("textDocument/completion",
                  {"textDocument": {"uri": uri}, "position": _pos(text, "DataCopy(x, xGm_", 4)})
    items = {i["label"]: i for i in r["items"]}
    assert items["DataCopy"]["insertText"] == "DataCopy(${1:dst}, ${2:src}, ${3:count})$0"
    assert items["DataCopy"]["insertTextFormat"] == 2
    assert "DataCopyPad" in items


def test_code_action_unknown_api(session):
    c, _, uri, text, _ = session
    p = _pos(text, "Expp(", 1)
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": p, "end": p},
                                              "context": {"diagnostics": []}})
    first = r[0]
    assert first["title"] == "Replace 'Expp' with 'Exp'" and first["kind"] == "quickfix" and first["isPreferred"]
    (edit,) = first["edit"]["changes"][uri]
    assert edit["newText"] == "Exp" and edit["range"]["start"] == _pos(text, "Expp(")


def test_code_action_datacopy_pad(session):
    c, _, uri, text, _ = session
    p = _pos(text, "DataCopy(x, xGm_", 2)
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": p, "end": p},
                                              "context": {"diagnostics": []}})
    titles = [a["title"] for a in r]
    assert "Use DataCopyPad (byte-exact length)" in titles
    edits = r[titles.index("Use DataCopyPad (byte-exact length)")]["edit"]["changes"][uri]
    assert [e["newText"] for e in edits][0] == "DataCopyPad"
    assert "DataCopyExtParams(1, static_cast<uint32_t>((TILE) * sizeof(half)), 0, 0, 0)" in edits[1]["newText"]


def test_change_is_debounced_and_rediagnosed(session):
    c, _, uri, text, _ = session
    fixed = text.replace("Expp(", "Exp(")
    for v, t in ((2, text + "\n"), (3, fixed)):      # two quick edits: one publish for the last one
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                            "contentChanges": [{"text": t}]})
    d = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    assert "unknown-api" not in {x["code"] for x in d["diagnostics"]}
    # a malformed document does not kill the server
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                        "contentChanges": [{"text": "}}}{{ AscendC::\x00 <<<< ((( \"unterminated"}]})
    c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 12}})
    assert r is None
    assert c.proc.poll() is None


def test_utf8_position_encoding_is_honoured():
    c = LspClient(timeout=20)
    try:
        res = c.initialize({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
        assert res["capabilities"]["positionEncoding"] == "utf-8"
        uri = (ROOT / "tests/lsp/data/utf8.asc").as_uri()
        text = "void f() { /* é😀 */ AscendC::Expp(z, x, 64); }\n"
        c.open(uri, text)
        (d,) = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]
        assert d["range"]["start"] == {"line": 0, "character": text.encode().index(b"Expp")}
        # an incremental edit in utf-8 units: replace "Expp" by "Exp"
        s = text.encode().index(b"Expp")
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": s}, "end": {"line": 0, "character": s + 4}}, "text": "Exp"}]})
        d = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
        assert d["diagnostics"] == []
    finally:
        c.close()
