"""The status line under the chat: model, backend and what is running (ChatState.status_line's markup)."""
from __future__ import annotations

from textual.widgets import Static


class StatusLine(Static):
    def show(self, markup: str) -> None:
        self.update(markup)
