"""Kill the agent with SIGKILL at each graph node, resume it, and check it reaches the same result.

    python benchmarks/fault_agent.py [--seed 0] [--count N] [--task TOML] [--model] [--timeout 600]

A baseline run (`kgen generate TASK --offline -o OUT --json`, or with --model against the scripted
local OpenAI-compatible server of tests/agent_graph/openai_server.py, which answers every request with
the same good reply) records the verdict, the project files and each node's duration. Then, for each
graph node the baseline passed through and each kill point -- when the node starts, half-way through
it (nodes that take over 0.3 s), and when it has finished (before the next node starts) -- a fresh run
(its own data folder, output folder and build cache, so a kill mid-build leaves a half-written cache
entry behind) is watched through its run folder's events.jsonl, the whole process group is sent
SIGKILL at that point, and `kgen generate --resume RUN_ID --json` is run. The resumed run must exit
as the baseline did, report the same verdict and case statuses, write the same project files
(byte for byte; report.json by verdict), list as that verdict in `kgen runs`, and record exactly one
run_finished after the kill.

--count N runs the first N kill points (in graph order; --seed shuffles the order and the mid-node
instants). The table is node -> kill point -> resumed ok; the last line is the summary figure."""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
ADD = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"


def events(data: Path) -> tuple[Path | None, list[dict]]:
    runs = data / "runs"
    dirs = sorted(runs.iterdir()) if runs.is_dir() else []
    if not dirs:
        return None, []
    out = []
    p = dirs[0] / "events.jsonl"
    try:
        text = p.read_text()
    except OSError:
        return dirs[0], []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return dirs[0], out


def project_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != "report.json"}


def verdict_of(report: dict) -> tuple:
    return (report.get("compiled"), report.get("correct"), tuple(c.get("status") for c in report.get("cases", [])))


