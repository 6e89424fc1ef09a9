"""The modelled timeline as a Chrome trace (JSON object format), for Perfetto or chrome://tracing.

One process per core ("core 3"), one thread (lane) per pipe (MTE2, V, MTE3, ...), one complete
event ("ph": "X") per instruction with its block, bytes and API; a "launch" process shows each
kernel launch and its launch overhead. Times are microseconds from the first launch.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench_bridge.perf.model import LaunchResult

LANES = ("MTE2", "V", "MTE3", "MTE1", "M", "FIX", "S")
_LAUNCH_PID = 0


def chrome_trace(results: list[LaunchResult], max_events: int = 200_000) -> dict[str, Any]:
    events: list[dict[str, Any]] = []
    meta: list[dict[str, Any]] = [
        {"name": "process_name", "ph": "M", "pid": _LAUNCH_PID, "tid": 0, "args": {"name": "kernel launches"}},
        {"name": "process_sort_index", "ph": "M", "pid": _LAUNCH_PID, "tid": 0, "args": {"sort_index": -1}},
    ]
    cores_seen: set[int] = set()
    lanes_seen: set[tuple[int, str]] = set()
    offset = 0.0
    dropped = 0
    for r in results:
        mhz = r.clock_mhz
        events.append({"name": "launch overhead", "cat": "launch", "ph": "X", "ts": offset, "dur": r.launch_overhead_us,
                       "pid": _LAUNCH_PID, "tid": 0, "args": {"kernel": r.kernel}})
        t0 = offset + r.launch_overhead_us
        events.append({"name": f"{r.kernel} (launch {r.launch})", "cat": "launch", "ph": "X", "ts": t0,
                       "dur": r.makespan / mhz, "pid": _LAUNCH_PID, "tid": 0,
                       "args": {"blocks": len(r.blocks), "waves": r.waves, "active_cores": r.active_cores}})
        for b in r.blocks:
            pid = b.core + 1
            cores_seen.add(b.core)
            events.append({"name": f"block {b.block}", "cat": "block", "ph": "X", "ts": t0 + b.start / mhz,
                           "dur": b.duration / mhz, "pid": pid, "tid": len(LANES), "args": {"block": b.block}})
            lanes_seen.add((pid, "block"))
            for s in b.spans:
                if len(events) >= max_events:
                    dropped += 1
                    continue
                lanes_seen.add((pid, s.pipe))
                events.append({"name": s.api, "cat": s.pipe, "ph": "X", "ts": t0 + (b.start + s.start) / mhz,
                               "dur": max(s.end - s.start, 0.0) / mhz, "pid": pid, "tid": LANES.index(s.pipe)
                               if s.pipe in LANES else len(LANES) + 1, "args": {"block": b.block, "bytes": s.bytes}})
        offset = t0 + r.makespan / mhz
    for c in sorted(cores_seen):
        meta.append({"name": "process_name", "ph": "M", "pid": c + 1, "tid": 0, "args": {"name": f"core {c}"}})
        meta.append({"name": "process_sort_index", "ph": "M", "pid": c + 1, "tid": 0, "args": {"sort_index": c}})
    for pid, lane in sorted(lanes_seen):
        tid = len(LANES) if lane == "block" else (LANES.index(lane) if lane in LANES else len(LANES) + 1)
        meta.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": lane}})
        meta.append({"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid, "args": {"sort_index": tid}})
    other = {"generator": "kgen performance model (modelled, not measured)"}
    if dropped:
        other["dropped_events"] = dropped
    return {"traceEvents": meta + events, "displayTimeUnit": "ns", "otherData": other}


def write_chrome_trace(results: list[LaunchResult], path: str | Path, max_events: int = 200_000) -> Path:
    path = Path(path)
    path.write_text(json.dumps(chrome_trace(results, max_events), separators=(",", ":")), encoding="utf-8")
    return path


def validate(doc: Any) -> list[str]:
    """Problems with ``doc`` as a Chrome trace in JSON object format (empty list = valid)."""
    errs = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["top level must be an object with a traceEvents array"]
    for i, e in enumerate(doc["traceEvents"]):
        where = f"event {i}"
        if not isinstance(e, dict):
            errs.append(f"{where}: not an object")
            continue
        ph = e.get("ph")
        if ph not in ("X", "M", "B", "E", "i", "I", "C"):
            errs.append(f"{where}: unknown phase {ph!r}")
        if not isinstance(e.get("name"), str):
            errs.append(f"{where}: name must be a string")
        for k in ("pid", "tid"):
            if not isinstance(e.get(k), (int, str)):
                errs.append(f"{where}: {k} must be an int or string")
        if ph == "X":
            for k in ("ts", "dur"):
                if not isinstance(e.get(k), (int, float)) or e[k] < 0:
                    errs.append(f"{where}: {k} must be a non-negative number")
        if ph == "M" and not isinstance(e.get("args"), dict):
            errs.append(f"{where}: metadata event needs args")
        if "args" in e and not isinstance(e["args"], dict):
            errs.append(f"{where}: args must be an object")
    return errs
