"""The index for real: Chroma on disk in a tmp dir, BM25, fusion, incremental re-indexing,
ingestion of markdown and header trees made here, and recovery from a corrupted index."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import retrieval
from retrieval.index import Index
from retrieval.ingest import header_declarations, pages_for, IngestError


def _msgs():
    out: list[str] = []
    return out, out.append


@pytest.mark.fresh_index
def test_first_use_builds_the_index_and_finds_api_pages(kgen_data_dir):
    msgs, log = _msgs()
    idx = Index.open("hash", log=log)
    assert any("building the documentation index" in m for m in msgs)
    assert (kgen_data_dir / "index" / "hash" / "manifest.json").exists()
    assert (kgen_data_dir / "index" / "hash" / "chroma").is_dir()
    top = idx.search("DataCopyPad", k=3)
    assert top[0].page == "api/DataCopyPad"
    assert top[0].source == "kb/api/DataCopyPad.md"
    assert len({p.page for p in top}) == len(top)       # one passage per page


def test_reopening_is_incremental(kgen_data_dir):
    idx = Index.open("hash", log=lambda m: None, sync_kb=False)
    from retrieval.corpus import load_kb

    stats = idx.sync("kb", load_kb(), kind="kb", root="kb")
    assert stats.added == stats.updated == stats.removed == 0 and stats.unchanged > 80


@pytest.mark.parametrize("mode", ["lexical", "vector", "hybrid"])
def test_each_mode_answers(mode):
    idx = retrieval.open_index("hash")
    hits = idx.search("non-aligned tail copy with padding", k=5, mode=mode)
    assert hits and "api/DataCopyPad" in [h.page for h in hits]


def test_markdown_tree_ingestion_is_incremental(tmp_path):
    docs = tmp_path / "docs"
    (docs / "zh").mkdir(parents=True)
    (docs / "zh" / "FooBarKernel.md").write_text("# FooBarKernel\n\n矢量计算接口 FooBarKernel 的说明：按元素做布谷鸟运算。\n")
    (docs / "guide.md").write_text("---\ntitle: Zebra tiling guide\n---\n## Stripes\n\nSplit the zebra into stripes of 32 bytes.\n")
    (docs / ".hidden.md").write_text("# hidden\n")
    kind, stats = retrieval.index_path(docs, embedder="hash")
    assert kind == "markdown" and stats.added == 2
    hits = retrieval.search("zebra stripes", k=3)
    assert hits[0].title == "Zebra tiling guide" and hits[0].source.endswith("guide.md")
    assert retrieval.search("布谷鸟运算", k=3)[0].title == "FooBarKernel"
    # unchanged -> nothing to do; one edit -> one update; one deletion -> one removal
    _, stats = retrieval.index_path(docs, embedder="hash")
    assert (stats.added, stats.updated, stats.removed, stats.unchanged) == (0, 0, 0, 2)
    (docs / "guide.md").write_text("# Zebra tiling guide\n\nNow about giraffes.\n")
    _, stats = retrieval.index_path(docs, embedder="hash")
    assert (stats.updated, stats.unchanged) == (1, 1)
    (docs / "zh" / "FooBarKernel.md").unlink()
    _, stats = retrieval.index_path(docs, embedder="hash")
    assert stats.removed == 1
    assert all(h.title != "FooBarKernel" for h in retrieval.search("布谷鸟运算", k=5))
    # the index survives a new process (reopen from disk)
    retrieval._OPEN.clear()
    assert retrieval.search("giraffes", k=1)[0].title == "Zebra tiling guide"


HEADER = '''#pragma once
namespace AscendC {
/**
 * Spins the quokka vector: every element is rotated by one lane.
 * @param dst destination tensor
 */
template <typename T, bool isSetMask = true>
__aicore__ inline void QuokkaSpin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const int32_t& count);

// Parameters of the wombat copy.
struct WombatParams {
    uint16_t burrows = 1;  // number of burrows
};

/// Returns the wombat count.
inline uint32_t GetWombatCount(const WombatParams& p) { return p.burrows * 2; }
#define WOMBAT_MAX 64
}  // namespace AscendC
'''


def test_a_page_the_approximate_vector_search_misses_keeps_its_lexical_rank(tmp_path, monkeypatch):
    """Chroma's HNSW search is approximate: the page that alone holds a rare query word can be missing
    from the vector candidates. That miss must not let the tie-breaking vector ranking demote it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "FooBarKernel.md").write_text("# FooBarKernel\n\n矢量计算接口 FooBarKernel 的说明：按元素做布谷鸟运算。\n")
    retrieval.index_path(docs, embedder="hash")
    idx = retrieval.open_index("hash")
    real = idx.vector
    monkeypatch.setattr(idx, "vector", lambda q, n=50: [p for p in real(q, n) if "FooBarKernel" not in p])
    assert idx.lexical("布谷鸟运算")[0].endswith("FooBarKernel.md#0")
    assert [h.title for h in idx.search("布谷鸟运算", k=2)][0] == "FooBarKernel"


def test_header_declarations_and_comments():
    decls = {n: (d, c) for n, d, c in header_declarations(HEADER)}
    assert set(decls) >= {"QuokkaSpin", "WombatParams", "GetWombatCount", "WOMBAT_MAX"}
    d, c = decls["QuokkaSpin"]
    assert "template <typename T, bool isSetMask = true>" in d and "const int32_t& count" in d
    assert "rotated by one lane" in c
    assert decls["GetWombatCount"][1] == "Returns the wombat count."
    assert "burrows" not in decls  # struct fields are not declarations


