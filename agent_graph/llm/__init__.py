"""Model clients: one chat client for any OpenAI-compatible endpoint, and the ``kgen serve`` launcher."""
from agent_graph.llm.client import ChatClient, ChatMessage, ModelError, ModelReply

__all__ = ["ChatClient", "ChatMessage", "ModelError", "ModelReply"]
