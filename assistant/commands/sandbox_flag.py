"""``--no-sandbox``: the one opt-out of the sandbox that confines task and model code (docs/security.md).

Commands that run such code (``kgen bench``, ``kgen generate``, ``kgen sim run``) register the flag;
:func:`check` turns it into ``KGEN_NO_SANDBOX=1`` for this process and its children, and refuses to
start (one line, exit status 2) when the machine cannot sandbox and the user did not opt out.
"""
from __future__ import annotations

import argparse
import os
import sys


def add_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-sandbox", action="store_true",
                   help="run task and model code unconfined (only where this machine cannot sandbox; "
                        "same as KGEN_NO_SANDBOX=1; docs/security.md)")


def check(args: argparse.Namespace) -> int | None:
    """None when the command may go on; else the exit status after saying why, in one line."""
    from bench_bridge import sandbox

    if getattr(args, "no_sandbox", False):
        os.environ[sandbox.OPT_OUT_ENV] = "1"
    try:
        sandbox.require()
    except sandbox.SandboxUnavailable as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
    return None
