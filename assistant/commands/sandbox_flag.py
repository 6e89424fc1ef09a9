"""``--no-sandbox``: the one opt-out of the sandbox that confines task and model code (docs/security.md).

Commands that run such code (``kgen bench``, ``kgen generate``, ``kgen sim run``, ``kgen eval``) register
the flag; ``kgen`` loads it into the settings tree as ``bench.no_sandbox`` (like ``KGEN_NO_SANDBOX=1``),
and :func:`run_sandboxed` refuses to run the command (one line, exit status 2) when the machine cannot
sandbox and the user did not opt out.
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable


def add_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-sandbox", action="store_true",
                   help="run task and model code unconfined (only where this machine cannot sandbox; "
                        "same as KGEN_NO_SANDBOX=1; docs/security.md)")


def run_sandboxed(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``handler(args)`` once the sandbox is known to work (or the user opted out); where it cannot, the exit
    status 2 after saying why in one line (before the command starts, or when a child finds out)."""
    # lazy: the bench bridge (~0.5 s to import) only for the commands that run task code (not kgen docs, --help)
    from bench_bridge.api import SandboxUnavailable, require_sandbox

    try:
        require_sandbox()
        return handler(args)
    except SandboxUnavailable as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
