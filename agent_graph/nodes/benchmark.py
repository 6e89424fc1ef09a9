"""benchmark: how fast the best verified candidate is. On the emulator the figures are modelled from the
instruction trace (bench_bridge.perf): the verify run already profiled every case when profiling is on;
otherwise this node profiles the best candidate once. Either way the traces and timeline pictures are
written beside the candidate's report.json in the run folder (verify.profile_dir)."""
from __future__ import annotations

import json
from pathlib import Path

from agent_graph.nodes.context import Ctx
from agent_graph.nodes.verify import bench_candidate, modelled_total, profile_dir
from agent_graph.state import GraphState


def benchmark_node(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    best = state.get("best")
    if not best or best.get("verdict") != "verified":
        return {}, "skipped: no verified candidate"
    if not ctx.agent.profile:
        return {}, "skipped (profiling off)"
    data = json.loads(Path(best["report_path"]).read_text())
    if not data.get("performance"):
        rep = bench_candidate(state, ctx, Path(best["project"]), profile=True, artifacts_dir=profile_dir(ctx, best))
        data = json.loads(rep.to_json())
        Path(best["report_path"]).write_text(json.dumps(data, indent=2) + "\n")
        best = {**best, "modelled_us": modelled_total(data)}
    perf = data.get("performance") or {}
    times = perf.get("modelled_us") or []
    geo = perf.get("geomean_speedup_vs_eager")
    # cases are different shapes: their times are a range, never a sum (issue 22 item 7)
    span = (f"modelled {times[0]:.1f} us" if len(times) == 1 else
            f"modelled {min(times):.1f}-{max(times):.1f} us per case ({len(times)} cases)") if times else ""
    detail = span + (f", {geo:.2f}x vs PyTorch eager" if geo else "") if times else "no performance figures"
    return {"best": best}, detail
