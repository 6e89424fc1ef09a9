"""Fuzz kgen's language server over stdio: random edits to the real kernels of examples/ with requests
in between; counts crashes (the server process died), unanswered requests (no reply within the
timeout), error responses and tracebacks in the server's log.

    python benchmarks/fuzz_lsp.py [--seed 0] [--count 10000] [--timeout 10] [--max-seconds 1500]

Edits: insertions (AscendC tokens, pieces of other kernels), deletions (within a line, across lines),
truncations, binary junk (NUL, control characters, lone surrogates, non-BMP characters, invalid
UTF-8 read as Latin-1), huge lines (up to 100,000 characters), whole-document replacements, and
positions past the end of a line or of the document (which clients do send). Between edits:
hover, completion, definition and code-action requests at random positions (inside and past the
text), on open and on never-opened documents; diagnostics arrive as notifications and are awaited
every few dozen edits. The client keeps its own copy of each document with pygls's TextDocument
(the server's own model), so every position it sends is one the server can map.

Issue 20 target: 0 crashes, 0 unanswered. The last line is the summary figure."""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lsprotocol import types as T  # noqa: E402
from pygls.workspace import TextDocument  # noqa: E402

from tests.lsp.client import LspClient  # noqa: E402

TOKENS = ["AscendC::", "DataCopy(", "DataCopyPad(", "Add(", "Muls(", "Exp(", "AllocTensor<half>()", "DeQue<float>()",
          "EnQue(", "FreeTensor(", "pipe.InitBuffer(", "TQue<AscendC::TPosition::VECIN, 2>", "LocalTensor<half> ",
          "GlobalTensor<float> ", "{", "}", "(", ")", ";", ",", "\n", "<", ">", "<<<", ">>>", "__aicore__",
          "__global__", "__gm__", "GM_ADDR", "\"", "'", "/*", "*/", "//", "#define N 3\n", "#include \"",
          "#if 0\n", "#endif\n", "template <typename T>", "GET_TILING_DATA(t, tiling);", " 100", "sizeof(half)",
          "\\", "::", "->", ".", "é", "😀", "\t", "\r\n", "\r", "\x00", "\ud800", "\udfff", "\u2028", "\x0c",
          "\ufeff", "operator", "class ", "struct ", "return", "x_.", "inQueueX.", "tiling->"]

KINDS = ("insert", "insert", "insert", "delete", "delete", "delete_lines", "truncate", "junk", "huge_line",
         "replace_all", "past_end")


class Doc:
    """One open document: the client's copy (pygls's own model of the text) and its version."""

    def __init__(self, uri: str, text: str) -> None:
        self.uri = uri
        self.doc = TextDocument(uri, text, version=1)
        self.version = 1

    @property
    def text(self) -> str:
        return self.doc.source

    def apply(self, change: dict) -> None:
        if "range" in change:
            r = change["range"]
            rng = T.Range(start=T.Position(**r["start"]), end=T.Position(**r["end"]))
            self.doc.apply_change(T.TextDocumentContentChangePartial(range=rng, text=change["text"]))
        else:
            self.doc.apply_change(T.TextDocumentContentChangeWholeDocument(text=change["text"]))
        self.version += 1


def utf16_len(s: str) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in s)


def position(doc: Doc, rng: random.Random, past_end: bool = False) -> dict:
    """A random client position (utf-16): on a line and within it, or (past_end) beyond either."""
    lines = doc.doc.lines or [""]
    line = rng.randrange(len(lines))
    width = utf16_len(lines[line].rstrip("\r\n"))
    ch = rng.randrange(width + 1)
    if past_end:
        if rng.random() < 0.5:
            line = len(lines) + rng.randrange(50)
        ch = width + rng.randrange(1, 500)
    return {"line": line, "character": ch}


def ordered(a: dict, b: dict) -> tuple[dict, dict]:
    return (a, b) if (a["line"], a["character"]) <= (b["line"], b["character"]) else (b, a)


def junk(rng: random.Random) -> str:
    n = rng.randrange(1, 200)
    pick = rng.random()
    if pick < 0.4:       # invalid UTF-8 as an editor would show it: bytes read as Latin-1
        return bytes(rng.randrange(256) for _ in range(n)).decode("latin-1")
    if pick < 0.7:       # any code point, surrogates included
        return "".join(chr(rng.randrange(0x110000)) for _ in range(n))
    return "".join(rng.choice(["\x00", "\x01", "\x1b", "\x7f", "\r", "\x0b", "\x85", "\ud800", "😀", "\U0010ffff"])
                   for _ in range(n))


