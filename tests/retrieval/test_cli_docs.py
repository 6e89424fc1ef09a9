"""``kgen docs`` and ``kgen index`` as a user runs them (subprocess): output shapes, one-line errors."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def kgen(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT, env=e, timeout=300)


def _one_line_error(r: subprocess.CompletedProcess) -> None:
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0, r.stderr
    assert r.stderr.startswith("kgen")


def test_docs_json_shape():
    r = kgen("docs", "DataCopyPad", "--json", "-k", "3")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    assert 1 <= len(hits) <= 3
    assert hits[0]["page"] == "api/DataCopyPad"
    assert set(hits[0]) >= {"id", "page", "title", "section", "text", "source", "apis", "score"}
    assert hits[0]["source"] == "kb/api/DataCopyPad.md"


def test_docs_text_output_names_sources():
    r = kgen("docs", "how", "do", "I", "zero", "a", "tensor", "-k", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("[1] ") and "(kb/" in r.stdout


def test_docs_chinese_query():
    r = kgen("docs", "数据搬运 非对齐", "--json", "-k", "5")
    assert r.returncode == 0
    assert "api/DataCopyPad" in [h["page"] for h in json.loads(r.stdout)]


def test_user_mistakes_are_one_line_errors(tmp_path):
    _one_line_error(kgen("docs", "Add", "-k", "0"))
    _one_line_error(kgen("docs", "Add", "--embedder", "bert"))
    _one_line_error(kgen("docs", "Add", env={"KGEN_EMBEDDER": "bert"}))
    _one_line_error(kgen("index", str(tmp_path / "no-such-dir")))
    (tmp_path / "notes.txt").write_text("nothing to index")
    _one_line_error(kgen("index", str(tmp_path)))
    _one_line_error(kgen("docs"))


def test_index_tree_then_search_it(tmp_path):
    docs = tmp_path / "mydocs"
    docs.mkdir()
    (docs / "MyCustomOp.md").write_text("# MyCustomOp\n\nThe platypus kernel folds every tile twice.\n")
    r = kgen("index", str(docs))
    assert r.returncode == 0, r.stderr
    assert "1 new" in r.stdout and "(markdown)" in r.stdout
    r = kgen("index", str(docs))
    assert "0 new, 0 changed, 0 removed, 1 unchanged" in r.stdout
    r = kgen("docs", "platypus kernel folds", "--json", "-k", "1")
    assert json.loads(r.stdout)[0]["title"] == "MyCustomOp"
    r = kgen("index", str(docs), "--rebuild")
    assert r.returncode == 0 and "1 new" in r.stdout


def test_index_without_path_indexes_the_kb_and_rebuilds(kgen_data_dir):
    r = kgen("index")
    assert r.returncode == 0, r.stderr
    assert "knowledge base indexed" in r.stdout and "unchanged" in r.stdout
    r = kgen("index", "--rebuild")
    assert r.returncode == 0 and " 0 unchanged" in r.stdout
    assert "indexing the knowledge base:" in r.stderr   # plain progress lines when not a TTY


def test_corrupted_index_message_not_traceback(kgen_data_dir):
    (kgen_data_dir / "index" / "hash" / "manifest.json").write_text("\x00garbage")
    r = kgen("docs", "DataCopyPad", "-k", "1")
    assert r.returncode == 0
    assert "unreadable" in r.stderr and "rebuilding" in r.stderr and "Traceback" not in r.stderr
    assert "DataCopyPad" in r.stdout


def test_compiler_message_gets_a_did_you_mean():
    r = kgen("docs", "error: no member named 'Exponential' in namespace 'AscendC'", "-k", "1")
    assert r.returncode == 0, r.stderr
    assert "'Exponential' is not an AscendC API; did you mean: Exp" in r.stdout
    assert "kb/errors/no-member-named.md" in r.stdout
