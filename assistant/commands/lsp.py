"""``kgen lsp``: the AscendC language server over stdio (for editors; see lsp/)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lsp", help="run the AscendC language server on stdio (diagnostics, hover, completion, quick fixes)")
    p.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default and only transport)")
    p.set_defaults(handler=cmd_lsp)


def cmd_lsp(args: argparse.Namespace) -> int:
    # lazy: the server's imports (tree-sitter, the symbol table) would cost every other kgen command, and kgen --help
    from lsp.api import serve_stdio

    return serve_stdio()