def test_header_tree_ingestion(tmp_path):
    inc = tmp_path / "include" / "basic_api"
    inc.mkdir(parents=True)
    (inc / "quokka_intf.h").write_text(HEADER)
    (inc / "empty.h").write_text("#pragma once\n")
    kind, pages = pages_for(tmp_path / "include")
    assert kind == "headers" and len(pages) == 1
    assert "QuokkaSpin" in pages[0].apis
    kind, stats = retrieval.index_path(tmp_path / "include", embedder="hash")
    assert kind == "headers" and stats.added == 1
    hit = retrieval.search("rotate quokka lanes", k=3)[0]
    assert hit.section == "QuokkaSpin" and "QuokkaSpin(" in hit.text and hit.source.endswith("quokka_intf.h")


def test_ingest_errors_are_user_errors(tmp_path):
    with pytest.raises(IngestError, match="no such file or directory"):
        pages_for(tmp_path / "nope")
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(IngestError, match="no markdown"):
        pages_for(tmp_path)


@pytest.mark.parametrize("damage", ["manifest", "sqlite", "count"])
def test_corrupted_index_is_rebuilt_with_a_message(kgen_data_dir, damage):
    idx = Index.open("hash", log=lambda m: None)
    idx.store.close()
    root = kgen_data_dir / "index" / "hash"
    if damage == "manifest":
        (root / "manifest.json").write_text("{not json")
    elif damage == "sqlite":
        (root / "chroma" / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    else:
        m = json.loads((root / "manifest.json").read_text())
        m["sources"]["kb"]["docs"]["api/Add"]["chunks"] += 3
        (root / "manifest.json").write_text(json.dumps(m))
    msgs, log = _msgs()
    idx = Index.open("hash", log=log)
    assert any("unreadable" in m and "rebuilding" in m for m in msgs), msgs
    assert idx.search("DataCopyPad", k=1)[0].page == "api/DataCopyPad"


def test_missing_chroma_dir_is_rebuilt(kgen_data_dir):
    import shutil

    idx = Index.open("hash", log=lambda m: None)
    idx.store.close()
    shutil.rmtree(kgen_data_dir / "index" / "hash" / "chroma")
    msgs, log = _msgs()
    idx = Index.open("hash", log=log)
    assert any("rebuilding" in m for m in msgs)
    assert len(idx) > 300


def test_store_failing_after_open_is_recovered(monkeypatch):
    msgs, log = _msgs()
    idx = Index.open("hash", log=log)
    real = idx.store.query
    calls = {"n": 0}

    def broken(vec, k):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("Error executing plan: segment reader failed")
        return real(vec, k)

    monkeypatch.setattr(idx.store, "query", broken)
    # a words query (an API-name query skips the vector ranking, so it never touches the store)
    hits = idx.search("copy a tail that is not 32-byte aligned", k=5)
    assert "api/DataCopyPad" in [h.page for h in hits]
    assert any("rebuilding" in m for m in msgs)


def test_embedding_cache_reuses_vectors(tmp_path):
    import numpy as np

    from retrieval.embcache import EmbeddingCache

    calls: list[list[str]] = []

    def compute(texts):
        calls.append(list(texts))
        return np.ones((len(texts), 4), dtype=np.float32) * len(calls)

    path = tmp_path / "c" / "fake.npz"
    c = EmbeddingCache(path, "fake", 4)
    v = c.embed(["a", "b"], compute)
    assert v.shape == (2, 4) and calls == [["a", "b"]]
    c.save()
    c2 = EmbeddingCache(path, "fake", 4)
    v2 = c2.embed(["b", "c"], compute)
    assert calls[-1] == ["c"]                  # "b" came from the saved cache
    assert np.allclose(v2[0], v[1])
    (path).write_bytes(b"garbage")             # an unreadable cache is ignored, not fatal
    assert EmbeddingCache(path, "fake", 4).embed(["a"], compute).shape == (1, 4)


def test_lexical_cache_makes_reopening_cheap(kgen_data_dir):
    idx = Index.open("hash", log=lambda m: None)
    idx.search("DataCopyPad", k=1)             # builds BM25 and writes the cache
    assert (kgen_data_dir / "index" / "hash" / "lexical.pkl").exists()
    idx.store.close()
    idx2 = Index.open("hash", log=lambda m: None)
    assert idx2._bm25 is not None              # came from the cache, not rebuilt
    assert idx2.search("DataCopyPad", k=1)[0].page == "api/DataCopyPad"
    idx2.store.close()
    (kgen_data_dir / "index" / "hash" / "lexical.pkl").write_bytes(b"\x80garbage")
    idx3 = Index.open("hash", log=lambda m: None)
    assert idx3.search("DataCopyPad", k=1)[0].page == "api/DataCopyPad"


def test_page_and_per_page():
    p = retrieval.page("api/Cast")
    assert p is not None and "RoundMode" in p.apis and "## Signature" in p.body
    assert retrieval.page("../settings") is None and retrieval.page("api/NoSuchPage") is None
    idx = retrieval.open_index("hash")
    two = idx.search("Cast rounding modes half to float", k=3, per_page=2)
    pages = [h.page for h in two]
    assert all(pages.count(pg) <= 2 for pg in pages) and len(set(pages)) == 3
