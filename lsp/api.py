"""The language server's public face: what ``kgen lsp`` (assistant) starts.

:func:`serve_stdio` runs the server over stdin/stdout until the client exits (the protocol, the
handlers and the commands: docs/lsp.md).
"""
from __future__ import annotations

import logging

from lsp import overloads


def serve_stdio() -> int:
    """Serve LSP on stdin/stdout; returns the exit status (0)."""
    logging.basicConfig(level=logging.WARNING, format="kgen-lsp %(levelname)s %(message)s")
    overloads.warm_up()     # the emulator headers' preprocessor runs while the server's imports load
    # pygls and lsprotocol are imported after the warm-up has started: the preprocessor runs meanwhile
    # lazy: lsp.server's imports (pygls, lsprotocol) cost ~0.65 s (measured), g++ -E ~0.3 s
    from lsp.server import server

    server.start_io()
    return 0


__all__ = ["serve_stdio"]
