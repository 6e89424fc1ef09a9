"""The documentation index: Chroma vectors + in-memory BM25, incremental by content hash,
rebuilt (with a message) when missing or unreadable."""
from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from retrieval import settings
from retrieval.bm25 import BM25
from retrieval.chunking import Passage, chunk_page, index_text
from retrieval.corpus import Page, load_kb
from retrieval.embedders import get_embedder
from retrieval.fusion import rrf

MANIFEST_VERSION = 1
KB_SOURCE = "kb"
CANDIDATES = 40
Progress = Callable[[int, int, str], None]
Log = Callable[[str], None]


def _cjk_share(text: str) -> float:
    chars = [c for c in text if not c.isspace()]
    return sum(1 for c in chars if "\u3400" <= c <= "\u9fff") / len(chars) if chars else 0.0


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


@dataclass
class SyncStats:
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    passages: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        return (f"{self.added} new, {self.updated} changed, {self.removed} removed, {self.unchanged} unchanged "
                f"page(s); {self.passages} passage(s) embedded in {self.seconds:.1f} s")


class IndexError_(RuntimeError):
    """The index could not be read (corrupted store or manifest)."""


class Index:
    """One embedder's index under the data dir. ``Index.open`` makes sure it exists, is readable
    and holds the current shipped knowledge base."""

    def __init__(self, embedder: str, root: Path, log: Log = _stderr) -> None:
        self.embedder_name = embedder
        self.root = root
        self.log = log
        self.manifest: dict = {}
        self.store = None
        self._bm25: BM25 | None = None
        self._passages: dict[str, Passage] = {}
        self._order: list[str] = []
        self._keywords: dict[str, list[str]] = {}

    # ---------------------------------------------------------------- opening
    @classmethod
    def open(cls, embedder: str | None = None, log: Log = _stderr, progress: Progress | None = None,
             sync_kb: bool = True) -> "Index":
        name = settings.embedder_name(embedder)
        idx = cls(name, settings.index_dir(name), log)
        existed = (idx.root / "manifest.json").exists()
        try:
            idx._load()
        except Exception as e:  # corrupted manifest or store: rebuild, never a traceback
            reason = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
            if existed:
                log(f"kgen: the documentation index at {idx.root} is unreadable ({reason}); rebuilding it")
            idx._reset()
        if not existed:
            log(f"kgen: building the documentation index at {idx.root} (embedder '{name}')")
        if sync_kb:
            idx.sync(KB_SOURCE, load_kb(), kind="kb", root=str(settings.KB_ROOT), progress=progress)
        return idx

    @property
    def _manifest_path(self) -> Path:
        return self.root / "manifest.json"

    def _load(self) -> None:
        from retrieval.store import ChromaStore

        if self._manifest_path.exists():
            m = json.loads(self._manifest_path.read_text())
            if not isinstance(m, dict) or m.get("version") != MANIFEST_VERSION or m.get("embedder") != self.embedder_name:
                raise IndexError_("manifest of another version or embedder")
            self.manifest = m
        else:
            if (self.root / "chroma").exists():
                raise IndexError_("manifest missing")
            self.manifest = {"version": MANIFEST_VERSION, "embedder": self.embedder_name, "sources": {}}
        self.store = ChromaStore(self.root / "chroma")
        expected = sum(d["chunks"] for s in self.manifest["sources"].values() for d in s["docs"].values())
        if self.store.count() != expected:
            raise IndexError_(f"store holds {self.store.count()} passages, manifest {expected}")
        self._load_passages()

    def _reset(self) -> None:
        old_sources = dict(self.manifest.get("sources", {})) if isinstance(self.manifest, dict) else {}
        if self.store is not None:
            self.store.close()
        self.store = None
        from retrieval.store import _client_cache_clear

        _client_cache_clear()
        shutil.rmtree(self.root, ignore_errors=True)
        self.manifest = {"version": MANIFEST_VERSION, "embedder": self.embedder_name, "sources": {}}
        from retrieval.store import ChromaStore

        self.store = ChromaStore(self.root / "chroma")
        self._write_manifest()
        self._load_passages()
        lost = [s["root"] for k, s in old_sources.items() if k != KB_SOURCE]
        if lost:
            self.log("kgen: re-run 'kgen index' for: " + ", ".join(lost))

    def _write_manifest(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self._manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.manifest, indent=1, sort_keys=True))
        tmp.replace(self._manifest_path)

    def _load_passages(self) -> None:
        ids, docs, metas = self.store.all()
        self._passages = {}
        self._keywords = {}
        for pid, doc, meta in zip(ids, docs, metas):
            meta = meta or {}
            apis = [a for a in str(meta.get("apis", "")).split(",") if a]
            self._passages[pid] = Passage(id=pid, page=meta.get("page", pid.split("#")[0]), title=meta.get("title", ""),
                                          section=meta.get("section", ""), text=doc or "", source=meta.get("source", ""),
                                          apis=apis)
            self._keywords[pid] = [k for k in str(meta.get("keywords", "")).split(",") if k]
        self._order = sorted(self._passages)
        self._bm25 = None

    @property
    def bm25(self) -> BM25:
        if self._bm25 is None:
            self._bm25 = BM25([index_text(self._passages[i], self._keywords[i]) for i in self._order])
        return self._bm25

    # ---------------------------------------------------------------- writing
    def sync(self, key: str, pages: list[Page], kind: str, root: str, progress: Progress | None = None,
             prune: bool = True) -> SyncStats:
        """Bring source ``key`` in line with ``pages``: embed new/changed pages, drop vanished ones."""
        t0 = time.perf_counter()
        stats = SyncStats()
        src = self.manifest["sources"].setdefault(key, {"kind": kind, "root": root, "docs": {}})
        src["kind"], src["root"] = kind, root
        old = src["docs"]
        want = {p.id: p for p in pages}
        todo = []
        for p in pages:
            h = p.digest()
            if p.id in old and old[p.id]["hash"] == h:
                stats.unchanged += 1
            else:
                todo.append((p, h))
        gone = [pid for pid in old if pid not in want] if prune else []
        stale = [f"{pid}#{i}" for pid in gone + [p.id for p, _ in todo if p.id in old] for i in range(old[pid]["chunks"])]
        if stale:
            self.store.delete(stale)
        for pid in gone:
            del old[pid]
            stats.removed += 1
        emb = get_embedder(self.embedder_name) if todo else None
        total = len(todo)
        batch: list[tuple[Page, str, list[Passage]]] = []
        done = 0

        def flush() -> None:
            nonlocal done
            if not batch:
                return
            passages = [ps for _, _, pl in batch for ps in pl]
            kws = {p.id: p.keywords for p, _, _ in batch}
            texts = [index_text(ps, kws[ps.page]) for ps in passages]
            vecs = emb.embed(texts)
            metas = [{"page": ps.page, "title": ps.title, "section": ps.section, "source": ps.source,
                      "apis": ",".join(ps.apis), "keywords": ",".join(kws[ps.page]), "kind": kind} for ps in passages]
            self.store.add([ps.id for ps in passages], vecs, [ps.text for ps in passages], metas)
            for p, h, pl in batch:
                if p.id in old:
                    stats.updated += 1
                else:
                    stats.added += 1
                old[p.id] = {"hash": h, "chunks": len(pl)}
                stats.passages += len(pl)
            done += len(batch)
            batch.clear()
            self._write_manifest()
            if progress:
                progress(done, total, key)

        for p, h in todo:
            batch.append((p, h, chunk_page(p)))
            if sum(len(b[2]) for b in batch) >= 64:
                flush()
        flush()
        if gone or todo:
            self._write_manifest()
            self._load_passages()
        elif progress and total == 0:
            progress(0, 0, key)
        stats.seconds = time.perf_counter() - t0
        return stats

    def remove_source(self, key: str) -> None:
        src = self.manifest["sources"].pop(key, None)
        if src:
            self.store.delete([f"{pid}#{i}" for pid, d in src["docs"].items() for i in range(d["chunks"])])
            self._write_manifest()
            self._load_passages()

    # ---------------------------------------------------------------- reading
    def __len__(self) -> int:
        return len(self._passages)

    def lexical(self, query: str, n: int = CANDIDATES) -> list[str]:
        return [self._order[i] for i, _ in self.bm25.top(query, n)]

    def vector(self, query: str, n: int = CANDIDATES) -> list[str]:
        vec = get_embedder(self.embedder_name).embed([query])[0]
        return [pid for pid, _ in self.store.query(vec, n) if pid in self._passages]

    def symbol(self, query: str) -> tuple[list[str], bool]:
        """Passages of pages naming an API that the query mentions; True when the query is just that name."""
        from retrieval import symbols

        hits, whole = symbols.in_query(query)
        pages = [symbols.lookup(h).page for h in hits if symbols.lookup(h)]
        out = [pid for page in dict.fromkeys(pages) for pid in self._order if self._passages[pid].page == page]
        return out, whole

    def search(self, query: str, k: int = 5, mode: str = "hybrid", per_page: int = 1) -> list[Passage]:
        query = query.strip()
        if not query or not self._passages:
            return []
        if mode == "lexical":
            fused = [(pid, 1.0 / (i + 1)) for i, pid in enumerate(self.lexical(query))]
        elif mode == "vector":
            fused = [(pid, 1.0 / (i + 1)) for i, pid in enumerate(self.vector(query))]
        elif mode == "hybrid":
            sym, whole = self.symbol(query)
            # MiniLM is an English model: for a mostly Chinese query its ranking is noise
            vw = 0.2 if self.embedder_name == "minilm" and _cjk_share(query) > 0.3 else 1.0
            lists, weights = [self.lexical(query), self.vector(query)], [1.0, vw]
            if sym:
                lists.append(sym)
                weights.append(3.0 if whole else 0.5)
            fused = rrf(lists, weights)
            if whole and sym:
                first = set(sym[:1])
                fused = [f for f in fused if f[0] in first] + [f for f in fused if f[0] not in first]
        else:
            raise ValueError(f"unknown search mode '{mode}'")
        out: list[Passage] = []
        seen: dict[str, int] = {}
        for pid, score in fused:
            p = self._passages[pid]
            if seen.get(p.page, 0) >= per_page:
                continue
            seen[p.page] = seen.get(p.page, 0) + 1
            q = Passage(**{**p.__dict__, "apis": list(p.apis)})
            q.score = float(score)
            out.append(q)
            if len(out) >= k:
                break
        return out
