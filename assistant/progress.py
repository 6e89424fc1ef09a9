"""Progress for steps that can take more than a second: a status line on stderr while they run."""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def status(message: str, stream=None) -> Iterator[None]:
    """Show ``message…`` with elapsed seconds on a terminal (after 1 s); silent when not a TTY."""
    stream = stream or sys.stderr
    if not stream.isatty():
        yield
        return
    stop = threading.Event()
    t0 = time.monotonic()

    def tick() -> None:
        frames = "|/-\\"
        i = 0
        while not stop.wait(0.2):
            el = time.monotonic() - t0
            if el >= 1.0:
                stream.write(f"\r{frames[i % 4]} {message}… {el:.0f}s")
                stream.flush()
                i += 1

    th = threading.Thread(target=tick, daemon=True)
    th.start()
    try:
        yield
    finally:
        stop.set()
        th.join()
        if time.monotonic() - t0 >= 1.0:
            stream.write("\r\033[K")
            stream.flush()
