"""Fuzz: thousands of random edits (incremental re-parse, checks, hover, completion, code actions at
random positions) never raise; the incremental tree agrees with a fresh parse; and the real server
survives a burst of random incremental edits over stdio and still answers."""
from __future__ import annotations

import random
import time

from lsp.actions import actions
from lsp.checks import run
from lsp.completion import complete
from lsp.hover import hover
from lsp.parse import parse, reparse
from tests.lsp.client import ROOT, LspClient

SEED_TEXT = (ROOT / "tests/lsp/data/buggy.asc").read_text()
TOKENS = ["AscendC::", "DataCopy(", "Expp", "inX_.", "AllocTensor<half>()", "{", "}", "(", ")", ";", "\n", "<", ">",
          "__aicore__", "__global__", "<<<", ">>>", "\"", "'", "/*", "*/", "//", "#define N 3\n", "é", "😀", "\t",
          "GET_TILING_DATA(t, tiling);", " 100", "sizeof(half)", "\\", "::", "->", "\x00", "\ud800"]


def _random_edit(rng: random.Random, text: str):
    lines = text.split("\n")
    l0 = rng.randrange(len(lines) + 1)
    c0 = rng.randrange(len(lines[l0]) + 2) if l0 < len(lines) else rng.randrange(3)
    if rng.random() < 0.5:
        l1, c1 = l0, c0
    else:
        l1 = min(len(lines), l0 + rng.randrange(3))
        c1 = rng.randrange(len(lines[l1]) + 2) if l1 < len(lines) else 0
        if (l1, c1) < (l0, c0):
            l1, c1 = l0, c0
    new = "".join(rng.choice(TOKENS) for _ in range(rng.randrange(4))) if rng.random() < 0.7 else ""
    return ((l0, c0), (l1, c1)), new


def test_random_edits_pure():
    rng = random.Random(1234)
    unit = parse(SEED_TEXT)
    t0 = time.monotonic()
    for i in range(2500):
        if len(unit.text) > 6000 or rng.random() < 0.005:
            unit = parse(SEED_TEXT)
        rng_, new = _random_edit(rng, unit.text)
        unit = reparse(unit, [(rng_, new)])
        findings = run(unit)
        line, ch = rng.randrange(60), rng.randrange(120)
        hover(unit, line, ch)
        complete(unit, line, ch)
        off = unit.offset(line, ch)
        actions(unit, off, off + rng.randrange(50), findings)
        if i % 50 == 0:      # the incrementally edited tree is the tree of the text
            fresh = parse(unit.text)
            assert fresh.data == unit.data
            if not fresh.has_errors():
                assert str(fresh.tree.root_node) == str(unit.tree.root_node)
                assert [(f.span, f.code) for f in run(fresh)] == [(f.span, f.code) for f in findings]
    assert time.monotonic() - t0 < 40


def test_random_edits_server_stdio():
    rng = random.Random(99)
    c = LspClient(timeout=20)
    try:
        c.initialize()
        uri = (ROOT / "tests/lsp/data/fuzz.asc").as_uri()
        text = SEED_TEXT
        c.open(uri, text)
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
        for v in range(2, 402):
            (s, e), new = _random_edit(rng, text)
            # keep the client's copy in step: clamp like a real editor would (positions inside the text)
            lines = text.split("\n")
            s = (min(s[0], len(lines) - 1), min(s[1], len(lines[min(s[0], len(lines) - 1)])))
            e = (min(e[0], len(lines) - 1), min(e[1], len(lines[min(e[0], len(lines) - 1)])))
            if e < s:
                e = s
            new = new.replace("\ud800", "?").replace("😀", "x")   # keep UTF-16 == code points for the model
            def off(p):
                return sum(len(line) + 1 for line in lines[:p[0]]) + p[1]
            text = text[:off(s)] + new + text[off(e):]
            c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": v},
                "contentChanges": [{"range": {"start": {"line": s[0], "character": s[1]},
                                              "end": {"line": e[0], "character": e[1]}}, "text": new}]})
            if v % 40 == 0:
                c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": rng.randrange(40), "character": rng.randrange(40)}})
        # the server is alive, and its final diagnostics are those of the text we think it has
        d = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=20)
        want = [f.message for f in run(parse(text))]
        got = [x["message"] for x in d["diagnostics"]]
        if got != want:   # an earlier debounced publish may still be queued: take the last one
            c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
            d = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=20)
            got = [x["message"] for x in d["diagnostics"]]
        assert got == want
        assert c.proc.poll() is None
    finally:
        c.close()
