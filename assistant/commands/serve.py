"""``kgen serve [MODEL]``: start vLLM for KernelGen-LM (agent_graph.llm.serve), print its endpoint, stop on Ctrl+C."""
from __future__ import annotations

import argparse
import shlex
import signal
import sys
import threading

from assistant.commands.common import settings_of


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start a vLLM server for KernelGen-LM and print the --llm URL to use")
    p.add_argument("model", nargs="?", metavar="MODEL",
                   help="Hugging Face id or local folder (default: serve.model, AscendKernelGen/KernelGen-LM-32B-RL)")
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument("--served-model-name", dest="served_name", metavar="NAME", help="name clients use (default: the model id)")
    p.add_argument("--max-model-len", type=int, metavar="N", help="context length (default 32768)")
    p.add_argument("--tensor-parallel-size", "--tp", type=int, metavar="N", help="devices to split the model over (default 1)")
    p.add_argument("--vllm-cmd", metavar="CMD", help="the vllm executable, with leading words (default 'vllm'; env KGEN_VLLM_CMD)")
    p.add_argument("--health-timeout", type=float, metavar="SEC", help="how long to wait for the model to load (default 1800)")
    p.add_argument("--vllm-args", metavar="ARGS", default="",
                   help="more vllm serve flags, as one shell-quoted string: --vllm-args='--reasoning-parser qwen3'")
    p.add_argument("--dry-run", action="store_true", help="print the vllm command line and exit")
    p.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    # lazy: the launcher (httpx, ~0.2 s to import) and the tree's override layer only for kgen serve
    from agent_graph.api import ServeError, serve, serve_command
    from agent_graph.settings import SettingsError, apply_overrides   # lazy: as above

    try:
        extra = shlex.split(args.vllm_args)
    except ValueError as e:
        print(f"kgen: error: --vllm-args: {e}", file=sys.stderr)
        return 2
    overrides = {"serve.model": args.model, "serve.host": args.host, "serve.port": args.port,
                 "serve.served_name": args.served_name, "serve.max_model_len": args.max_model_len,
                 "serve.tensor_parallel_size": args.tensor_parallel_size, "serve.vllm_cmd": args.vllm_cmd,
                 "serve.health_timeout": args.health_timeout}
    try:
        cfg = apply_overrides(settings_of(args), overrides).serve
        cfg.extra_args = list(cfg.extra_args) + extra
        if args.dry_run:
            print(shlex.join(serve_command(cfg)))
            return 0
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        return serve(cfg, sys.stdout, sys.stderr, stop)
    except (SettingsError, ServeError) as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
