"""ScriptedOpenAI: a real local HTTP server speaking the OpenAI chat API, scripted reply by reply.

It stands in for vLLM in tests: a stdlib ``ThreadingHTTPServer`` on 127.0.0.1 (port 0 = a free port)
serving

- ``POST /v1/chat/completions`` — JSON, or SSE when the request says ``"stream": true``
  (``data: {chunk}`` lines, a final chunk with ``finish_reason``, then ``data: [DONE]``);
- ``GET /v1/models`` — the served model ids (vLLM's shape);
- ``GET /health`` — 200 once "loaded" (see ``ready_after``), 503 before.

Each chat request takes the next scripted reply. A reply is plain text, or a dict / :class:`Reply`::

    {"text": "...",          # the reply
     "delay": 0.0,           # seconds before the first byte
     "chunk_delay": 0.0,     # seconds between streamed chunks
     "chunk_size": 0,        # characters per streamed chunk (0: one word, with its spaces, per chunk)
     "status": 200,          # an HTTP error status ...
     "error": "",            # ... with this message in an OpenAI error body
     "malformed": false,     # a body (or SSE chunk) that is not JSON
     "drop": false,          # close the connection mid-reply
     "finish_reason": "stop",
     "raw": null,            # a 200 body sent verbatim (non-streaming)
     "error_body": null}     # with "status": this JSON body (e.g. vLLM's older {"object": "error", ...})

When the script runs out, ``default`` is used if given, else HTTP 500 "script exhausted". Every request
body is recorded (``server.requests``; ``--record FILE`` appends them as JSON lines), so tests can
assert what a prompt contained.

In a test::

    with ScriptedOpenAI(["hello"]) as srv:        # or the ``scripted_openai`` fixture (defined below)
        ChatClient(ModelSettings(url=srv.url))     # srv.url == "http://127.0.0.1:PORT/v1"

As a process (for the TUI tests, and as a stand-in for ``vllm serve`` in ``kgen serve`` tests: it
accepts and ignores vLLM's flags, and ``serve MODEL`` / ``--served-model-name`` set the model list)::

    python -m tests.agent_graph.openai_server --port 8000 --script replies.json [--record requests.jsonl]
        [--ready-after SECONDS]

It prints ``listening on http://HOST:PORT/v1`` once ready to accept connections and stops cleanly on
SIGINT/SIGTERM. ``replies.json`` is a list of replies or ``{"replies": [...], "default": ..., "models": [...]}``.
"""
from __future__ import annotations

import argparse
import json
import re
import signal
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass, fields
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

DEFAULT_MODEL = "AscendKernelGen/KernelGen-LM-32B-RL"


@dataclass
class Reply:
    text: str = ""
    delay: float = 0.0
    chunk_delay: float = 0.0
    chunk_size: int = 0
    status: int = 200
    error: str = ""
    malformed: bool = False
    drop: bool = False
    finish_reason: str = "stop"
    raw: str | None = None          # a 200 body sent verbatim (non-streaming requests)
    error_body: dict | None = None  # with ``status``: this JSON body instead of the OpenAI error shape

    @classmethod
    def of(cls, item: "str | dict | Reply") -> "Reply":
        if isinstance(item, Reply):
            return item
        if isinstance(item, str):
            return cls(text=item)
        if isinstance(item, dict):
            names = {f.name for f in fields(cls)}
            bad = sorted(set(item) - names)
            if bad:
                raise ValueError(f"unknown reply key(s) {', '.join(bad)} (known: {', '.join(sorted(names))})")
            return cls(**item)
        raise TypeError(f"a scripted reply is text, a dict or a Reply, not {type(item).__name__}")


