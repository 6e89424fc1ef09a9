"""A tiny LSP client over pipes for the end-to-end tests: starts ``python -m assistant.cli lsp``,
speaks JSON-RPC with Content-Length framing, and fails fast (timeouts) instead of hanging."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class LspClient:
    def __init__(self, timeout: float = 20.0) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "lsp"], cwd=str(ROOT), env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.timeout = timeout
        self.msgs: "queue.Queue[dict]" = queue.Queue()
        self.notifications: list[dict] = []
        self._id = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        # drain the server's log: a full stderr pipe would block the server (a request left unanswered)
        self.stderr_tail: "deque[str]" = deque(maxlen=200)
        self.stderr_tracebacks = 0
        self._err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._err_reader.start()

    # framing -----------------------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.decode().partition(":")
                    headers[k.strip().lower()] = v.strip()
                body = out.read(int(headers["content-length"]))
                self.msgs.put(json.loads(body))
        except Exception:   # noqa: BLE001 - the test sees the timeout
            return

    def _read_stderr(self) -> None:
        try:
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                if line.startswith("Traceback (most recent call last)"):
                    self.stderr_tracebacks += 1
                self.stderr_tail.append(line)
        except Exception:   # noqa: BLE001 - the pipe closed
            return

    def send(self, msg: dict) -> None:
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float | None = None):
        self._id += 1
        rid = self._id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer to {method} within {timeout or self.timeout}s")
            try:
                m = self.msgs.get(timeout=left)
            except queue.Empty:
                continue
            if m.get("id") == rid and "method" not in m:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result")
            if "method" in m and "id" in m:    # a server->client request: answer null
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            else:
                self.notifications.append(m)

    def wait_notification(self, method: str, pred=lambda p: True, timeout: float | None = None) -> dict:
        for i, n in enumerate(self.notifications):
            if n.get("method") == method and pred(n.get("params")):
                return self.notifications.pop(i)["params"]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {method} within {timeout or self.timeout}s")
            try:
                m = self.msgs.get(timeout=left)
            except queue.Empty:
                continue
            if m.get("method") == method and pred(m.get("params")):
                return m["params"]
            if "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            else:
                self.notifications.append(m)

    # session -----------------------------------------------------------------------------------
    def initialize(self, capabilities: dict | None = None) -> dict:
        res = self.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(),
                                          "capabilities": capabilities or {}}, timeout=60)
        self.notify("initialized", {})
        return res

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": version,
                                                              "text": text}})

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self.request("shutdown", {}, timeout=5)
                self.notify("exit", {})
                self.proc.wait(timeout=5)
        except Exception:   # noqa: BLE001
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=5)
            for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    f.close()
                except Exception:   # noqa: BLE001
                    pass
