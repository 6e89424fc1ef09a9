"""Costs per source line (issue 22): the performance model splits the modelled kernel time over the
places that spent it (bench_bridge/perf/lines.py), and ``kgen bench --profile`` prints the hot lines.

The rule (docs/performance-model.md, "Where the time goes"): within a block, each moment is shared
equally by the instructions running on the pipes then; a moment when no pipe runs goes to the next
instruction to start ("wait"), the tail after the last one to the last one that ended; the blocks' sums
are scaled to the launch's makespan and the launch overhead is a row of its own, so the rows add up to
the modelled time. Checked by hand on a small trace, and for the sum on real benches of examples/."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench_bridge import perf
from bench_bridge.perf.costs import load
from bench_bridge.perf.events import synthetic
from bench_bridge.perf.lines import OVERHEAD_SITE, WAIT_PIPE

ROOT = Path(__file__).resolve().parents[3]
C = load("910B2")


def test_overlapping_copy_and_vector_op_split_by_hand():
    # a 3200-byte copy in (MTE2) at k.asc:10, then a 10-repeat Add (V) at k.asc:20 that does not wait for it
    locs = ["/k.asc:10", "/k.asc:20"]
    launch = synthetic([("DataCopy", "MTE2", 3200, 1, 0, 0, 2, -1, -1, 0), ("Add", "V", 2560, 10, 0, 0, 2, -1, -1, 1)],
                       locs=locs)
    rep = perf.model_launches([launch], soc="910B2")
    s = C.scalar_issue_cycles
    m = C.mte_issue_cycles + 3200 / C.mte2_gm_bytes_per_cycle        # the copy occupies MTE2 for m cycles
    v = C.vector_startup_cycles + 10 * C.vector_cycles_per_repeat("Add") * C.vector_bytes_per_repeat / C.vector_bytes_per_cycle
    lat = C.mte_latency_cycles
    assert 2 * s + v < s + m, "the Add runs inside the copy (the case worked by hand below)"
    duration = s + m + lat                                            # the copy's data lands last
    # [0,s] issue before the copy -> copy (wait); [s,2s] copy alone; [2s,2s+v] both, halves;
    # [2s+v, s+m] copy alone; [s+m, s+m+lat] latency tail -> the copy (wait)
    copy_cycles = {"wait": s + lat, "MTE2": s + v / 2 + (m - s - v)}
    add_cycles = {"V": v / 2}
    makespan_us = (C.block_start_cycles + duration) / C.clock_mhz
    scale = makespan_us / duration
    hot = {h["site"]: h for h in rep.hot_lines}
    assert set(hot) == {"/k.asc:10", "/k.asc:20", OVERHEAD_SITE}
    assert hot["/k.asc:10"]["us"] == pytest.approx(sum(copy_cycles.values()) * scale)
    assert hot["/k.asc:10"]["pipe_us"] == pytest.approx({k: c * scale for k, c in copy_cycles.items()})
    assert hot["/k.asc:10"]["pipe"] == ("MTE2" if copy_cycles["MTE2"] > copy_cycles["wait"] else WAIT_PIPE)
    assert hot["/k.asc:20"]["us"] == pytest.approx(v / 2 * scale) and hot["/k.asc:20"]["pipe"] == "V"
    assert hot["/k.asc:20"]["file"] == "/k.asc" and hot["/k.asc:20"]["line"] == 20
    assert hot[OVERHEAD_SITE]["us"] == pytest.approx(C.launch_overhead_us)
    assert sum(h["us"] for h in rep.hot_lines) == pytest.approx(rep.modelled_us, rel=1e-12)
    assert sum(h["percent"] for h in rep.hot_lines) == pytest.approx(100.0)
    assert [h["site"] for h in rep.hot_lines] == sorted(hot, key=lambda k: -hot[k]["us"])
    text = rep.render_text()
    assert "hot lines of /k.asc, adding up to the modelled time:" in text
    row = next(ln for ln in text.splitlines() if "line 20" in ln)
    assert row.split() == [f"{hot['/k.asc:20']['percent']:.1f}%", f"{hot['/k.asc:20']['us']:.2f}", "V", "line", "20", "Add"]


def test_a_trace_without_call_sites_is_split_by_call_and_pipe():
    launch = synthetic([("DataCopy", "MTE2", 3200, 1, 0, 0, 2), ("Add", "V", 2560, 10, 0, 0, 2),
                        ("DataCopy", "MTE3", 3200, 1, 0, 0, 2)], blocks=4)
    rep = perf.model_launches([launch], soc="910B2")
    sites = {h["site"] for h in rep.hot_lines}
    assert sites == {"DataCopy (MTE2)", "Add (V)", "DataCopy (MTE3)", OVERHEAD_SITE}
    assert sum(h["us"] for h in rep.hot_lines) == pytest.approx(rep.modelled_us, rel=1e-12)
    assert "hot instructions (the trace names no source lines: by call)" in rep.render_text()


@pytest.mark.parametrize("example", ["add/add.asc", "syncall_normalize/syncall_normalize.asc",
                                     "matmul_cube/matmul_cube.asc"])
def test_kgen_bench_profile_prints_hot_lines_that_add_up_to_the_modelled_time(example, tmp_path):
    path = ROOT / "examples" / example
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(path), "--profile", "--json",
                        "--artifacts", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    p = json.loads(r.stdout)["cases"][0]["performance"]
    hot = p["hot_lines"]
    assert hot and sum(h["us"] for h in hot) == pytest.approx(p["modelled_us"], rel=1e-9)
    assert sum(h["percent"] for h in hot) == pytest.approx(100.0, rel=1e-9)
    assert all(h["us"] >= 0 for h in hot)
    text = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(path), "--profile", "--artifacts",
                           str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=900).stdout
    assert f"case 0: where the {p['modelled_us']:.2f} us go" in text
    assert "adding up to the modelled time" in text and OVERHEAD_SITE in text


def test_hot_lines_name_the_source_lines_of_the_calls(tmp_path):
    """Each row of a real bench of examples/add is a line of add.asc whose text makes the calls the row names."""
    path = ROOT / "examples" / "add" / "add.asc"
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(path), "--profile", "--json",
                        "--artifacts", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    hot = [h for h in json.loads(r.stdout)["cases"][0]["performance"]["hot_lines"] if h["site"] != OVERHEAD_SITE]
    src = path.read_text().splitlines()
    assert hot and all(h["file"] == str(path) for h in hot), [h["site"] for h in hot]
    for h in hot:
        assert all(api in src[h["line"] - 1] for api in h["apis"]), (h["line"], src[h["line"] - 1], h["apis"])
    assert {h["line"] for h in hot} == {i for i, t in enumerate(src, 1)
                                        if "AscendC::DataCopy(" in t or "AscendC::Add(" in t}