def split_chunks(text: str, size: int = 0) -> list[str]:
    """Streamed pieces: ``size`` characters each, or one word with its following spaces when 0."""
    if size > 0:
        return [text[i:i + size] for i in range(0, len(text), size)]
    return re.findall(r"\S+\s*|\s+", text)


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:   # quiet
        pass

    # -- helpers ---------------------------------------------------------------------------------
    def _json(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        kind = {400: "BadRequestError", 404: "NotFoundError", 503: "ServiceUnavailableError"}.get(status, "InternalServerError")
        self._json(status, {"error": {"message": message, "type": kind, "param": None, "code": status},
                            "object": "error", "message": message, "type": kind, "code": status})

    def _drop(self) -> None:
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close_connection = True

    # -- routes ----------------------------------------------------------------------------------
    def do_GET(self) -> None:
        srv = self.server.owner
        srv._log("GET", self.path)
        if self.path.rstrip("/") in ("/health", "/v1/health"):
            if not srv.ready:
                self._error(503, "model is still loading")
                return
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path.rstrip("/") == "/v1/models":
            self._json(200, {"object": "list", "data": [
                {"id": m, "object": "model", "created": int(srv.started), "owned_by": "kgen-test",
                 "max_model_len": 32768} for m in srv.models]})
        else:
            self._error(404, f"no route GET {self.path}")

    def do_POST(self) -> None:
        srv = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        srv._log("POST", self.path)
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._error(404, f"no route POST {self.path}")
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError as e:
            self._error(400, f"request body is not JSON: {e}")
            return
        srv._record(body)
        if not srv.ready:
            self._error(503, "model is still loading")
            return
        if srv.strict_model and body.get("model") not in srv.models:
            self._error(404, f"The model `{body.get('model')}` does not exist.")
            return
        if not isinstance(body.get("messages"), list) or not body["messages"]:
            self._error(400, "'messages' must be a non-empty list")
            return
        reply = srv._next_reply()
        if reply is None:
            self._error(500, "scripted server: script exhausted (no reply left for this request)")
            return
        if reply.delay and srv._stop.wait(reply.delay):
            return
        if reply.status >= 400:
            if reply.error_body is not None:
                self._json(reply.status, reply.error_body)
            else:
                self._error(reply.status, reply.error or f"scripted error {reply.status}")
            return
        if body.get("stream"):
            self._stream(body, reply)
        else:
            self._complete(body, reply)

    def _complete(self, body: dict, reply: Reply) -> None:
        if reply.drop:
            self._drop()
            return
        if reply.malformed or reply.raw is not None:
            data = reply.raw.encode() if reply.raw is not None else b'{"id": "chatcmpl-x", "choices": [ {"message": '
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        n_prompt = sum(len(str(m.get("content", "")).split()) for m in body["messages"])
        n_out = len(reply.text.split())
        self._json(200, {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                         "finish_reason": reply.finish_reason, "logprobs": None}],
            "usage": {"prompt_tokens": n_prompt, "completion_tokens": n_out, "total_tokens": n_prompt + n_out}})

    def _stream(self, body: dict, reply: Reply) -> None:
        srv = self.server.owner
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        cid, created, model = f"chatcmpl-{uuid.uuid4().hex[:12]}", int(time.time()), body.get("model")

        def chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> bytes:
            c = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                 "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}
            if usage:
                c["usage"] = usage
            return b"data: " + json.dumps(c).encode() + b"\n\n"

        try:
            self.wfile.write(chunk({"role": "assistant", "content": ""}))
            self.wfile.flush()
            pieces = split_chunks(reply.text, reply.chunk_size)
            for i, piece in enumerate(pieces):
                if i and reply.chunk_delay and srv._stop.wait(reply.chunk_delay):
                    return
                if reply.drop and i >= max(1, len(pieces) // 2):
                    self._drop()
                    return
                if reply.malformed and i >= len(pieces) // 2:
                    self.wfile.write(b"data: {\"choices\": [ {\"delta\": \n\n")
                    self.wfile.flush()
                    reply = Reply(text="")    # the rest is not sent
                    break
                self.wfile.write(chunk({"content": piece}))
                self.wfile.flush()
            if reply.drop:
                self._drop()
                return
            self.wfile.write(chunk({}, reply.finish_reason or "stop"))
            if (body.get("stream_options") or {}).get("include_usage"):
                n_out = len(reply.text.split())
                self.wfile.write(chunk({}, usage={"prompt_tokens": 1, "completion_tokens": n_out,
                                                  "total_tokens": n_out + 1}))
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass   # the client went away (cancel, timeout): nothing to do


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: "ScriptedOpenAI"


class ScriptedOpenAI:
    """The scripted server; ``start()``/``stop()`` or use as a context manager. ``url`` ends in ``/v1``."""

    def __init__(self, replies: list[str | dict | Reply] | None = None, *, default: str | dict | Reply | None = None,
                 models: list[str] | None = None, strict_model: bool = True, host: str = "127.0.0.1", port: int = 0,
                 ready_after: float = 0.0, record: str | Path | None = None) -> None:
        self.replies: list[Reply] = [Reply.of(r) for r in (replies or [])]
        self.default = Reply.of(default) if default is not None else None
        self.models = list(models or [DEFAULT_MODEL])
        self.strict_model = strict_model
        self.host, self.port = host, port
        self.ready_after = ready_after
        self.record_path = Path(record) if record else None
        self.requests: list[dict] = []          # chat request bodies, in arrival order
        self.log: list[tuple[str, str]] = []    # (method, path) of every request
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self.started = 0.0

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> "ScriptedOpenAI":
        self._httpd = _Server((self.host, self.port), _Handler)
        self._httpd.owner = self
        self.port = self._httpd.server_address[1]
        self.started = time.time()
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "ScriptedOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- state -----------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def ready(self) -> bool:
        return time.time() - self.started >= self.ready_after

    @property
    def last_messages(self) -> list[dict]:
        return self.requests[-1]["messages"] if self.requests else []

    def wait_for_requests(self, n: int, timeout: float = 10.0) -> list[dict]:
        """Block until ``n`` chat requests arrived (or raise TimeoutError); returns the bodies."""
        deadline = time.monotonic() + timeout
        while len(self.requests) < n:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(self.requests)} of {n} chat requests arrived within {timeout:g} s")
            time.sleep(0.01)
        return list(self.requests)

    def add(self, *replies: str | dict | Reply) -> None:
        with self._lock:
            self.replies.extend(Reply.of(r) for r in replies)

    def _next_reply(self) -> Reply | None:
        with self._lock:
            return self.replies.pop(0) if self.replies else self.default

    def _record(self, body: dict) -> None:
        with self._lock:
            self.requests.append(body)
            if self.record_path is not None:
                with open(self.record_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(body) + "\n")

    def _log(self, method: str, path: str) -> None:
        with self._lock:
            self.log.append((method, path))


