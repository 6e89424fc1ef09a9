"""The ``kgen`` command line: a parser and a dispatch table; each command lives in assistant/commands/."""
from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Callable, NoReturn

from assistant.commands import bench as bench_cmd
from assistant.commands import chat as chat_cmd
from assistant.commands import config as config_cmd
from assistant.commands import docs as docs_cmd
from assistant.commands import eval as eval_cmd
from assistant.commands import generate as generate_cmd
from assistant.commands import lsp as lsp_cmd
from assistant.commands import runs as runs_cmd
from assistant.commands import sandbox_flag
from assistant.commands import serve as serve_cmd
from assistant.commands import sim as sim_cmd

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``kgen: error: ...`` and exit status 2."""

    def error(self, message: str) -> NoReturn:
        if "invalid choice" in message and "argument COMMAND" in message:
            bad = message.split("'")[1] if "'" in message else message
            message = f"unknown command '{bad}' (run 'kgen --help' for the list)"
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kgen", description="kgen: write, check and benchmark AscendC kernels (CPU emulator backend 'sim').")
    p.add_argument("--version", action="version", version="kgen 0.1.0")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    sim_cmd.register(sub)
    docs_cmd.register(sub)
    bench_cmd.register(sub)
    generate_cmd.register(sub)
    runs_cmd.register(sub)
    lsp_cmd.register(sub)
    chat_cmd.register(sub)
    config_cmd.register(sub)
    serve_cmd.register(sub)
    eval_cmd.register(sub)
    return p


def _terminated(signum, frame) -> NoReturn:
    """SIGTERM (an editor cancelling a job, a CI timeout, `kill`) unwinds like Ctrl-C: every `finally`
    runs, so work folders of GBs of reference tensors and half-written files are cleaned up."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    if getattr(args, "own_settings", False):   # kgen lsp: the server loads its settings itself
        return handler(args)
    # lazy: pydantic-settings and the sections' models (~0.25 s) once a command runs, never for kgen --help
    from agent_graph.settings import SettingsError, configure, load_settings

    try:
        # the one load of the settings tree; --no-sandbox is its bench.no_sandbox override, --soc its bench.soc
        no_sandbox = getattr(args, "no_sandbox", False) or None
        args.settings = configure(load_settings(overrides={"bench.no_sandbox": no_sandbox,
                                                           "bench.soc": getattr(args, "soc", None)}))
        if hasattr(args, "no_sandbox"):   # a command that runs task or model code
            return sandbox_flag.run_sandboxed(handler, args)
        return handler(args)
    except SettingsError as e:   # a bad config file, KGEN_* value or flag: one line
        print(f"kgen: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("kgen: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
