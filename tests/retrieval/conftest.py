"""Every retrieval test gets its own data dir (the index never touches ~/.local/share), seeded
with a copy of one hash-embedder index of the shipped KB built once per session."""
from __future__ import annotations

import shutil

import pytest

from retrieval.settings import DocsSettings, configure


@pytest.fixture(scope="session")
def built_index(tmp_path_factory):
    d = tmp_path_factory.mktemp("kgen-seed")
    from retrieval.index import Index

    configure(DocsSettings(embedder="hash", data_dir=d))
    try:
        idx = Index.open("hash", log=lambda m: None)
        idx.store.close()
    finally:
        configure(None)
    return d


@pytest.fixture(autouse=True)
def kgen_data_dir(request, tmp_path, monkeypatch):
    d = tmp_path / "kgen-data"
    if "fresh_index" not in request.keywords:
        shutil.copytree(request.getfixturevalue("built_index"), d)
    # retrieval reads no environment: the section is configured here, as a front end would, and the
    # environment is set for the subprocesses (kgen commands) a test starts
    monkeypatch.setenv("KGEN_DATA_DIR", str(d))
    monkeypatch.setenv("KGEN_EMBEDDER", "hash")
    import retrieval

    configure(DocsSettings(embedder="hash", data_dir=d))
    retrieval._OPEN.clear()
    yield d
    for idx in list(retrieval._OPEN.values()):
        if getattr(idx, "store", None) is not None:
            idx.store.close()
    retrieval._OPEN.clear()
    configure(None)


def pytest_configure(config):
    config.addinivalue_line("markers", "fresh_index: start from an empty data dir (no seeded index)")
