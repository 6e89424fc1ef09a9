"""The panels of ``kgen chat``; each renders from a RunView (assistant.tui.runview) or plain text."""
from assistant.tui.widgets.chat_log import ChatLog, ChatMessage
from assistant.tui.widgets.files import DiffView, FilesPanel
from assistant.tui.widgets.prompt import CompletionHint, PromptInput
from assistant.tui.widgets.results import ResultsPanel
from assistant.tui.widgets.status import StatusLine
from assistant.tui.widgets.workflow import WorkflowPanel

__all__ = ["ChatLog", "ChatMessage", "CompletionHint", "DiffView", "FilesPanel", "PromptInput", "ResultsPanel",
           "StatusLine", "WorkflowPanel"]
