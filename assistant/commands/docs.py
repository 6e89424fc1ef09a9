"""``kgen docs QUERY`` and ``kgen index [PATH]``: the AscendC knowledge base from the command line."""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import textwrap
import time

from assistant.commands.common import usage_error

EMBEDDER_HELP = "embedder: hash or minilm (default: the docs.embedder setting, KGEN_EMBEDDER, or hash)"


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("docs", help="search the AscendC knowledge base (and any docs you indexed)")
    d.add_argument("query", nargs="+", metavar="QUERY", help="words, an API name or an error message")
    d.add_argument("-k", type=int, default=5, metavar="N", help="number of passages (default 5)")
    d.add_argument("--json", action="store_true", help="print a JSON list of passages")
    d.add_argument("--embedder", metavar="NAME", help=EMBEDDER_HELP)
    d.add_argument("--mode", choices=("hybrid", "lexical", "vector"), default="hybrid", help=argparse.SUPPRESS)
    d.set_defaults(handler=cmd_docs)

    i = sub.add_parser("index", help="index a folder of markdown docs or a CANN include tree (no PATH: the shipped KB)")
    i.add_argument("path", nargs="?", metavar="PATH", help="markdown folder, header tree, or one file")
    i.add_argument("--rebuild", action="store_true", help="drop what was indexed from PATH (or everything) first")
    i.add_argument("--embedder", metavar="NAME", help=EMBEDDER_HELP)
    i.set_defaults(handler=cmd_index)


class _Progress:
    """A progress bar on a terminal; a plain line per step otherwise."""

    def __init__(self, label: str) -> None:
        self.tty = sys.stderr.isatty()
        self.label = label
        self.last = 0.0

    def __call__(self, done: int, total: int, key: str) -> None:
        if total == 0:
            return
        if self.tty:
            width = max(10, min(40, shutil.get_terminal_size((80, 20)).columns - 40))
            fill = int(width * done / total)
            sys.stderr.write(f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} pages")
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        elif done >= total or time.monotonic() - self.last > 2.0:
            self.last = time.monotonic()
            print(f"{self.label}: {done}/{total} pages", file=sys.stderr)


def _unknown_names(query: str) -> list[tuple[str, list[str]]]:
    """Names a compiler message says do not exist ("no member named 'X'"), with the nearest real APIs."""
    # lazy: retrieval (~0.3 s to import: the KB, BM25, the symbol table) only for kgen docs / kgen index
    from retrieval import symbols

    out = []
    for m in re.finditer(r"no member named '(\w+)'|undeclared identifier '(\w+)'", query):
        name = m.group(1) or m.group(2)
        if not symbols.lookup(name) or symbols.lookup(name).name != name:
            out.append((name, symbols.nearest(name)))
    return out


def cmd_docs(args: argparse.Namespace) -> int:
    # lazy: retrieval (~0.3 s to import: the KB, BM25, the symbol table) only for kgen docs / kgen index
    import retrieval
    from retrieval import SettingsError   # lazy: as above

    query = " ".join(args.query).strip()
    if not query:
        return usage_error("empty query")
    if args.k < 1:
        return usage_error("-k must be at least 1")
    try:
        # lazy: Chroma is imported and opened only when the search needs vectors (not for an API name)
        idx = retrieval.open_index(args.embedder, progress=_Progress("indexing the knowledge base"), lazy=True)
    except SettingsError as e:
        return usage_error(str(e))
    except RuntimeError as e:
        return usage_error(str(e))
    hits = idx.search(query, k=args.k, mode=args.mode)
    unknown = _unknown_names(query)
    near = idx.suggest(query) if not unknown else []
    if near:                 # "Addd": a misspelled API name
        unknown = [(query, near)]
    if args.json:
        for name, near in unknown:   # stdout stays a JSON list; the hint goes to stderr
            print(f"kgen: '{name}' is not an AscendC API" + (f"; did you mean: {', '.join(near)}" if near else ""),
                  file=sys.stderr)
        print(json.dumps([h.to_dict() for h in hits], ensure_ascii=False, indent=1))
        return 0
    for name, near in unknown:
        print(f"'{name}' is not an AscendC API" + (f"; did you mean: {', '.join(near)}" if near else ""))
        print()
    if not hits:
        print("no matching passage", file=sys.stderr)
        return 1
    # lazy: retrieval (~0.3 s to import: the KB, BM25, the symbol table) only for kgen docs / kgen index
    from retrieval.api import cjk_share

    chinese = cjk_share(query) > 0.3      # a mostly Chinese question: each page's Chinese summary first
    for n, h in enumerate(hits, 1):
        head = h.title + (f" — {h.section}" if h.section else "")
        print(f"[{n}] {head}  ({h.source})")
        if chinese and h.summary_zh:
            print(f"    {h.summary_zh}")
        text = h.text if len(h.text) <= 1200 else h.text[:1200].rsplit("\n", 1)[0] + "\n…"
        print(textwrap.indent(text, "    "))
        print()
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    # lazy: retrieval (~0.3 s to import: the KB, BM25, the symbol table) only for kgen docs / kgen index
    from retrieval.api import Index, IngestError, SettingsError, embedder_name, index_dir, index_path

    try:
        name = embedder_name(args.embedder)
    except SettingsError as e:
        return usage_error(str(e))
    t0 = time.perf_counter()
    try:
        if args.path is None:
            if args.rebuild:
                shutil.rmtree(index_dir(name), ignore_errors=True)
            idx = Index.open(name, progress=_Progress("indexing the knowledge base"), sync_kb=False)
            stats = idx.sync_kb(progress=_Progress("indexing the knowledge base"), force=True)
            print(f"kgen: knowledge base indexed: {stats.summary()}; {len(idx)} passages in {index_dir(name)}")
            return 0
        kind, stats = index_path(args.path, embedder=name, rebuild=args.rebuild,
                                           progress=_Progress(f"indexing {args.path}"))
    except (IngestError, SettingsError) as e:
        return usage_error(str(e))
    except RuntimeError as e:
        return usage_error(str(e))
    print(f"kgen: indexed {args.path} ({kind}): {stats.summary()} [{time.perf_counter() - t0:.1f} s total]")
    return 0
