"""ChatClient against the real ScriptedOpenAI HTTP server: streaming and not, what is sent, and every
failure mapped to a one-line ModelError of the right kind within the configured time."""
from __future__ import annotations

import socket
import threading
import time

import langchain_openai  # noqa: F401  (imported once up front: the timing checks measure requests, not imports)
import pytest

from agent_graph.llm import ChatClient, ChatMessage, ModelError, ModelReply
from agent_graph.settings import ModelSettings
from tests.agent_graph.openai_server import ScriptedOpenAI, split_chunks

MESSAGES = [ChatMessage("system", "You write AscendC."), ChatMessage("user", "Write an add kernel."),
            ChatMessage("assistant", "Here it is."), ChatMessage("user", "Now fix line 3.")]
KERNEL = 'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {\n    // body\n}\n'


def client(url: str, **kw) -> ChatClient:
    retries = kw.pop("max_retries", 0)
    return ChatClient(ModelSettings(url=url, **kw), max_retries=retries)


def error_of(fn) -> ModelError:
    with pytest.raises(ModelError) as ei:
        fn()
    e = ei.value
    assert "\n" not in str(e) and str(e)
    return e


def test_streaming_tokens_arrive_in_order():
    with ScriptedOpenAI([{"text": KERNEL, "chunk_delay": 0.01}]) as srv:
        tokens: list[str] = []
        reply = client(srv.url).complete(MESSAGES, on_token=tokens.append)
        assert isinstance(reply, ModelReply)
        assert reply.text == KERNEL and reply.streamed and reply.finish_reason == "stop"
        assert tokens == split_chunks(KERNEL)            # every piece, in the order the server sent them
        assert reply.seconds > 0
        body = srv.requests[0]
        assert body["stream"] is True
        assert body["messages"] == [m.to_dict() for m in MESSAGES]


def test_non_streaming_and_settings_are_sent():
    with ScriptedOpenAI([{"text": "done", "finish_reason": "length"}]) as srv:
        c = client(srv.url, stream=False, temperature=0.7, max_tokens=123)
        tokens: list[str] = []
        reply = c.complete(MESSAGES, on_token=tokens.append)
        assert (reply.text, reply.finish_reason, reply.streamed) == ("done", "length", False)
        assert tokens == ["done"]                        # one piece: the whole reply
        body = srv.requests[0]
        assert not body.get("stream")
        assert body["temperature"] == 0.7
        assert body.get("max_tokens", body.get("max_completion_tokens")) == 123
        assert body["model"] == "AscendKernelGen/KernelGen-LM-32B-RL"
        assert c.describe() == f"AscendKernelGen/KernelGen-LM-32B-RL @ {srv.url}"


def test_empty_model_name_asks_the_endpoint():
    with ScriptedOpenAI(["ok"], models=["served-first", "served-second"]) as srv:
        c = client(srv.url, name="")
        assert c.list_models() == ["served-first", "served-second"]
        c.complete(MESSAGES)
        assert srv.requests[0]["model"] == "served-first"
        assert c.describe() == f"served-first @ {srv.url}"


def test_timeout_within_the_configured_time():
    with ScriptedOpenAI([{"text": "late", "delay": 5}]) as srv:
        t0 = time.monotonic()
        e = error_of(lambda: client(srv.url, timeout=1.0).complete(MESSAGES))
        assert e.kind == "timeout"
        assert time.monotonic() - t0 < 2.5
        assert "1 s" in str(e)


def test_timeout_is_for_the_whole_streamed_reply():
    # each chunk arrives well within the timeout, but the whole reply would take 3 s
    with ScriptedOpenAI([{"text": "a b c d e f g h i j", "chunk_delay": 0.3}]) as srv:
        t0 = time.monotonic()
        e = error_of(lambda: client(srv.url, timeout=1.0).complete(MESSAGES))
        assert e.kind == "timeout" and time.monotonic() - t0 < 2.5   # the reply would take 3 s


@pytest.mark.parametrize("stream", [True, False])
def test_http_error_carries_the_server_message(stream):
    with ScriptedOpenAI([{"status": 500, "error": "CUDA out of memory while allocating KV cache"}]) as srv:
        e = error_of(lambda: client(srv.url, stream=stream).complete(MESSAGES))
        assert e.kind == "http"
        assert "500" in str(e) and "CUDA out of memory while allocating KV cache" in str(e)


def test_unknown_model_name_says_how_to_check_it():
    with ScriptedOpenAI(["never"]) as srv:
        e = error_of(lambda: client(srv.url, name="KernelGen-typo").complete(MESSAGES))
        assert e.kind == "http" and "404" in str(e) and "KernelGen-typo" in str(e) and "model name" in str(e)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_refused_port_is_a_connection_error():
    url = f"http://127.0.0.1:{_free_port()}/v1"
    t0 = time.monotonic()
    e = error_of(lambda: client(url, timeout=5).complete(MESSAGES))
    assert e.kind == "connection" and url in str(e) and "refused" in str(e)
    assert time.monotonic() - t0 < 3
    e = error_of(lambda: client(url, name="").complete(MESSAGES))   # via GET /models first
    assert e.kind == "connection"


