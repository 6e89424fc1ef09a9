"""What a typed line means (assistant.tui.commands): slash commands, paths, words, completion."""
from __future__ import annotations

from pathlib import Path

from assistant.tui.commands import FreeText, Invalid, PathInput, Slash, complete, help_markdown, parse
from tests.assistant.tui.helpers import REPO


def test_slash_commands_with_and_without_arguments():
    assert parse("/docs DataCopyPad  ") == Slash("docs", "DataCopyPad")
    assert parse("/bench") == Slash("bench", "")
    assert parse("/model off") == Slash("model", "off")
    assert parse("/gen examples/tasks/add") == Slash("generate", "examples/tasks/add")   # a unique prefix
    assert parse("   ") is None


def test_mistakes_are_one_line_messages():
    assert parse("/docs") == Invalid("/docs needs QUERY: search the AscendC knowledge base")
    assert "did you mean /help" in parse("/hlep").message
    assert parse("/b").message == "/b is ambiguous: /bench, /backend"
    assert "one of: sim, npu" in parse("/backend gpu").message
    assert parse("/undo now").message == "/undo takes no argument"
    assert parse("/").message.startswith("type a command")


def test_paths_are_classified_by_what_they_hold():
    assert parse("examples/tasks/add", REPO) == PathInput(REPO / "examples/tasks/add", "task")
    assert parse("examples/tasks/add/kgen-task.toml", REPO).kind == "task"
    assert parse("examples/add/add.asc", REPO) == PathInput(REPO / "examples/add/add.asc", "program")
    assert parse("README.md", REPO).kind == "file"
    assert parse("softmax over the last dim for fp16 [B, 4096]", REPO) == \
        FreeText("softmax over the last dim for fp16 [B, 4096]")
    assert parse("no/such/path", REPO) == FreeText("no/such/path")


def test_completion_of_names_choices_paths_and_sessions(tmp_path: Path):
    assert complete("/b") == ["/bench ", "/backend "]
    assert complete("/he") == ["/help"]
    assert complete("/backend n") == ["/backend npu"]
    assert complete("/bench examples/ad", REPO) == ["/bench examples/add/"]
    assert complete("/bench examples/add/", REPO) == ["/bench examples/add/add.asc"]
    (tmp_path / "out").mkdir()
    (tmp_path / "other.txt").write_text("x")
    assert complete("/save o", tmp_path) == ["/save out/"]                     # /save completes folders only
    assert complete("/resume 2026", sessions=["20261201-a", "20251201-b"]) == ["/resume 20261201-a"]
    assert complete("hello") == [] and complete("/nope x") == []


def test_help_lists_every_command():
    text = help_markdown()
    for name in ("generate", "bench", "fix", "docs", "model", "backend", "open", "save", "undo", "sessions",
                 "resume", "help"):
        assert f"`/{name}" in text
    assert "Ctrl+C" in text and "Ctrl+Q" in text
