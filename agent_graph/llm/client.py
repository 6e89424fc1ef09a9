"""One chat client for any OpenAI-compatible endpoint (vLLM by default), built on langchain-openai.

``ChatClient.complete`` sends a list of :class:`ChatMessage` and returns a :class:`ModelReply`.
Streaming replies call ``on_token`` for each piece, in order (a non-streamed reply: once, whole). Every failure becomes a
:class:`ModelError` whose ``str`` is one line a user can act on and whose ``kind`` is one of
``connection``, ``timeout``, ``http``, ``bad-response``, ``cancelled``.

The request runs in a worker thread while the caller's thread watches the overall deadline
(``ModelSettings.timeout``, for the whole reply, not per read) and the ``cancel`` event. On either,
the client's HTTP connection pool is closed, which ends the worker's read at once.

Nothing here counts tokens: langchain-openai's token counting loads tiktoken encodings from the
internet, so only ``invoke``/``stream`` are called.
"""
from __future__ import annotations

import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import httpx

from agent_graph.settings import ModelSettings


@dataclass
class ChatMessage:
    role: str          # "system" | "user" | "assistant"
    content: str

    def to_dict(self) -> dict:
        return {"role": self.role, "content": self.content}

    @classmethod
    def from_dict(cls, d: dict) -> "ChatMessage":
        return cls(role=str(d["role"]), content=str(d["content"]))


@dataclass
class ModelReply:
    text: str
    finish_reason: str     # "stop" | "length" | ... ("" when the server did not say)
    seconds: float
    streamed: bool


class ModelError(Exception):
    """A model call that failed; ``str(e)`` is one line, ``kind`` says which way it failed."""

    KINDS = ("connection", "timeout", "http", "bad-response", "cancelled")

    def __init__(self, kind: str, message: str) -> None:
        assert kind in self.KINDS, kind
        super().__init__(" ".join(message.split()))
        self.kind = kind


_ROLES = ("system", "user", "assistant")
_POLL = 0.05          # seconds between checks of the cancel event and the deadline


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _server_message(response: httpx.Response | None, fallback: str) -> str:
    """The error text a server put in its body: OpenAI ``{"error": {"message"}}``, vLLM/FastAPI shapes, or raw text."""
    if response is None:
        return fallback
    try:
        body: Any = response.json()
    except Exception:
        try:
            body = response.text
        except Exception:
            return fallback
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            for key in ("message", "detail", "msg"):
                if err.get(key):
                    return _one_line(err[key] if isinstance(err[key], str) else json.dumps(err[key]))
        elif isinstance(err, str) and err:
            return _one_line(err)
        if body.get("detail"):
            d = body["detail"]
            return _one_line(d if isinstance(d, str) else json.dumps(d))
        return _one_line(json.dumps(body))
    return _one_line(body) if str(body).strip() else fallback


def normalise_url(url: str) -> str:
    """The API base: no trailing slash, ``http://`` when no scheme is given, and ``/v1`` when the URL has no
    path at all (``http://host:8000`` -> ``http://host:8000/v1``, where vLLM serves the OpenAI API)."""
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    if not httpx.URL(url).path.strip("/"):
        url += "/v1"
    return url


