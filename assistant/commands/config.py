"""``kgen config``: the effective settings and where each value came from (docs/configuration.md)."""
from __future__ import annotations

import argparse
import json
import sys

from assistant.commands.common import settings_of


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="show the effective settings and where each came from")
    p.add_argument("key", nargs="?", metavar="KEY", help="show only this key (e.g. model.url) or section (e.g. agent)")
    p.add_argument("--json", action="store_true", help="print {key: {value, source}} as JSON")
    p.set_defaults(handler=cmd_config)


def cmd_config(args: argparse.Namespace) -> int:
    from agent_graph.settings import describe_sources   # lazy: loaded by kgen's main already; kept off kgen --help

    settings = settings_of(args)
    rows = describe_sources(settings)
    if args.key:
        rows = [r for r in rows if r.key == args.key or r.key.startswith(args.key + ".")]
        if not rows:
            known = sorted({r.key.split(".")[0] for r in describe_sources(settings)})
            print(f"kgen: error: unknown setting '{args.key}' (sections: {', '.join(known)}; 'kgen config' lists every key)",
                  file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps({r.key: {"value": r.value, "source": r.source} for r in rows}, indent=2))
        return 0
    if not args.key:
        for layer, path, found in settings.files:
            print(f"# {layer}: {path}{'' if found else ' (not found)'}")
        if not any(layer == "project" for layer, _, _ in settings.files):
            print("# project: no kgen.toml in this folder or its parents")
    width = max(len(r.key) for r in rows)
    for r in rows:
        value = json.dumps(r.value) if not isinstance(r.value, str) or r.value == "" else r.value
        print(f"{r.key:<{width}} = {value:<40} # {r.source}")
    return 0