class Trial:
    def __init__(self, a, llm: str | None) -> None:
        self.a = a
        self.llm = llm

    def env(self, base: Path) -> dict:
        return {**os.environ, "KGEN_DATA_DIR": str(base / "data"), "KGEN_CACHE_DIR": str(base / "cache"),
                "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def cmd(self, out: Path) -> list[str]:
        mode = ["--llm", self.llm] if self.llm else ["--offline"]
        return [sys.executable, "-m", "assistant.cli", "generate", str(self.a.task), *mode, "-o", str(out), "--json"]

    def baseline(self, base: Path) -> dict:
        out = base / "out"
        t0 = time.monotonic()
        r = subprocess.run(self.cmd(out), cwd=ROOT, env=self.env(base), capture_output=True, text=True,
                           timeout=self.a.timeout)
        _, evs = events(base / "data")
        starts = {}
        nodes = []
        for e in evs:
            if e["kind"] == "node_started":
                starts[e["node"]] = e
            elif e["kind"] == "node_finished":
                nodes.append((e["node"], float(e.get("seconds") or 0.0)))
        try:
            rep = json.loads(r.stdout)
        except ValueError:
            raise SystemExit(f"fault_agent: the baseline run printed no report (exit {r.returncode}): "
                             f"{r.stderr.strip()[-400:]}")
        return {"rc": r.returncode, "verdict": verdict_of(rep), "files": project_files(out), "nodes": nodes,
                "seconds": time.monotonic() - t0}

    def kill_and_resume(self, base: Path, node: str, occurrence: int, point: str, delay: float, want: dict) -> tuple[bool, str]:
        out = base / "out"
        env = self.env(base)
        proc = subprocess.Popen(self.cmd(out), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        kind = "node_finished" if point == "finished" else "node_started"
        deadline = time.monotonic() + self.a.timeout
        run_dir, hit = None, False
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                run_dir, evs = events(base / "data")
                seen = [e for e in evs if e["kind"] == kind and e.get("node") == node]
                if len(seen) >= occurrence:
                    hit = True
                    break
                time.sleep(0.005)
            if hit and delay > 0:
                time.sleep(delay)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)     # kgen and its compilers / kernel runs, at once
            else:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            proc.communicate(timeout=60)
        if not hit:
            return False, f"never reached {kind} {node} (exit {proc.returncode})"
        run_id = run_dir.name
        before = len(events(base / "data")[1])
        mode = ["--llm", self.llm] if self.llm else []     # a resume takes its settings from its own command
        r = subprocess.run([sys.executable, "-m", "assistant.cli", "generate", "--resume", run_id, *mode, "--json"], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=self.a.timeout)
        problems = []
        if "Traceback (most recent call last)" in r.stderr + r.stdout:
            problems.append("traceback: " + r.stderr.strip()[-300:])
        if r.returncode != want["rc"]:
            problems.append(f"exit {r.returncode} (baseline {want['rc']}): {r.stderr.strip()[-300:]}")
        try:
            rep = json.loads(r.stdout)
            if verdict_of(rep) != want["verdict"]:
                problems.append(f"verdict {verdict_of(rep)} (baseline {want['verdict']})")
        except ValueError:
            problems.append("no JSON report")
        got = project_files(out) if out.is_dir() else {}
        if got != want["files"]:
            diff = sorted(set(got) ^ set(want["files"])) or [k for k in got if got[k] != want["files"].get(k)]
            problems.append(f"project differs: {diff[:4]}")
        after = events(base / "data")[1][before:]
        finished = [e for e in after if e["kind"] == "run_finished"]
        if len(finished) != 1:
            problems.append(f"{len(finished)} run_finished after the kill")
        lr = subprocess.run([sys.executable, "-m", "assistant.cli", "runs"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
        line = next((x for x in lr.stdout.splitlines() if run_id in x), "")
        want_status = "verified" if want["verdict"][1] else "failed"
        if want_status not in line:
            problems.append(f"kgen runs: {line.strip() or lr.stderr.strip()[-200:]!r}")
        resumed_at = next((e["node"] for e in after if e["kind"] == "node_started"), "-")
        return not problems, "; ".join(problems) or f"resumed at {resumed_at}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=0, help="run only the first N kill points (default: all)")
    ap.add_argument("--task", type=Path, default=ADD, help="kgen spec to generate (default examples/tasks/add)")
    ap.add_argument("--model", action="store_true", help="the model path: a scripted local OpenAI-compatible server")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds a run (or a resume) may take")
    ap.add_argument("--only", metavar="NODE:POINT", action="append", default=[],
                    help="run only these kill points (e.g. build:mid, report:finished; repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep the trials' folders")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    root = Path(tempfile.mkdtemp(prefix="kgen-fault-agent-"))
    srv = None
    try:
        llm = None
        if a.model:
            from tests.agent_graph import scripted_kernels as sk
            from tests.agent_graph.openai_server import ScriptedOpenAI

            if a.task == ADD:
                a.task = sk.TASK
            srv = ScriptedOpenAI([], default={"text": sk.reply(sk.GOOD), "chunk_size": 400, "chunk_delay": 0.01})
            srv.__enter__()
            llm = srv.url
        t = Trial(a, llm)
        base = root / "baseline"
        want = t.baseline(base)
        print(f"baseline: exit {want['rc']}, verdict {want['verdict']}, {len(want['files'])} project files, "
              f"nodes {' '.join(n for n, _ in want['nodes'])} ({want['seconds']:.0f} s)")
        points = []
        counts: dict[str, int] = {}
        for node, secs in want["nodes"]:
            counts[node] = counts.get(node, 0) + 1
            occ = counts[node]
            points.append((node, occ, "started", 0.0))
            if secs > 0.3:
                points.append((node, occ, "mid", round(secs * rng.uniform(0.3, 0.7), 2)))
            points.append((node, occ, "finished", 0.0))
        if a.seed:
            rng.shuffle(points)
        if a.only:
            points = [p for p in points if f"{p[0]}:{p[2]}" in a.only or (p[1] > 1 and f"{p[0]}#{p[1]}:{p[2]}" in a.only)]
        if a.count:
            points = points[:a.count]
        rows = []
        t0 = time.monotonic()
        for i, (node, occ, point, delay) in enumerate(points):
            ok, why = t.kill_and_resume(root / f"trial{i:02d}", node, occ, point, delay, want)
            label = node if occ == 1 else f"{node}#{occ}"
            rows.append((label, point + (f" +{delay:g}s" if delay else ""), ok, why))
            print(f"  {label:12s} {rows[-1][1]:14s} {'ok' if ok else 'FAILED'}  {why[:200]}", flush=True)
        print(f"\n{'node':12s} {'killed at':14s} resumed ok")
        for label, point, ok, why in rows:
            print(f"{label:12s} {point:14s} {'yes' if ok else 'NO: ' + why[:150]}")
        bad = sum(1 for r in rows if not r[2])
        nodes = len({r[0] for r in rows})
        print(f"fault_agent: {len(rows)} kills at {nodes} nodes ({'model' if a.model else 'offline'} path), "
              f"{len(rows) - bad} resumed to the same result, {bad} failed ({time.monotonic() - t0:.0f} s, seed {a.seed})")
        return 0 if bad == 0 else 1
    finally:
        if srv is not None:
            srv.__exit__(None, None, None)
        if not a.keep:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"trials kept in {root}")


if __name__ == "__main__":
    sys.exit(main())
