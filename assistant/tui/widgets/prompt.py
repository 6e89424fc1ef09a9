"""The prompt: an input line that completes slash commands and their paths, and the hint line above it.

The prompt completes by itself (Tab, and grey inline suggestions Right arrow accepts) with the
``complete(line) -> candidates`` function it is given; what the hint line should show it posts as
:class:`PromptInput.Hint`, which the app hands to the :class:`CompletionHint` widget.
"""
from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Input, Static

from assistant.tui import commands as cmds

Completer = Callable[[str], list[str]]
"""Full-line completions of what is typed so far (assistant.tui.commands.complete with the chat's cwd and sessions)."""


class CommandSuggester(Suggester):
    """Grey inline completion of slash commands and their path arguments (Right arrow accepts)."""

    def __init__(self, complete: Completer) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.complete = complete

    async def get_suggestion(self, value: str) -> str | None:
        options = self.complete(value)
        return options[0] if len(options) == 1 else (cmds.common_prefix(options) or None)


def command_hint(value: str) -> str | Text:
    """The commands a partly typed ``/name`` can still become, with their usage when few are left."""
    if not value.startswith("/") or " " in value:
        return ""
    found = [c for c in cmds.COMMANDS if c.name.startswith(value[1:].lower())]
    if 0 < len(found) <= 4:
        return Text("\n").join(Text.assemble((f"/{c.name}", "bold"), f" {c.usage}  ", (c.summary, "dim"))
                               for c in found)
    return "  ".join(f"/{c.name}" for c in found)


class PromptInput(Input):
    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]

    class Hint(Message):
        """What the hint line should show now ("" hides it)."""

        def __init__(self, hint: str | Text) -> None:
            super().__init__()
            self.hint = hint

    def __init__(self, complete: Completer, **kw) -> None:
        super().__init__(suggester=CommandSuggester(complete), **kw)
        self.complete = complete

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self.post_message(self.Hint(command_hint(event.value)))

    def action_complete(self) -> None:
        """Tab: extend the line to the candidates' common prefix; several candidates are listed in the hint."""
        options = self.complete(self.value)
        if not options:
            return
        best = options[0] if len(options) == 1 else cmds.common_prefix(options)
        if len(best) > len(self.value):
            self.value = best
            self.cursor_position = len(best)
        if len(options) > 1:
            self.post_message(self.Hint(Text("  ".join(o.rstrip().rsplit(" ", 1)[-1] if " " in o.rstrip() else o
                                                       for o in options[:12]))))


class CompletionHint(Static):
    """The line above the prompt listing commands or completion candidates; hidden when empty."""

    def show(self, hint: str | Text) -> None:
        self.update(hint)
        self.set_class(bool(hint), "shown")
