"""The Chroma persistent collection holding passages and their vectors (embeddings are ours:
Chroma's default embedding function, which downloads a model, is never used)."""
from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
logging.getLogger("chromadb").setLevel(logging.ERROR)

COLLECTION = "kgen_docs"
_BATCH = 1000


def _client_cache_clear() -> None:
    try:
        from chromadb.api.shared_system_client import SharedSystemClient   # lazy: chromadb (~0.13 s)
    except ImportError:  # pragma: no cover - older chromadb layout
        from chromadb.api.client import SharedSystemClient  # type: ignore  # lazy: as above
    SharedSystemClient.clear_system_cache()


class ChromaStore:
    """A thin wrapper: add/delete passages by id, nearest neighbours of a vector, read everything."""

    def __init__(self, path: Path) -> None:
        import chromadb   # lazy: chromadb costs ~0.13 s of start-up; a lexical-only search never opens it
        from chromadb.config import Settings   # lazy: as above

        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._client = chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False, allow_reset=True))
        self._col = self._client.get_or_create_collection(COLLECTION, embedding_function=None,
                                                          metadata={"hnsw:space": "cosine"})

    def count(self) -> int:
        return self._col.count()

    def add(self, ids: list[str], embeddings: np.ndarray, documents: list[str], metadatas: list[dict]) -> None:
        for i in range(0, len(ids), _BATCH):
            sl = slice(i, i + _BATCH)
            self._col.upsert(ids=ids[sl], embeddings=embeddings[sl].tolist(), documents=documents[sl], metadatas=metadatas[sl])

    def delete(self, ids: list[str]) -> None:
        for i in range(0, len(ids), _BATCH):
            self._col.delete(ids=ids[i:i + _BATCH])

    def query(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        n = self.count()
        if n == 0:
            return []
        res = self._col.query(query_embeddings=[vector.tolist()], n_results=min(k, n), include=["distances"])
        return list(zip(res["ids"][0], res["distances"][0]))

    def all(self) -> tuple[list[str], list[str], list[dict]]:
        ids: list[str] = []
        docs: list[str] = []
        metas: list[dict] = []
        n = self.count()
        for off in range(0, n, 5000):
            res = self._col.get(include=["documents", "metadatas"], limit=5000, offset=off)
            ids += res["ids"]
            docs += res["documents"]
            metas += res["metadatas"]
        return ids, docs, metas

    def close(self) -> None:
        self._col = None
        self._client = None
        _client_cache_clear()
