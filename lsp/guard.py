"""One guard for every handler of the server: an exception in a handler (a malformed document, a bug in
a check) is logged and the client gets an empty answer, never a dead server or an error response.

    @guarded("hover")                      # logs "hover failed" and answers None
    def on_hover(ls, params): ...

    with logged("diagnostics failed for %s", uri):   # the same inside a handler that goes on after it
        ...
"""
from __future__ import annotations

import functools
import inspect
import logging
from contextlib import contextmanager
from typing import Any, Callable, Iterator

log = logging.getLogger("kgen.lsp")


def _none(_: Exception) -> None:
    return None


@contextmanager
def logged(message: str, *args: object) -> Iterator[None]:
    """Log an exception of the block (``log.exception(message, *args)``) and go on after it."""
    try:
        yield
    except Exception:   # noqa: BLE001 - a failing handler must not take the server down
        log.exception(message, *args)


def guarded(what: str, fallback: Callable[[Exception], Any] = _none,
            quiet: tuple[type[Exception], ...] = ()) -> Callable:
    """Decorate a handler (sync or async): an exception is logged as ``"<what> failed"`` and the
    handler answers ``fallback(exception)`` (None unless given). Exceptions of the ``quiet`` types are
    answered the same way without a log line (a user's mistake, not a failure of the server)."""
    def decorate(fn: Callable) -> Callable:
        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def run_async(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except quiet as e:
                    return fallback(e)
                except Exception as e:   # noqa: BLE001
                    log.exception("%s failed", what)
                    return fallback(e)
            return run_async

        @functools.wraps(fn)
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except quiet as e:
                return fallback(e)
            except Exception as e:   # noqa: BLE001
                log.exception("%s failed", what)
                return fallback(e)
        return run
    return decorate