def test_cancel_mid_stream_stops_promptly():
    words = " ".join(f"w{i}" for i in range(40))
    with ScriptedOpenAI([{"text": words, "chunk_delay": 0.1}]) as srv:
        cancel = threading.Event()
        tokens: list[str] = []
        when: list[float] = []

        def on_token(t: str) -> None:
            tokens.append(t)
            if len(tokens) == 3:        # another thread (a UI) cancels while the reply streams
                threading.Timer(0.2, lambda: (when.append(time.monotonic()), cancel.set())).start()
        e = error_of(lambda: client(srv.url).complete(MESSAGES, on_token=on_token, cancel=cancel))
        assert e.kind == "cancelled"
        assert time.monotonic() - when[0] < 0.5       # soon after the cancel, not after the whole 4 s reply
        assert 3 <= len(tokens) < 40
        assert tokens == split_chunks(words)[: len(tokens)]


def test_cancel_before_the_request_sends_nothing():
    with ScriptedOpenAI(["x"]) as srv:
        cancel = threading.Event()
        cancel.set()
        assert error_of(lambda: client(srv.url).complete(MESSAGES, cancel=cancel)).kind == "cancelled"
        assert srv.requests == []


@pytest.mark.parametrize("stream", [True, False])
def test_malformed_reply_is_bad_response(stream):
    with ScriptedOpenAI([{"malformed": True, "text": "a b c d"}]) as srv:
        e = error_of(lambda: client(srv.url, stream=stream).complete(MESSAGES))
        assert e.kind == "bad-response" and "not OpenAI chat JSON" in str(e)


@pytest.mark.parametrize("stream", [True, False])
def test_dropped_connection(stream):
    with ScriptedOpenAI([{"drop": True, "text": "a b c d e f"}]) as srv:
        e = error_of(lambda: client(srv.url, stream=stream).complete(MESSAGES))
        assert e.kind == "connection" and "closed the connection" in str(e)


def test_empty_reply_is_bad_response():
    with ScriptedOpenAI([{"text": ""}]) as srv:
        e = error_of(lambda: client(srv.url).complete(MESSAGES))
        assert e.kind == "bad-response" and "empty reply" in str(e)


def test_one_retry_on_a_server_error():
    with ScriptedOpenAI([{"status": 503, "error": "busy"}, "second time lucky"]) as srv:
        assert client(srv.url, max_retries=1).complete(MESSAGES).text == "second time lucky"
        assert len(srv.requests) == 2


def test_no_token_counting(monkeypatch):
    """tiktoken fetches its encodings from the internet: the client must never reach it."""
    import tiktoken

    def boom(*a, **k):
        raise AssertionError("tiktoken was called")
    monkeypatch.setattr(tiktoken, "get_encoding", boom)
    monkeypatch.setattr(tiktoken, "encoding_for_model", boom)
    with ScriptedOpenAI(["a b", "c d"]) as srv:
        assert client(srv.url).complete(MESSAGES).text == "a b"
        assert client(srv.url, stream=False).complete(MESSAGES).text == "c d"


def test_no_endpoint_is_a_connection_error():
    assert error_of(lambda: ChatClient(ModelSettings(url=None))).kind == "connection"


def test_reply_cut_at_max_tokens_with_no_text_says_so():
    with ScriptedOpenAI([{"text": "", "finish_reason": "length"}]) as srv:
        e = error_of(lambda: client(srv.url, max_tokens=64).complete(MESSAGES))
        assert e.kind == "bad-response" and "64 tokens" in str(e) and "max_tokens" in str(e)


def test_parallel_requests_share_one_client():
    # --samples K drafts K candidates at once through one ChatClient
    with ScriptedOpenAI(default={"text": "same answer", "delay": 1.0}) as srv:
        c = client(srv.url)
        results: list[str] = []
        threads = [threading.Thread(target=lambda: results.append(c.complete(MESSAGES).text)) for _ in range(3)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == ["same answer"] * 3
        assert time.monotonic() - t0 < 2.5             # concurrently (one after the other: 3 s)
        assert len(srv.wait_for_requests(3)) == 3


def test_vllm_error_body_shape():
    # vLLM's own error object (no "error" wrapper): its message still reaches the user
    body = {"object": "error", "message": "This model's maximum context length is 32768 tokens. However, you "
            "requested 40000 tokens.", "type": "BadRequestError", "param": None, "code": 400}
    with ScriptedOpenAI([{"status": 400, "error_body": body}]) as srv:
        e = error_of(lambda: client(srv.url).complete(MESSAGES))
        assert e.kind == "http" and "400" in str(e) and "maximum context length is 32768 tokens" in str(e)


def test_json_that_is_not_a_chat_completion():
    with ScriptedOpenAI([{"raw": '{"object": "list", "data": []}'}]) as srv:
        e = error_of(lambda: client(srv.url, stream=False).complete(MESSAGES))
        assert e.kind == "bad-response"


def test_url_without_v1_or_scheme():
    with ScriptedOpenAI(["ok", "ok"]) as srv:
        root = srv.url[: -len("/v1")]
        assert client(root + "/").complete(MESSAGES).text == "ok"
        assert client(root.replace("http://", "")).complete(MESSAGES).text == "ok"
