"""Issue 22, item 6 and the `kgen docs Addd` part of item 4: plain-words questions find their page with
the default settings, Chinese questions get Chinese summaries, a misspelled API name gets a
"did you mean", and `kgen docs NAME` does not import Chroma."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import retrieval
from retrieval.corpus import load_kb
from retrieval.tokenize import expand, stem, tokens

ROOT = Path(__file__).resolve().parents[2]


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ), timeout=300)


@pytest.mark.parametrize("question,page", [
    ("how many cores were launched", "api/GetBlockIdx"),
    ("set every element of a local tensor to the same scalar", "api/Duplicate"),
    ("view a local tensor as another data type", "api/LocalTensor"),
])
def test_issue_questions_find_their_page_with_the_default_settings(question, page):
    pages = [p.page for p in retrieval.search(question, k=5)]
    assert page in pages, pages


def test_dev_split_recall():
    """The dev split of the held-out-style set (benchmarks/retrieval_plain.py prints test as well)."""
    data = json.loads((ROOT / "benchmarks" / "data" / "retrieval_plain_queries.json").read_text())["queries"]
    dev = [q for q in data if q["split"] == "dev"]
    assert len(data) >= 60 and len(dev) < len(data)
    idx = retrieval.open_index()
    hits = sum(any(p.page in q["expect"] for p in idx.search(q["q"], k=5)) for q in dev)
    assert hits / len(dev) >= 0.95, f"dev recall@5 {hits}/{len(dev)}"


def test_did_you_mean_for_a_misspelled_api_name():
    r = kgen("docs", "Addd", "-k", "3")
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith("'Addd' is not an AscendC API; did you mean: Add, Adds"), first
    assert "[1] Add  (kb/api/Add.md)" in r.stdout     # the nearest API ranks first
    r = kgen("docs", "Addd", "--json", "-k", "1")       # JSON on stdout stays a list; the hint is on stderr
    assert json.loads(r.stdout)[0]["page"] == "api/Add" and "did you mean: Add" in r.stderr


def test_plain_words_are_searched_not_corrected():
    idx = retrieval.open_index()
    for q in ("tiling", "Deadlock", "alignment", "foo", "DataCopy"):
        assert idx.suggest(q) == [], q
    assert idx.suggest("GetBlokNum")[0] == "GetBlockNum"


def test_chinese_question_shows_chinese_summaries():
    r = kgen("docs", "把张量所有元素设成同一个值", "-k", "5")
    assert r.returncode == 0, r.stderr
    dup = next(p for p in load_kb() if p.id == "api/Duplicate")
    assert dup.summary_zh and f"    {dup.summary_zh}" in r.stdout
    r = kgen("docs", "set every element of a local tensor to the same scalar", "-k", "5")
    assert dup.summary_zh not in r.stdout               # English questions get English only


def test_every_api_page_has_a_plain_description_and_a_chinese_summary():
    bad = [p.id for p in load_kb() if p.id.startswith("api/")
           and not (p.meta.get("plain") and any("\u4e00" <= c <= "\u9fff" for c in p.summary_zh))]
    assert not bad, "API pages without 'plain' / 'summary_zh' front matter: " + ", ".join(bad)


def test_stems_and_synonyms():
    assert stem("copies") == stem("copying") == stem("copied") == stem("copy")
    assert stem("reduced") == stem("reduce") == stem("reducing")
    assert "launch" in tokens("launched") and "datacopypad" in tokens("DataCopyPad")
    w = expand("how many cores", 0.2)
    assert w["cores"] == 1.0 and w.get("block") == 0.2


def test_api_name_query_does_not_import_chroma():
    retrieval.open_index().search("DataCopyPad")     # a first search writes lexical.pkl, as kgen docs does
    code = ("import sys, retrieval; from agent_graph.settings import configure, load_settings; "
            "configure(load_settings()); idx = retrieval.open_index(lazy=True); "
            "assert idx.search('DataCopyPad')[0].page == 'api/DataCopyPad'; "
            "assert idx.search('Addd')[0].page == 'api/Add'; print(int('chromadb' in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "0"


def test_lazy_index_repairs_a_damaged_store_at_first_vector_search(kgen_data_dir):
    from retrieval.index import Index

    (kgen_data_dir / "index" / "hash" / "chroma" / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    msgs: list[str] = []
    idx = Index.open("hash", log=msgs.append, lazy=True)
    assert idx.search("DataCopyPad", k=1)[0].page == "api/DataCopyPad"     # lexical: no store needed
    assert idx.search("copy a tail that is not 32-byte aligned", k=5)
    assert any("unreadable" in m and "rebuilding" in m for m in msgs), msgs
    idx.store.close()
