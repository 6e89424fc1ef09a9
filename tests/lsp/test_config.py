"""The server's settings load (lsp/config.py): the workspace's kgen.toml under the editor's options; a broken
file leaves the defaults with the editor's options still on top, and says so in the log."""
from __future__ import annotations

import logging

from agent_graph import settings as tree
from lsp.config import load
from lsp.editor import EditorOptions


def test_editor_options_sit_on_top_of_the_workspace_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "kgen.toml").write_text('[model]\nurl = "http://project:8000/v1"\n[agent]\nsamples = 3\n')
    try:
        s = load(str(tmp_path), EditorOptions(model_url="http://editor:9000/v1", backend="sim"))
        assert s.model.url == "http://editor:9000/v1" and s.agent.samples == 3
        assert s.sources["model.url"] == "command line" and s.sources["agent.samples"].startswith("project ")
    finally:
        tree.configure(tree.Settings())


def test_a_broken_workspace_file_is_logged_and_the_editor_options_still_apply(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "kgen.toml").write_text("[agent]\nsamples = 'three'\n")
    try:
        with caplog.at_level(logging.WARNING, logger="kgen.lsp"):
            s = load(str(tmp_path), EditorOptions(model_url="http://editor:9000/v1"))
        assert s.model.url == "http://editor:9000/v1" and s.agent.samples == tree.AgentSettings().samples
        assert any("kgen.toml" in r.getMessage() and "using the defaults" in r.getMessage() for r in caplog.records)
    finally:
        tree.configure(tree.Settings())