class ChatClient:
    """Chat completions against ``settings.url`` with ``settings.name`` (asked from /models when "")."""

    def __init__(self, settings: ModelSettings, max_retries: int = 1) -> None:
        if not settings.url:
            raise ModelError("connection", "no model endpoint configured (pass --llm URL or set KGEN_LLM_URL)")
        self.settings = settings
        self.url = normalise_url(settings.url)
        self.max_retries = max_retries
        self._model: str | None = settings.name or None

    # -- what and where ------------------------------------------------------------------------
    @property
    def model(self) -> str:
        """The served model's name; asks the endpoint when the settings leave it empty."""
        if self._model is None:
            models = self.list_models()
            if not models:
                raise ModelError("bad-response", f"the model server at {self.url} serves no model (GET /models is empty)")
            self._model = models[0]
        return self._model

    def describe(self) -> str:
        name = self._model or self.settings.name or "(first served model)"
        return f"{name} @ {self.url}"

    def list_models(self) -> list[str]:
        """GET {url}/models: the ids of the served models, in the server's order."""
        try:
            r = httpx.get(f"{self.url}/models", timeout=min(self.settings.timeout, 30.0),
                          headers={"Authorization": f"Bearer {self.settings.api_key}"})
        except httpx.TimeoutException:
            raise ModelError("timeout", f"the model server at {self.url} did not answer GET /models in time") from None
        except httpx.HTTPError as e:
            reason = "connection refused" if "refused" in str(e).lower() else (_one_line(e, 120) or type(e).__name__)
            raise ModelError("connection", f"cannot reach the model server at {self.url} ({reason}); is it running? "
                             "(start one with 'kgen serve', or check --llm / KGEN_LLM_URL)") from None
        if r.status_code >= 400:
            raise ModelError("http", f"the model server answered GET /models with HTTP {r.status_code}: "
                             f"{_server_message(r, r.reason_phrase)}")
        try:
            data = r.json()["data"]
            return [str(m["id"]) for m in data]
        except Exception:
            raise ModelError("bad-response", f"GET {self.url}/models did not return an OpenAI model list") from None

    # -- one reply -----------------------------------------------------------------------------
    def _llm(self, http_client: httpx.Client) -> Any:
        # lazy: langchain_openai costs 6.7 s of start-up (openai + tiktoken); only a model run pays it
        from langchain_openai import ChatOpenAI

        s = self.settings
        return ChatOpenAI(model=self.model, base_url=self.url, api_key=s.api_key, temperature=s.temperature,
                          max_tokens=s.max_tokens, timeout=s.timeout, max_retries=self.max_retries,
                          streaming=s.stream, use_responses_api=False, http_client=http_client)

    @staticmethod
    def _lc_messages(messages: list[ChatMessage]) -> list[Any]:
        # lazy: langchain_core costs 0.4 s of start-up; only a model run pays it
        from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

        kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
        out = []
        for m in messages:
            if m.role not in _ROLES:
                raise ValueError(f"unknown chat role {m.role!r} (expected one of {', '.join(_ROLES)})")
            out.append(kinds[m.role](content=m.content))
        return out

    def complete(self, messages: list[ChatMessage], on_token: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None) -> ModelReply:
        """Send ``messages``; return the whole reply. Raises :class:`ModelError` on any failure."""
        if cancel is not None and cancel.is_set():
            raise ModelError("cancelled", "the model request was cancelled")
        lc_messages = self._lc_messages(messages)
        _ = self.model          # resolve an empty model name (GET /models) before any connection is opened
        http_client = httpx.Client(timeout=self.settings.timeout)
        llm = self._llm(http_client)
        start = time.monotonic()    # the deadline covers the request, not the first import of langchain
        streamed = bool(self.settings.stream)
        events: queue.Queue[tuple[str, Any]] = queue.Queue()

        def work() -> None:
            try:
                if streamed:
                    finish = ""
                    for chunk in llm.stream(lc_messages):
                        text = chunk.content if isinstance(chunk.content, str) else ""
                        if text:
                            events.put(("token", text))
                        finish = (chunk.response_metadata or {}).get("finish_reason") or finish
                    if not finish:      # vLLM ends every stream with a finish_reason: the connection was cut
                        raise httpx.RemoteProtocolError("stream ended without a finish_reason")
                    events.put(("done", finish))
                else:
                    msg = llm.invoke(lc_messages)
                    text = msg.content if isinstance(msg.content, str) else ""
                    events.put(("text", text))
                    events.put(("done", (msg.response_metadata or {}).get("finish_reason") or ""))
            except BaseException as e:  # noqa: BLE001 - every failure is reported to the waiting thread
                events.put(("error", e))

        worker = threading.Thread(target=work, name="kgen-model-request", daemon=True)
        worker.start()
        parts: list[str] = []
        try:
            while True:
                if cancel is not None and cancel.is_set():
                    raise ModelError("cancelled", "the model request was cancelled")
                if time.monotonic() - start > self.settings.timeout:
                    raise ModelError("timeout", f"no complete reply from {self.describe()} within "
                                     f"{self.settings.timeout:g} s (raise model.timeout / KGEN_LLM_TIMEOUT, or check the server)")
                try:
                    what, value = events.get(timeout=_POLL)
                except queue.Empty:
                    continue
                if what == "token":
                    parts.append(value)
                    if on_token is not None:
                        on_token(value)
                elif what == "text":        # a non-streamed reply is one piece
                    parts.append(value)
                    if on_token is not None and value:
                        on_token(value)
                elif what == "error":
                    raise self._map_error(value) from None
                else:
                    finish = str(value or "")
                    break
        finally:
            http_client.close()     # ends a read still in progress in the worker (cancel, deadline)
        text = "".join(parts)
        if not text.strip():
            if finish == "length":
                raise ModelError("bad-response", f"{self.describe()} used all {self.settings.max_tokens} tokens before "
                                 "writing any answer (reasoning only?); raise model.max_tokens (KGEN_MAX_TOKENS)")
            raise ModelError("bad-response", f"{self.describe()} returned an empty reply"
                             + (f" (finish_reason: {finish})" if finish else ""))
        return ModelReply(text=text, finish_reason=finish, seconds=time.monotonic() - start, streamed=streamed)

    def _map_error(self, e: BaseException) -> ModelError:
        """One ModelError for a failure raised anywhere in langchain-openai / openai / httpx (their wrappers
        chain the original exception, so the whole chain is looked at)."""
        import openai  # lazy: 2.2 s of start-up; imported already once a reply was asked for

        if isinstance(e, ModelError):
            return e
        chain: list[BaseException] = []
        cur: BaseException | None = e
        while cur is not None and cur not in chain:
            chain.append(cur)
            cur = cur.__cause__ or cur.__context__

        def first(*types: type) -> BaseException | None:
            return next((x for x in chain if isinstance(x, types)), None)

        where = self.describe()
        if first(openai.APITimeoutError, httpx.TimeoutException, TimeoutError):
            return ModelError("timeout", f"{where} did not answer within {self.settings.timeout:g} s")
        status = first(openai.APIStatusError)
        if isinstance(status, openai.APIStatusError):
            msg = _server_message(status.response, _one_line(status.message))
            hint = ""
            if status.status_code == 404 and "model" in msg.lower():
                hint = " (check the model name: 'kgen config' shows it; GET /models lists the served ones)"
            elif status.status_code in (401, 403):
                hint = " (check the API key: model.api_key or KGEN_API_KEY)"
            return ModelError("http", f"the model server answered HTTP {status.status_code}: {msg}{hint}")
        if first(httpx.RemoteProtocolError, httpx.ReadError, ConnectionResetError, BrokenPipeError):
            return ModelError("connection", f"the model server at {self.url} closed the connection before the "
                              "reply was complete")
        if first(httpx.ConnectError, ConnectionRefusedError, openai.APIConnectionError, httpx.TransportError):
            root = chain[-1]
            reason = _one_line(root, 120) if not isinstance(root, openai.APIConnectionError) else "connection error"
            if isinstance(root, ConnectionRefusedError) or "refused" in reason.lower():
                reason = "connection refused"
            return ModelError("connection", f"cannot reach the model server at {self.url} ({reason}); "
                              "is it running? (start one with 'kgen serve', or check --llm / KGEN_LLM_URL)")
        bad = first(json.JSONDecodeError, openai.APIResponseValidationError)
        if bad is not None:
            return ModelError("bad-response", f"{where} sent a reply that is not OpenAI chat JSON "
                              f"({type(bad).__name__}: {_one_line(bad, 160)})")
        return ModelError("bad-response", f"{where} sent a reply kgen cannot read ({type(e).__name__}: "
                          f"{_one_line(e, 200)})")
