"""Every retrieval test gets its own data dir (the index never touches ~/.local/share), seeded
with a copy of one hash-embedder index of the shipped KB built once per session."""
from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def built_index(tmp_path_factory):
    d = tmp_path_factory.mktemp("kgen-seed")
    mp = pytest.MonkeyPatch()
    mp.setenv("KGEN_DATA_DIR", str(d))
    from retrieval.index import Index

    idx = Index.open("hash", log=lambda m: None)
    idx.store.close()
    mp.undo()
    return d


@pytest.fixture(autouse=True)
def kgen_data_dir(request, tmp_path, monkeypatch):
    d = tmp_path / "kgen-data"
    if "fresh_index" not in request.keywords:
        shutil.copytree(request.getfixturevalue("built_index"), d)
    monkeypatch.setenv("KGEN_DATA_DIR", str(d))
    monkeypatch.setenv("KGEN_EMBEDDER", "hash")
    import retrieval

    retrieval._OPEN.clear()
    yield d
    for idx in list(retrieval._OPEN.values()):
        if getattr(idx, "store", None) is not None:
            idx.store.close()
    retrieval._OPEN.clear()


def pytest_configure(config):
    config.addinivalue_line("markers", "fresh_index: start from an empty data dir (no seeded index)")
