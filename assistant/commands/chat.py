"""``kgen chat``: the terminal assistant (assistant.tui)."""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from assistant.commands.common import settings_of


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("chat", help="the terminal assistant: generate, bench, fix and search the docs in one window")
    p.add_argument("--resume", nargs="?", const="", metavar="ID",
                   help="reopen a saved session (default: the most recent) and continue its unfinished run")
    p.add_argument("--llm", metavar="URL", help="OpenAI-compatible model endpoint, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--offline", action="store_true", help="use the offline drafter (no model), whatever is configured")
    p.add_argument("-o", "--output", metavar="DIR", help="where generated projects go (default: ./kgen-out/<task>)")
    p.set_defaults(handler=cmd_chat)


def cmd_chat(args: argparse.Namespace) -> int:
    if args.llm and args.offline:
        print("kgen: error: --llm and --offline contradict each other", file=sys.stderr)
        return 2
    if args.llm and not args.llm.startswith(("http://", "https://")):
        print(f"kgen: error: --llm takes an endpoint URL such as http://127.0.0.1:8000/v1 (got '{args.llm}')",
              file=sys.stderr)
        return 2
    from agent_graph.settings import apply_overrides   # lazy: loaded by kgen's main already; kept off kgen --help

    settings = apply_overrides(settings_of(args), {"model.url": args.llm})
    model = dataclasses.replace(settings.model, url=None) if args.offline else settings.model
    if args.resume:
        # lazy: the TUI (Textual, ~0.8 s to import) only for kgen chat
        from assistant.tui.session import Session, SessionError

        try:
            Session.open(settings.agent.data_dir, args.resume)
        except SessionError as e:
            print(f"kgen: error: {e}", file=sys.stderr)
            return 2
    from assistant.tui.app import ChatConfig, KgenChat   # lazy: the TUI (Textual, ~0.8 s to import) only for kgen chat

    app = KgenChat(ChatConfig(model=model, agent=settings.agent, resume=args.resume,
                              output_root=Path(args.output) if args.output else None))
    app.run()
    return 0
