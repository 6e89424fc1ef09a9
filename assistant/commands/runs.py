"""``kgen runs``: the agent's runs (agent_graph.api.list_runs), newest first; resume one with
``kgen generate --resume RUN_ID``."""
from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict

from assistant.commands.common import settings_of


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("runs", help="list the agent's runs (resume one with kgen generate --resume RUN_ID)")
    p.add_argument("-n", type=int, default=20, metavar="N", help="show the N newest runs (default 20; 0 = all)")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(handler=cmd_runs)


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def task_path(data_dir, run_id: str, label: str) -> str:
    """The run's task as the absolute path it resolved when it started (its request.json), so a path typed
    relative to wherever that run was started reads the same from here; the label for a request in words,
    a fix (its label names the absolute project) or a run folder that cannot be read."""
    from agent_graph.api import RunFolder, RunFolderError   # lazy: as in cmd_runs

    try:
        req = RunFolder(data_dir, run_id).request()
    except RunFolderError:
        return label
    task = req.get("task")
    return str(task) if task and not req.get("fix_project") else label


def cmd_runs(args: argparse.Namespace) -> int:
    from agent_graph.api import list_runs   # lazy: the agent's face (~0.5 s to import), not for kgen --help

    agent = settings_of(args).agent
    runs = list_runs(agent)
    if args.n > 0:
        runs = runs[:args.n]
    paths = {r.run_id: task_path(agent.data_dir, r.run_id, r.task) for r in runs}
    if args.json:
        print(json.dumps([{**asdict(r), "task_path": paths[r.run_id]} for r in runs], indent=2))
        return 0
    if not runs:
        print(f"no runs yet under {agent.data_dir / 'runs'}")
        return 0
    w = max(len(r.run_id) for r in runs)
    print(f"{'run':<{w}}  {'status':<11} {'started':<16}  {'model':<28} task")
    for r in runs:
        model = r.model if len(r.model) <= 28 else r.model[:27] + "…"
        print(f"{r.run_id:<{w}}  {r.status:<11} {_when(r.started):<16}  {model:<28} {paths[r.run_id]}")
    if any(r.status in ("interrupted", "cancelled", "error") for r in runs):
        print("resume an interrupted run with: kgen generate --resume RUN_ID")
    return 0
