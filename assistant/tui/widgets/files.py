"""The files panel (the project's op_host/op_kernel/tiling files, highlighted) and the repair diff view."""
from __future__ import annotations

from pathlib import PurePosixPath

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from assistant.tui.runview import RunView

LEXERS = {".cpp": "cpp", ".cc": "cpp", ".h": "cpp", ".hpp": "cpp", ".asc": "cpp", ".py": "python", ".toml": "toml",
          ".json": "json", ".md": "markdown", ".txt": "text", ".cmake": "cmake"}
THEME = "monokai"


def lexer_for(path: str) -> str:
    name = PurePosixPath(path).name
    if name == "CMakeLists.txt":
        return "cmake"
    return LEXERS.get(PurePosixPath(path).suffix, "text")


def file_order(path: str) -> tuple[int, str]:
    """Kernel first, then the tiling header, then the host file, then anything else."""
    rank = 0 if path.startswith("op_kernel/") else 1 if path.endswith("_tiling.h") else 2 if path.startswith("op_host/") else 3
    return rank, path


class FilesPanel(Vertical):
    """A file list over a highlighted view of the chosen file."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.files: dict[str, str] = {}
        self.current = ""

    def compose(self) -> ComposeResult:
        yield OptionList(id="file-list")
        with VerticalScroll(id="file-scroll"):
            yield Static(Text("No files yet: /generate or /open PATH.", style="dim"), id="file-view")

    def show_files(self, files: dict[str, str], caption: str = "", select: str | None = None) -> None:
        self.files = dict(files)
        names = sorted(self.files, key=file_order)
        ol = self.query_one("#file-list", OptionList)
        ol.clear_options()
        ol.add_options([Option(n, id=n) for n in names])
        ol.border_title = caption or None
        if names:
            pick = select if select in self.files else (self.current if self.current in self.files else names[0])
            ol.highlighted = names.index(pick)
            self.show_file(pick)

    def show_view(self, view: RunView) -> None:
        if not view.rounds:
            return
        last = view.rounds[-1]
        self.show_files(view.files(), f"round {last.round}: {last.reason}")

    def show_file(self, name: str) -> None:
        self.current = name
        text = self.files.get(name, "")
        view = self.query_one("#file-view", Static)
        view.update(Syntax(text, lexer_for(name), theme=THEME, line_numbers=True, word_wrap=False,
                           indent_guides=False))
        self.query_one("#file-scroll", VerticalScroll).scroll_home(animate=False)

    @on(OptionList.OptionHighlighted, "#file-list")
    def _picked(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.current:
            self.show_file(event.option.id)


class DiffView(VerticalScroll):
    """What the last repair changed (unified diff against the round before it)."""

    def compose(self) -> ComposeResult:
        yield Static(Text("No repair yet: the diff of each repair round shows here.", style="dim"), id="diff-text")

    def show_view(self, view: RunView) -> None:
        diff = view.round_diff() if len(view.rounds) > 1 else ""
        static = self.query_one("#diff-text", Static)
        if not diff:
            static.update(Text("No repair yet: the diff of each repair round shows here.", style="dim"))
            return
        r = view.rounds[-1]
        prev = view.rounds[-2]
        head = Text(f"round {r.round} ({r.reason}) vs round {prev.round} ({prev.reason})\n", style="bold")
        static.update(Group(head, Syntax(diff, "diff", theme=THEME, word_wrap=True)))
