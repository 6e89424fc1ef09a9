"""The chat log: one markdown block per message; the model's reply is streamed into its block."""
from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownStream

ROLE_PREFIX = {"user": "", "assistant": "", "system": "", "error": "**error:** "}


class ChatMessage(Markdown):
    """One message; its CSS class is its role (user, assistant, system, error)."""

    def __init__(self, role: str, text: str) -> None:
        super().__init__(ROLE_PREFIX.get(role, "") + text, classes=f"msg {role}")
        self.role = role
        self.text_source = text


class ChatLog(VerticalScroll):
    """Messages, newest at the bottom; follows the end unless the user scrolled up."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._stream: MarkdownStream | None = None
        self._stream_msg: ChatMessage | None = None

    def add(self, role: str, text: str) -> ChatMessage:
        self.end_stream()
        msg = ChatMessage(role, text)
        self.mount(msg)
        self.scroll_end(animate=False)
        return msg

    @property
    def texts(self) -> list[tuple[str, str]]:
        """(role, text) of every message, the streamed one with what has arrived so far."""
        return [(m.role, m.text_source) for m in self.query(ChatMessage)]

    async def stream(self, text: str) -> None:
        """Append a piece of the model's reply (a new assistant message on the first piece)."""
        if self._stream is None:
            self._stream_msg = ChatMessage("assistant", "")
            await self.mount(self._stream_msg)
            self._stream = Markdown.get_stream(self._stream_msg)
        assert self._stream_msg is not None
        self._stream_msg.text_source += text
        await self._stream.write(text)
        self.scroll_end(animate=False)

    def end_stream(self) -> str:
        """Close the streamed message; returns its full text ("" when nothing was streamed)."""
        text = self._stream_msg.text_source if self._stream_msg is not None else ""
        if self._stream is not None:
            self.run_worker(self._stream.stop(), exclusive=False)
        self._stream, self._stream_msg = None, None
        return text

    def clear(self) -> None:
        self.end_stream()
        self.remove_children()
