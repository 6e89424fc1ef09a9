"""``kgen chat``: the terminal assistant (assistant.tui)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("chat", help="the terminal assistant: generate, bench, fix and search the docs in one window")
    p.add_argument("--resume", nargs="?", const="", metavar="ID",
                   help="reopen a saved session (default: the most recent) and continue its unfinished run")
    p.add_argument("--llm", metavar="URL", help="OpenAI-compatible model endpoint, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--offline", action="store_true", help="use the offline drafter (no model), whatever is configured")
    p.add_argument("-o", "--output", metavar="DIR", help="where generated projects go (default: ./kgen-out/<task>)")
    p.set_defaults(handler=cmd_chat)


def cmd_chat(args: argparse.Namespace) -> int:
    from agent_graph.settings import SettingsError, load_settings

    if args.llm and args.offline:
        print("kgen: error: --llm and --offline contradict each other", file=sys.stderr)
        return 2
    if args.llm and not args.llm.startswith(("http://", "https://")):
        print(f"kgen: error: --llm takes an endpoint URL such as http://127.0.0.1:8000/v1 (got '{args.llm}')",
              file=sys.stderr)
        return 2
    try:
        settings = load_settings(overrides={"model.url": args.llm})
    except SettingsError as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
    if args.offline:
        settings.model.url = None
    if args.resume:
        from assistant.tui.session import Session, SessionError

        try:
            Session.open(settings.agent.data_dir, args.resume)
        except SessionError as e:
            print(f"kgen: error: {e}", file=sys.stderr)
            return 2
    from assistant.tui.app import ChatConfig, KgenChat

    app = KgenChat(ChatConfig(model=settings.model, agent=settings.agent, resume=args.resume,
                              output_root=Path(args.output) if args.output else None))
    app.run()
    return 0
