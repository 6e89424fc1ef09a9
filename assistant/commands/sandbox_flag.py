"""``--no-sandbox``: the one opt-out of the sandbox that confines task and model code (docs/security.md).

Commands that run such code (``kgen bench``, ``kgen generate``, ``kgen sim run``, ``kgen eval``) register
the flag; ``kgen`` loads it into the settings tree as ``bench.no_sandbox`` (like ``KGEN_NO_SANDBOX=1``),
and :func:`check` refuses to start (one line, exit status 2) when the machine cannot sandbox and the user
did not opt out.
"""
from __future__ import annotations

import argparse
import sys


def add_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-sandbox", action="store_true",
                   help="run task and model code unconfined (only where this machine cannot sandbox; "
                        "same as KGEN_NO_SANDBOX=1; docs/security.md)")


def check(args: argparse.Namespace) -> int | None:
    """None when the command may go on; else the exit status after saying why, in one line."""
    # lazy: the bench bridge (~0.5 s) once a command runs
    from bench_bridge.api import SandboxUnavailable, require_sandbox

    try:
        require_sandbox()
    except SandboxUnavailable as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
    return None
