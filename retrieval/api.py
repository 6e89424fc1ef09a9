"""The doc index's face for the front ends (``kgen docs``, ``kgen index``, the chat, the LSP) and the
agent: search, indexing of a user's docs or headers, the symbol table, and the errors a user can
cause. ``import retrieval`` alone stays cheap (the symbol table); this module loads the index code.

    from retrieval.api import search, index_path, symbols
"""
from __future__ import annotations

from retrieval import KB_ROOT, SettingsError, data_dir, embedder_name, index_path, open_index, page, search, symbols
from retrieval.chunking import Passage
from retrieval.index import Index, SyncStats, stderr_log
from retrieval.ingest import IngestError, pages_for
from retrieval.settings import EMBEDDERS, index_dir
from retrieval.tokenize import cjk_share

__all__ = ["EMBEDDERS", "Index", "IngestError", "KB_ROOT", "Passage", "SettingsError", "SyncStats", "cjk_share",
           "data_dir", "embedder_name", "index_dir", "index_path", "open_index", "page", "pages_for", "search",
           "stderr_log", "symbols"]