def random_edit(rng: random.Random, doc: Doc, corpus: list[str]) -> tuple[str, dict]:
    kind = rng.choice(KINDS)
    return kind, _edit(kind, rng, doc, corpus)


def _edit(kind: str, rng: random.Random, doc: Doc, corpus: list[str]) -> dict:
    if kind == "replace_all":      # a whole-document change: empty, another kernel, or junk
        r = rng.random()
        text = "" if r < 0.2 else (rng.choice(corpus) if r < 0.8 else junk(rng) * rng.randrange(1, 20))
        return {"text": text}
    a = position(doc, rng)
    if kind == "insert":
        if rng.random() < 0.3:
            src = rng.choice(corpus)
            i = rng.randrange(len(src) + 1)
            new = src[i:i + rng.randrange(400)]
        else:
            new = "".join(rng.choice(TOKENS) for _ in range(rng.randrange(1, 8)))
        return {"range": {"start": a, "end": a}, "text": new}
    if kind == "delete":
        lines = doc.doc.lines or [""]
        width = utf16_len(lines[a["line"]].rstrip("\r\n")) if a["line"] < len(lines) else 0
        b = {"line": a["line"], "character": min(width, a["character"] + rng.randrange(1, 40))}
        return {"range": {"start": a, "end": b}, "text": ""}
    if kind == "delete_lines":
        b = position(doc, rng)
        s, e = ordered(a, b)
        return {"range": {"start": s, "end": e}, "text": ""}
    if kind == "truncate":          # everything from a point to the end
        lines = doc.doc.lines or [""]
        end = {"line": len(lines), "character": 0}
        return {"range": {"start": a, "end": end}, "text": ""}
    if kind == "junk":
        return {"range": {"start": a, "end": a}, "text": junk(rng)}
    if kind == "huge_line":
        piece = rng.choice(["x", "a+", "AscendC::Add(x, y, z, 64); ", "(", "{", "<", "\"", "é", "😀"])
        return {"range": {"start": a, "end": a}, "text": piece * (rng.randrange(1000, 100_000) // len(piece))}
    # past_end: a range that starts or ends beyond the text
    b = position(doc, rng, past_end=True)
    s, e = ordered(a, b)
    return {"range": {"start": s, "end": e}, "text": "".join(rng.choice(TOKENS) for _ in range(rng.randrange(3)))}


REQUESTS = ("textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/codeAction")


def random_request(rng: random.Random, doc: Doc, ghost: str) -> tuple[str, dict]:
    method = rng.choice(REQUESTS)
    uri = ghost if rng.random() < 0.03 else doc.uri
    p = position(doc, rng, past_end=rng.random() < 0.1)
    if method == "textDocument/codeAction":
        q = position(doc, rng, past_end=rng.random() < 0.1)
        s, e = ordered(p, q)
        return method, {"textDocument": {"uri": uri}, "range": {"start": s, "end": e},
                        "context": {"diagnostics": []}}
    params = {"textDocument": {"uri": uri}, "position": p}
    if method == "textDocument/completion" and rng.random() < 0.5:
        params["context"] = {"triggerKind": 2, "triggerCharacter": rng.choice([".", ":", ">"])}
    return method, params


class Fuzz:
    def __init__(self, a) -> None:
        self.a = a
        self.rng = random.Random(a.seed)
        self.kernels = sorted(ROOT.glob("examples/*/*.asc"))
        self.corpus = [p.read_text() for p in self.kernels]
        self.edits = self.requests = self.crashes = self.unanswered = self.errors = 0
        self.diag_waits = self.diag_missing = self.tracebacks = self.restarts = 0
        self.by_kind: dict[str, int] = {}
        self.examples: list[str] = []
        self.client: LspClient | None = None
        self.docs: list[Doc] = []

    def note(self, what: str) -> None:
        if len(self.examples) < 20:
            self.examples.append(what)

    def start(self) -> None:
        self.client = LspClient(timeout=self.a.timeout)
        self.client.stderr_tail = deque(maxlen=20000)
        self.client.initialize({"textDocument": {"publishDiagnostics": {}}})
        self.client.notify("workspace/didChangeConfiguration", {"settings": {"kgen": {"buildOnSave": False}}})
        self.docs = []
        for p in self.kernels:
            # a copy's URI (never the file itself): on-disk paths stay untouched
            uri = (ROOT / "benchmarks" / "fuzz" / p.parent.name / p.name).as_uri()
            d = Doc(uri, p.read_text())
            self.client.open(uri, d.text)
            self.docs.append(d)

    def alive(self) -> bool:
        return self.client is not None and self.client.proc.poll() is None

    def restart(self, why: str) -> None:
        self.crashes += 1
        tail = "\n".join(list(self.client.stderr_tail)[-5:]) if self.client else ""
        self.note(f"crash after edit {self.edits}: {why}; log: {tail}")
        self.tracebacks += self.client.stderr_tracebacks if self.client else 0
        try:
            self.client.close()
        except Exception:   # noqa: BLE001
            pass
        self.restarts += 1
        self.start()

    def step(self) -> None:
        rng, c = self.rng, self.client
        d = rng.choice(self.docs)
        r = rng.random()
        if r < 0.01:         # close and reopen (a fresh document, version 1)
            c.notify("textDocument/didClose", {"textDocument": {"uri": d.uri}})
            text = rng.choice(self.corpus)
            d.doc = TextDocument(d.uri, text, version=1)
            d.version = 1
            c.open(d.uri, text)
            return
        kind, change = random_edit(rng, d, self.corpus)
        d.apply(change)
        if len(d.text) > 300_000:      # keep the session bounded: start this document over
            d.doc = TextDocument(d.uri, rng.choice(self.corpus), version=d.version)
            change = {"text": d.text}
            d.version += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": d.uri, "version": d.version},
                                            "contentChanges": [change]})
        self.edits += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        if rng.random() < 0.25:
            method, params = random_request(rng, d, (ROOT / "benchmarks/fuzz/never-opened.asc").as_uri())
            self.requests += 1
            try:
                c.request(method, params)
            except TimeoutError:
                self.unanswered += 1
                self.note(f"unanswered {method} after edit {self.edits}")
            except RuntimeError as e:
                self.errors += 1
                self.note(f"error response: {e}")
        if self.edits % 50 == 0:        # let the debounced diagnostics come
            self.diag_waits += 1
            try:
                c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == d.uri,
                                    timeout=self.a.timeout)
            except TimeoutError:
                self.diag_missing += 1
                self.note(f"no diagnostics for {d.uri} after edit {self.edits}")
        c.notifications.clear()

    def run(self) -> int:
        t0 = time.monotonic()
        self.start()
        stopped = ""
        while self.edits < self.a.count:
            if time.monotonic() - t0 > self.a.max_seconds:
                stopped = f" (stopped at the {self.a.max_seconds:.0f} s bound)"
                break
            try:
                self.step()
            except (BrokenPipeError, OSError) as e:
                self.restart(f"{type(e).__name__}: {e}")
                continue
            if not self.alive():
                self.restart(f"exit status {self.client.proc.returncode}")
            if self.edits and self.edits % 1000 == 0 and self.a.verbose:
                print(f"  {self.edits} edits, {self.requests} requests, {time.monotonic() - t0:.0f} s", flush=True)
        # the server still answers and its diagnostics come after the last edit
        for d in self.docs:
            self.requests += 1
            try:
                self.client.request("textDocument/hover", {"textDocument": {"uri": d.uri},
                                                           "position": {"line": 0, "character": 0}})
            except TimeoutError:
                self.unanswered += 1
            except RuntimeError as e:
                self.errors += 1
                self.note(f"error response: {e}")
        if not self.alive():
            self.restart("died at the end")
        self.tracebacks += self.client.stderr_tracebacks
        if self.client.stderr_tracebacks:
            self.note("server log: " + " | ".join(list(self.client.stderr_tail)[-8:]))
        if self.a.log:
            Path(self.a.log).write_text("\n".join(self.client.stderr_tail) + "\n", errors="replace")
        self.client.close()
        wall = time.monotonic() - t0
        for e in self.examples:
            print("  -", e[:400])
        print(f"edit kinds: {self.by_kind}; diagnostics awaited {self.diag_waits} times, missing {self.diag_missing}; "
              f"{wall:.0f} s{stopped}")
        print(f"fuzz_lsp: {self.edits} edits, {self.requests} requests, {self.crashes} crashes, "
              f"{self.unanswered} unanswered, {self.errors} error responses, {self.tracebacks} tracebacks in the "
              f"server log (seed {self.a.seed})")
        return 0 if not (self.crashes or self.unanswered or self.errors or self.tracebacks) else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=10000, help="number of edits (default 10000)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each reply (default 10)")
    ap.add_argument("--max-seconds", type=float, default=1500.0, help="stop after this long (default 1500)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--log", metavar="FILE", help="write the server's log (its last 20,000 lines) to FILE")
    return Fuzz(ap.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
