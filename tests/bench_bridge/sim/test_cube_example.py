"""examples/matmul_cube: a tiled fp16 matmul on the cube unit (Nd2Nz, LoadData, Mmad, Fixpipe) with
non-aligned M/N/K, end to end on the emulator; its trace puts each cube instruction on its pipe and the
performance model gives the M pipe the time of the fractal products it counts."""
from __future__ import annotations

import math
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from bench_bridge import perf
from bench_bridge.perf.costs import load
from bench_bridge.perf.events import load_trace, synthetic
from bench_bridge.perf.model import _finish, run_block
from bench_bridge.sim import build, run

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "matmul_cube" / "matmul_cube.asc"
CASES = [(4, 256, 256, 128), (3, 200, 150, 300), (2, 1, 17, 33), (5, 257, 129, 70), (1, 1, 300, 600)]  # blocks, M, N, K (as in main())
BASE_M = BASE_N = 128
BASE_K = 64


@pytest.fixture(scope="module")
def traced():
    res = build([EXAMPLE])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:]
    with tempfile.TemporaryDirectory() as cwd:
        r = run(res.binary, cwd=cwd, trace=True, timeout=300)
        launches = load_trace(r.trace_file)
        report = perf.profile(r.trace_file)
    return r, launches, report


def test_example_passes_its_own_check_without_diagnostics(traced):
    r, _, _ = traced
    assert r.returncode == 0, r.stderr[-3000:]
    assert not r.diagnostics, [d.format() for d in r.diagnostics]
    assert r.stdout.strip().splitlines()[-1] == "PASS"
    assert r.stdout.count("mismatches 0") == len(CASES)


def fractal_products(m: int, n: int, k: int) -> int:
    """16 x 16 x 16 products of one launch, tile by tile and K step by K step."""
    total = 0
    for m0 in range(0, m, BASE_M):
        for n0 in range(0, n, BASE_N):
            for k0 in range(0, k, BASE_K):
                ml, nl, kl = min(BASE_M, m - m0), min(BASE_N, n - n0), min(BASE_K, k - k0)
                total += math.ceil(ml / 16) * math.ceil(nl / 16) * math.ceil(kl / 16)
    return total


def test_cube_instructions_are_traced_on_their_pipes(traced):
    _, launches, _ = traced
    assert len(launches) == len(CASES)
    for launch, (blocks, m, n, k) in zip(launches, CASES):
        events = [e for b in launch.blocks for e in b.events]
        pipes = {(e.api, e.pipe) for e in events if e.sync == 0 and e.pipe != "S"}
        assert pipes == {("DataCopy", "MTE2"), ("LoadData", "MTE1"), ("Mmad", "M"), ("Fixpipe", "FIX")}, pipes
        assert sum(e.repeats for e in events if e.api == "Mmad") == fractal_products(m, n, k)
        # one Fixpipe per output tile, writing m * n floats in total
        fix = [e for e in events if e.api == "Fixpipe"]
        assert len(fix) == math.ceil(m / BASE_M) * math.ceil(n / BASE_N)
        assert sum(e.bytes for e in fix) == m * n * 4
        sync = Counter(e.sync for e in events)
        assert sync[1] == sync[2] > 0  # every SetFlag has its WaitFlag


def test_model_gives_the_m_pipe_busy_time(traced):
    _, _, report = traced
    assert report.pipe_busy["M"] > 0.05, report.render_text()
    assert report.pipe_busy["MTE1"] > 0 and report.pipe_busy["FIX"] > 0


def test_mmad_costs_one_cycle_per_fractal_product_on_the_m_pipe():
    c = load("910B2")

    def m_span(repeats):
        r = _finish(run_block([perf.events.Event("Mmad", "M", 1024, repeats, 0, 0, 2)], c, share=1e9))
        sp = [s for s in r.spans if s.pipe == "M"][0]
        return sp.end - sp.start

    assert m_span(1000) == pytest.approx(c.cube_startup_cycles + 1000 * c.cube_fractal_cycles)
    assert m_span(3000) - m_span(1000) == pytest.approx(2000 * c.cube_fractal_cycles)
    # an Mmad-heavy launch is reported bound by the cube pipe
    rep = perf.model_launches([synthetic([("Mmad", "M", 1024, 200000, 0, 0, 2)], blocks=24)])
    assert rep.execution_bound.startswith(("M", "cube")), rep.render_text()
