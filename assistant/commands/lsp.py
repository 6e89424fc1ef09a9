"""``kgen lsp``: the AscendC language server over stdio (for editors; see lsp/)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lsp", help="run the AscendC language server on stdio (diagnostics, hover, completion, quick fixes)")
    p.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default and only transport)")
    # the server loads the settings itself, in the background, with the editor's options on top (lsp.config):
    # loading them here first would delay the first diagnostics and make a broken config file fatal
    p.set_defaults(handler=cmd_lsp, own_settings=True)


def cmd_lsp(args: argparse.Namespace) -> int:
    # lazy: the server's imports (tree-sitter, the symbol table) would cost every other kgen command, and kgen --help
    from lsp.api import serve_stdio

    return serve_stdio()
