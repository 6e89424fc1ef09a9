"""kgen's AscendC knowledge base, doc ingestion, Chroma index and symbol table.

The API the agent, the LSP and the CLI use::

    from retrieval import search, symbols
    for p in search("how do I copy a non-aligned tail", k=5):
        print(p.page, p.section, p.source, p.text)
    symbols.lookup("DataCopyPad"); symbols.nearest("DataCopyAsync")

The index lives under the XDG data dir (``$KGEN_DATA_DIR`` overrides); it is built on first use
and rebuilt, with a message on stderr, when it is missing or unreadable.
"""
from __future__ import annotations

from pathlib import Path

from retrieval import symbols
from retrieval.chunking import Passage
from retrieval.settings import KB_ROOT, DocsSettings, SettingsError, data_dir, default_data_dir, embedder_name
from retrieval.settings import configure as configure_docs

__all__ = ["Passage", "search", "index_path", "open_index", "page", "symbols", "KB_ROOT", "data_dir", "embedder_name",
           "SettingsError", "DocsSettings", "configure_docs", "default_data_dir"]

_OPEN: dict[str, object] = {}


def open_index(embedder: str | None = None, log=None, progress=None, lazy: bool = False):
    """The (cached) :class:`retrieval.index.Index` for an embedder, synced with the shipped KB.
    ``lazy``: Chroma is opened at the first vector search instead of now (see ``Index.open``)."""
    from retrieval.index import Index, stderr_log   # lazy: the index (+25 ms: BM25, tokenizer) only to search

    name = embedder_name(embedder)
    key = f"{name}:{data_dir()}"
    if key not in _OPEN:
        _OPEN[key] = Index.open(name, log=log or stderr_log, progress=progress, lazy=lazy)
    return _OPEN[key]


def search(query: str, k: int = 5, embedder: str | None = None, mode: str = "hybrid") -> list[Passage]:
    """The ``k`` best passages (one per page) for ``query``: exact API names first, then BM25 and
    vector results fused by reciprocal rank."""
    return open_index(embedder).search(query, k=k, mode=mode)


def index_path(path: str | Path, embedder: str | None = None, rebuild: bool = False, progress=None, log=None):
    """Index a user's markdown folder or include tree (incremental). Returns (kind, SyncStats)."""
    from retrieval.ingest import pages_for, source_key   # lazy: only to index a user's tree

    root = Path(path).expanduser()
    kind, pages = pages_for(root)
    idx = open_index(embedder, log=log)
    key = source_key(root if root.is_dir() else root.parent)
    if rebuild:
        idx.remove_source(key)
    return kind, idx.sync(key, pages, kind=kind, root=str(root.resolve()), progress=progress, prune=root.is_dir())


def page(page_id: str):
    """A shipped KB page by id (``"api/DataCopyPad"``) or None: full markdown for hover and the agent."""
    from retrieval.corpus import load_page   # lazy: only to show a page

    f = KB_ROOT / f"{page_id}.md"
    if not f.is_file() or KB_ROOT not in f.resolve().parents:
        return None
    return load_page(f, page_id, source=f"kb/{page_id}.md")
