"""Helpers shared by the feature tests that drive the real server over stdio."""
from __future__ import annotations

from pathlib import Path

from tests.lsp.client import LspClient


def pos(text: str, needle: str, delta: int = 0) -> dict:
    """The LSP position (utf-16; ASCII texts) of ``needle`` in ``text`` plus ``delta`` characters."""
    off = text.index(needle) + delta
    return {"line": text.count("\n", 0, off), "character": off - (text.rfind("\n", 0, off) + 1)}


def diagnostics(client: LspClient, path: Path, text: str, source: str = "kgen") -> list[dict]:
    """Open ``text`` as ``path`` and return the first diagnostics published for it from ``source``."""
    uri = path.as_uri()
    client.open(uri, text)
    got = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    return [d for d in got["diagnostics"] if d.get("source") == source]
