"""The documentation index: Chroma vectors + in-memory BM25, incremental by content hash,
rebuilt (with a message) when missing or unreadable."""
from __future__ import annotations

import difflib
import hashlib
import json
import pickle
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from retrieval import settings, symbols
from retrieval.bm25 import BM25
from retrieval.chunking import Passage, chunk_page, index_text
from retrieval.corpus import Page, kb_fingerprint, load_kb
from retrieval.fusion import rrf
from retrieval.tokenize import cjk_share, expand

MANIFEST_VERSION = 2   # 2: tokens with stems (tokenize.VERSION 2)
KB_SOURCE = "kb"
CANDIDATES = 50
# weight of each embedder's ranking against BM25's (1.0) in hybrid search: the hashing embedder sees
# the same words BM25 does, less precisely, so it only breaks ties: at 0.02 it can move a page by about
# one lexical rank, never past a page that alone holds a rare query word (benchmarks/retrieval_plain.py)
VECTOR_WEIGHT = {"hash": 0.02, "minilm": 1.0}
SYNONYM_WEIGHT = 0.2      # a synonym (retrieval/data/synonyms.txt) counts this much of a query word
Progress = Callable[[int, int, str], None]
Log = Callable[[str], None]


def stderr_log(msg: str) -> None:
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

    def __init__(self, embedder: str, root: Path, log: Log = stderr_log) -> None:
        self.embedder_name = embedder
        self.root = root
        self.log = log
        self.manifest: dict = {}
        self._store = None
        self._expected: int | None = None
        self._bm25: BM25 | None = None
        self._passages: dict[str, Passage] = {}
        self._order: list[str] = []
        self._keywords: dict[str, list[str]] = {}

    # ---------------------------------------------------------------- opening
    @classmethod
    def open(cls, embedder: str | None = None, log: Log = stderr_log, progress: Progress | None = None,
             sync_kb: bool = True, lazy: bool = False) -> "Index":
        """The index of ``embedder``, built or rebuilt as needed. ``lazy``: when the lexical cache
        matches the manifest, Chroma is neither imported nor opened until a vector search or a write
        needs it (``kgen docs`` answers an API name without it); its damage is then found, and
        repaired with a message, at that first use instead of here."""
        name = settings.embedder_name(embedder)
        idx = cls(name, settings.index_dir(name), log)
        existed = (idx.root / "manifest.json").exists()
        try:
            idx._load(lazy=lazy)
        except Exception as e:  # corrupted manifest or store: rebuild, never a traceback
            reason = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
            if existed:
                log(f"kgen: the documentation index at {idx.root} is unreadable ({reason}); rebuilding it")
            idx._reset()
        if not existed:
            log(f"kgen: building the documentation index at {idx.root} (embedder '{name}')")
        if sync_kb:
            idx.sync_kb(progress=progress)
        return idx

    def sync_kb(self, progress: Progress | None = None, force: bool = False) -> SyncStats | None:
        """Re-index the shipped KB when its files changed (a cheap fingerprint check otherwise);
        ``force`` compares every page's hash even when the fingerprint matches."""
        fp = kb_fingerprint()
        src = self.manifest["sources"].get(KB_SOURCE)
        if src and src.get("fingerprint") == fp and not force:
            return None
        stats = self.sync(KB_SOURCE, load_kb(), kind="kb", root=str(settings.KB_ROOT), progress=progress)
        self.manifest["sources"][KB_SOURCE]["fingerprint"] = fp
        self._write_manifest()
        self._cache_dirty = True
        return stats

    @property
    def _manifest_path(self) -> Path:
        return self.root / "manifest.json"

    @property
    def store(self):
        """The Chroma store, opened on first use; a store that disagrees with the manifest raises."""
        if self._store is None:
            from retrieval.store import ChromaStore   # lazy: chromadb costs ~0.13 s; kgen docs NAME never opens it

            store = ChromaStore(self.root / "chroma")
            held = store.count()
            if self._expected is not None and held != self._expected:
                store.close()
                raise IndexError_(f"store holds {held} passages, manifest {self._expected}")
            self._store = store
        return self._store

    @store.setter
    def store(self, value) -> None:
        self._store = value

    def _load(self, lazy: bool = False) -> None:
        if self._manifest_path.exists():
            m = json.loads(self._manifest_path.read_text())
            if not isinstance(m, dict) or m.get("version") != MANIFEST_VERSION or m.get("embedder") != self.embedder_name:
                raise IndexError_("manifest of another version or embedder")
            self.manifest = m
        else:
            if (self.root / "chroma").exists():
                raise IndexError_("manifest missing")
            self.manifest = {"version": MANIFEST_VERSION, "embedder": self.embedder_name, "sources": {}}
        self._expected = sum(d["chunks"] for s in self.manifest["sources"].values() for d in s["docs"].values())
        if not lazy or not (self.root / "chroma").is_dir():
            self.store      # opens it and checks its count against the manifest
        self._load_passages()

    def _reset(self) -> None:
        old_sources = dict(self.manifest.get("sources", {})) if isinstance(self.manifest, dict) else {}
        if self._store is not None:
            self._store.close()
        self._store = None
        from retrieval.store import _client_cache_clear   # lazy: chromadb (~0.13 s)

        _client_cache_clear()
        shutil.rmtree(self.root, ignore_errors=True)
        self.manifest = {"version": MANIFEST_VERSION, "embedder": self.embedder_name, "sources": {}}
        self._expected = None
        self.store       # a new, empty store
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
        self._expected = sum(d["chunks"] for s in self.manifest["sources"].values() for d in s["docs"].values())

    @property
    def _cache_path(self) -> Path:
        return self.root / "lexical.pkl"

    def _manifest_digest(self) -> str:
        return hashlib.sha1(json.dumps(self.manifest, sort_keys=True).encode()).hexdigest()

    def _load_cache(self) -> bool:
        """Passages and BM25 from lexical.pkl when it matches the manifest (a big index opens in
        a fraction of a second instead of re-reading Chroma and re-tokenising everything)."""
        try:
            with open(self._cache_path, "rb") as f:
                data = pickle.load(f)
            if data.get("digest") != self._manifest_digest() or data.get("version") != MANIFEST_VERSION:
                return False
            self._passages, self._keywords, self._order, self._bm25 = (data["passages"], data["keywords"], data["order"],
                                                                       data["bm25"])
            return len(self._passages) == self._expected
        except Exception:
            return False

    def _save_cache(self) -> None:
        try:
            tmp = self._cache_path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                pickle.dump({"version": MANIFEST_VERSION, "digest": self._manifest_digest(), "passages": self._passages,
                             "keywords": self._keywords, "order": self._order, "bm25": self._bm25}, f, protocol=5)
            tmp.replace(self._cache_path)
        except OSError:
            pass

    def _load_passages(self) -> None:
        self._cache_dirty = False
        if self._load_cache():
            return
        self._cache_dirty = True
        ids, docs, metas = self.store.all()
        self._passages = {}
        self._keywords = {}
        for pid, doc, meta in zip(ids, docs, metas):
            meta = meta or {}
            apis = [a for a in str(meta.get("apis", "")).split(",") if a]
            self._passages[pid] = Passage(id=pid, page=meta.get("page", pid.split("#")[0]), title=meta.get("title", ""),
                                          section=meta.get("section", ""), text=doc or "", source=meta.get("source", ""),
                                          apis=apis, summary_zh=str(meta.get("summary_zh") or ""))
            self._keywords[pid] = [k for k in str(meta.get("keywords", "")).split(",") if k]
        self._order = sorted(self._passages)
        self._bm25 = None

    @property
    def bm25(self) -> BM25:
        if self._bm25 is None:
            self._bm25 = BM25([index_text(self._passages[i], self._keywords[i]) for i in self._order])
        if getattr(self, "_cache_dirty", False):
            self._cache_dirty = False
            self._save_cache()
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
        from retrieval.embedders import get_embedder   # lazy: numpy (~0.07 s), only to embed or search vectors

        emb = get_embedder(self.embedder_name) if todo else None
        cache = None
        if emb is not None and self.embedder_name != "hash":   # hashing is cheaper than a lookup
            from retrieval.embcache import EmbeddingCache   # lazy: numpy, only for a model embedder

            cache = EmbeddingCache(settings.data_dir() / "embcache" / f"{self.embedder_name}.npz", self.embedder_name, emb.dim)
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
            vecs = cache.embed(texts, emb.embed) if cache is not None else emb.embed(texts)
            metas = [{"page": ps.page, "title": ps.title, "section": ps.section, "source": ps.source,
                      "apis": ",".join(ps.apis), "keywords": ",".join(kws[ps.page]), "kind": kind,
                      "summary_zh": ps.summary_zh} for ps in passages]
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
        if cache is not None:
            cache.save()
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
        return [self._order[i] for i, _ in self.bm25.top(expand(query, SYNONYM_WEIGHT), n)]

    def vector(self, query: str, n: int = CANDIDATES) -> list[str]:
        from retrieval.embedders import get_embedder   # lazy: numpy (~0.07 s), only to search vectors

        vec = get_embedder(self.embedder_name).embed([query])[0]
        try:
            hits = self.store.query(vec, n)
        except Exception as e:  # a store damaged after opening: rebuild once, never a traceback
            self.recover(str(e).splitlines()[0][:160] if str(e) else type(e).__name__)
            hits = self.store.query(vec, n)
        return [pid for pid, _ in hits if pid in self._passages]

    def recover(self, reason: str) -> None:
        """Rebuild this index from scratch (the shipped KB; user sources are named for re-indexing)."""
        self.log(f"kgen: the documentation index at {self.root} is unreadable ({reason}); rebuilding it")
        self._reset()
        self.sync_kb()

    def symbol(self, query: str) -> tuple[list[str], bool]:
        """Passages of pages naming an API that the query mentions; True when the query is just that name."""
        hits, whole = symbols.in_query(query)
        return self._pages_of(hits), whole

    def _pages_of(self, names: list[str]) -> list[str]:
        """Passages of the pages of API ``names``, page by page in the order of the names."""
        pages = [symbols.lookup(h).page for h in names if symbols.lookup(h)]
        return [pid for page in dict.fromkeys(pages) for pid in self._order if self._passages[pid].page == page]

    def suggest(self, query: str, n: int = 3) -> list[str]:
        """"Did you mean" for a query that looks like a misspelled API name (``Addd`` -> Add, Adds, ...):
        one identifier that is no API name and, unless it is CamelCase or has digits or underscores, no
        word of the indexed docs either ("tiling", "Deadlock" are searched, not corrected). [] otherwise."""
        q = query.strip()
        if not symbols.IDENT.fullmatch(q) or symbols.lookup(q):
            return []
        code_like = any(c.isupper() for c in q[1:]) or any(c.isdigit() or c == "_" for c in q)
        if not code_like and (q.lower() in self.bm25.postings or len(q) < 4):
            return []
        near = symbols.nearest(q, n=n)
        if not code_like and not q[0].isupper():   # a lower-case word must be a close misspelling ("fooo" is not "Floor")
            near = [m for m in near if difflib.SequenceMatcher(None, q.lower(), m.lower()).ratio() >= 0.75]
        return near

    def search(self, query: str, k: int = 5, mode: str = "hybrid", per_page: int = 1) -> list[Passage]:
        """The ``k`` best pages for ``query`` (``per_page`` passages each, best first).

        Each ranked list (BM25, vector, exact API names) is collapsed to pages first, so a page with many
        passages does not crowd the fusion; the pages are fused by reciprocal rank; each page is shown
        by its passages in order of their best rank in any list."""
        query = query.strip()
        if not query or not self._passages:
            return []
        if mode == "lexical":
            lists, weights, whole, sym = [self.lexical(query)], [1.0], False, []
        elif mode == "vector":
            lists, weights, whole, sym = [self.vector(query)], [1.0], False, []
        elif mode == "hybrid":
            sym, whole = self.symbol(query)
            near: list[str] = []
            if not sym:
                # a query that looks like a misspelled API name ranks the nearest real APIs first
                near = self.suggest(query)
                sym, whole = self._pages_of(near), bool(near)
            # MiniLM is an English model: for a mostly Chinese query its ranking is noise. A query that
            # is just an API name (or a near miss of one) is answered by that page; the vector ranking
            # would only reorder the rest, and skipping it keeps Chroma closed (kgen docs NAME is fast)
            vw = 0.0 if self.embedder_name == "minilm" and cjk_share(query) > 0.3 else VECTOR_WEIGHT.get(self.embedder_name, 1.0)
            if whole:
                vw = 0.0
            lists, weights = [self.lexical(" ".join([query, *near]))], [1.0]
            if vw:
                lists.append(self.vector(query))
                weights.append(vw)
            if sym:
                lists.append(sym)
                weights.append(3.0 if whole else 0.5)
        else:
            raise ValueError(f"unknown search mode '{mode}'")
        best: dict[str, int] = {}          # passage -> best rank in any list
        for lst in lists:
            for r, pid in enumerate(lst):
                best[pid] = min(best.get(pid, r), r)
        page_lists = [list(dict.fromkeys(self._passages[pid].page for pid in lst)) for lst in lists]
        if mode == "hybrid" and vw:
            # Chroma's vector search is approximate (HNSW): it can miss the page BM25 ranks first. A page
            # the lexical list holds and the vector candidates lack counts as ranked just after them (in
            # lexical order), so a tie-breaker never turns a miss into a penalty that reorders pages
            seen = set(page_lists[1])
            page_lists[1] += [p for p in page_lists[0] if p not in seen]
        fused = rrf(page_lists, weights)
        if whole and sym:
            # the named API's page first; for a near miss, every suggested API's page, nearest first
            tops = [self._passages[sym[0]].page] if not near else list(dict.fromkeys(self._passages[p].page for p in sym))
            fused = [f for t in tops for f in fused if f[0] == t] + [f for f in fused if f[0] not in tops]
        by_page: dict[str, list[str]] = {}
        for pid in sorted(best, key=lambda x: (best[x], x)):
            by_page.setdefault(self._passages[pid].page, []).append(pid)
        out: list[Passage] = []
        for page, score in fused[:k]:
            for pid in by_page.get(page, [])[:per_page]:
                p = self._passages[pid]
                q = Passage(**{**p.__dict__, "apis": list(p.apis)})
                q.score = float(score)
                out.append(q)
        return out
