"""Children started as a user's terminal starts them, for the tests that press Ctrl-C.

A shell that runs the suite as a background job (``.ci/run > log &``) starts it with SIGINT ignored, and every child
inherits that: Python then installs no KeyboardInterrupt handler, so a SIGINT sent to a kgen child is dropped and
the run completes as if no one had pressed Ctrl-C. A terminal's foreground command has SIGINT at its default."""
from __future__ import annotations

import signal


def sigint_default() -> None:
    """``preexec_fn`` for ``subprocess.Popen``: SIGINT back to its default in the child, before Python starts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