if "pytest" in sys.modules:     # imported by a test run (a process started with -m does not need pytest)
    import pytest

    @pytest.fixture
    def scripted_openai() -> Any:
        """A started ScriptedOpenAI with an empty script (``srv.add(...)`` replies); stopped after the test.
        Use it with ``from tests.agent_graph.openai_server import scripted_openai  # noqa: F401``."""
        srv = ScriptedOpenAI().start()
        try:
            yield srv
        finally:
            srv.stop()


def load_script(path: str | Path) -> dict:
    """A script file: a JSON list of replies, or an object with ``replies``, ``default``, ``models``."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, list):
        data = {"replies": data}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a script is a JSON list of replies or an object with 'replies'")
    unknown = set(data) - {"replies", "default", "models"}
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
    return data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.agent_graph.openai_server",
                                description="a scripted OpenAI-compatible chat server for tests")
    p.add_argument("words", nargs="*", help="optional 'serve MODEL' (as vllm is called); MODEL is served")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--script", help="JSON file of replies")
    p.add_argument("--record", help="append every chat request body to this file (JSON lines)")
    p.add_argument("--served-model-name", nargs="+", help="model ids to serve (as vllm)")
    p.add_argument("--ready-after", type=float, default=0.0, help="answer 503 on /health for this many seconds")
    p.add_argument("--startup-delay", type=float, default=0.0, help="sleep this long before listening at all")
    p.add_argument("--ignore-sigterm", action="store_true", help="keep running on SIGTERM (a server that hangs on shutdown)")
    args, _ignored = p.parse_known_args(argv)      # vllm flags (--max-model-len, ...) are accepted and ignored
    script = load_script(args.script) if args.script else {}
    words = [w for w in args.words if w != "serve"]
    models = args.served_model_name or script.get("models") or (words[:1] or None)
    if args.startup_delay:
        time.sleep(args.startup_delay)
    srv = ScriptedOpenAI(script.get("replies", []), default=script.get("default"), models=models,
                         host=args.host, port=args.port, ready_after=args.ready_after, record=args.record)
    srv.start()
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    if args.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print(f"listening on {srv.url}", flush=True)
    while not done.wait(0.2):
        pass
    srv.stop()
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
