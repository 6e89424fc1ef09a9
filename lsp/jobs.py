"""Long work for the server without blocking it: child processes that can be killed, threads that
honour a cancel event, and LSP work-done progress with cancellation.

A :class:`Job` is one long operation: it reports progress (``$/progress`` begin / report / end on a
token the client gave or the server created) and is cancelled when the client cancels the request
(``$/cancelRequest``: the asyncio task is cancelled), cancels the progress
(``window/workDoneProgress/cancel``), or a newer job supersedes it (:meth:`Job.cancel`).
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Callable

from lsprotocol import types as T

log = logging.getLogger("kgen.lsp")
ROOT = Path(__file__).resolve().parents[1]
LIVE: set = set()        # child processes still running (killed on shutdown)


class Cancelled(Exception):
    """The job was cancelled (by the client or superseded)."""


class Job:
    def __init__(self, ls, title: str, token=None, request: bool = False) -> None:
        self.ls = ls
        self.title = title
        self.token = token
        self.event = threading.Event()      # set when cancelled; threads poll it
        self._progress = False
        self._request = _request_future(ls) if request else None

    # progress ----------------------------------------------------------------------------------
    async def begin(self, message: str = "") -> None:
        try:
            if self.token is None and _client_supports_progress(self.ls):
                self.token = f"kgen-{uuid.uuid4().hex[:12]}"
                await asyncio.wait_for(self.ls.work_done_progress.create_async(self.token), timeout=5)
            if self.token is not None:
                self.ls.work_done_progress.begin(self.token, T.WorkDoneProgressBegin(
                    title=self.title, message=message or None, cancellable=True))
                self._progress = True
        except Exception:   # noqa: BLE001 - progress is a courtesy; the work goes on without it
            log.warning("no work-done progress for %s", self.title)
            self.token = None

    def report(self, message: str, percentage: int | None = None) -> None:
        if self._progress:
            try:
                self.ls.work_done_progress.report(self.token, T.WorkDoneProgressReport(message=message[:200],
                                                                                      percentage=percentage))
            except Exception:   # noqa: BLE001
                pass

    def end(self, message: str = "") -> None:
        if self._progress:
            self._progress = False
            try:
                self.ls.work_done_progress.end(self.token, T.WorkDoneProgressEnd(message=message[:200] or None))
            except Exception:   # noqa: BLE001
                pass

    # cancellation ------------------------------------------------------------------------------
    def cancel(self) -> None:
        self.event.set()

    @property
    def cancelled(self) -> bool:
        if self.event.is_set():
            return True
        fut = self.ls.work_done_progress.tokens.get(self.token) if self.token is not None else None
        if (fut is not None and fut.cancelled()) or (self._request is not None and self._request.cancelled()):
            self.event.set()
            return True
        return False

    # running -----------------------------------------------------------------------------------
    async def child(self, args: list[str], on_line: Callable[[str], None] | None = None,
                    cwd: str | None = None, env: Mapping[str, str] | None = None) -> tuple[int, str, str]:
        """Run ``python -m ...args`` (kgen's own packages importable; ``env`` added to the server's
        environment); stderr lines go to ``on_line`` as they come. The child is killed when the job is
        cancelled."""
        env = dict(os.environ, **(env or {}),
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        proc = await asyncio.create_subprocess_exec(sys.executable, *args, cwd=cwd or str(ROOT), env=env,
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                    start_new_session=True)
        LIVE.add(proc)
        err_lines: list[str] = []

        async def read_err():
            assert proc.stderr is not None
            async for raw in proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip()
                err_lines.append(line)
                if on_line is not None:
                    try:
                        on_line(line)
                    except Exception:   # noqa: BLE001
                        pass

        async def watch():
            while proc.returncode is None:
                if self.cancelled:
                    _kill(proc)
                    return
                await asyncio.sleep(0.1)

        reader = asyncio.ensure_future(read_err())
        watcher = asyncio.ensure_future(watch())
        try:
            out = await proc.stdout.read() if proc.stdout is not None else b""
            await proc.wait()
            await reader
        except asyncio.CancelledError:
            self.event.set()
            _kill(proc)
            raise
        finally:
            watcher.cancel()
            if proc.returncode is None:
                _kill(proc)
            LIVE.discard(proc)
        if self.event.is_set():
            raise Cancelled(self.title)
        return proc.returncode or 0, out.decode("utf-8", "replace"), "\n".join(err_lines)

    async def thread(self, fn: Callable[[threading.Event], object]):
        """Run ``fn(cancel_event)`` in a worker thread; a client cancel sets the event (the function
        must poll it) and the job waits for the thread to stop."""
        fut = asyncio.get_running_loop().run_in_executor(None, fn, self.event)

        async def watch():
            while not fut.done():
                _ = self.cancelled
                await asyncio.sleep(0.1)

        watcher = asyncio.ensure_future(watch())
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            self.event.set()
            try:
                await asyncio.wait_for(asyncio.shield(fut), timeout=60)
            except Exception:   # noqa: BLE001
                pass
            raise
        finally:
            watcher.cancel()


def kill_all() -> None:
    """Kill every child still running (the server is shutting down)."""
    for proc in list(LIVE):
        if proc.returncode is None:
            _kill(proc)
    LIVE.clear()


def _request_future(ls):
    """The future pygls answers the current request with (a command handler runs in the request's
    context, where pygls keeps its id): ``$/cancelRequest`` cancels it, and the job follows."""
    try:
        proto = ls.protocol
        mid = proto._ctx_msg_id.get(None)
        return proto._request_futures.get(mid) if mid is not None else None
    except Exception:   # noqa: BLE001 - pygls internals moved: progress cancellation still works
        return None


def _kill(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except ProcessLookupError:
            pass


def _client_supports_progress(ls) -> bool:
    try:
        caps = ls.client_capabilities
        return bool(caps.window and caps.window.work_done_progress)
    except Exception:   # noqa: BLE001
        return False
