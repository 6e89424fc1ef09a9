"""Real kernels built and traced on the emulator, then modelled: the model moves the way the
hardware does (direction and rough size)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bench_bridge import perf
from bench_bridge.sim import build, run

ROOT = Path(__file__).resolve().parents[3]
KERNEL = Path(__file__).parent / "kernels" / "perf_add.asc"
TILE = 4096
TOTAL = 48 * 4 * TILE   # halves per tensor


@pytest.fixture(scope="module")
def perf_add():
    res = build([KERNEL])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:]

    def model(blocks: int, total: int = TOTAL, buffers: int = 2, exp_passes: int = 0, soc: str = "910B2"):
        with tempfile.TemporaryDirectory() as cwd:
            r = run(res.binary, [str(blocks), str(total), str(buffers), str(exp_passes)], cwd=cwd, trace=True, timeout=120)
        assert r.ok, r.stderr
        return perf.profile(r.trace_file, soc=soc)

    return model


def test_examples_add_is_bound_by_its_copies_in():
    res = build([ROOT / "examples" / "add" / "add.asc"])
    assert res.ok
    with tempfile.TemporaryDirectory() as cwd:
        r = run(res.binary, cwd=cwd, trace=True, timeout=120)
    assert r.ok, r.stderr
    rep = perf.profile(r.trace_file)
    assert rep.execution_bound.startswith(("MTE2", "GM bandwidth")), rep.render_text()
    assert rep.gm_read_bytes == 2 * 8 * 8 * 1024 * 2 and rep.gm_write_bytes == 8 * 8 * 1024 * 2
    assert len(rep.launches) == 1 and rep.launches[0].blocks == 8


def test_double_buffering_hides_copy_time(perf_add):
    single = perf_add(8, buffers=1)
    double = perf_add(8, buffers=2)
    assert double.modelled_us < single.modelled_us
    work = lambda rep: rep.modelled_us - rep.launch_overhead_us  # noqa: E731
    assert work(double) < 0.8 * work(single)
    assert double.execution_bound.startswith(("MTE2", "GM bandwidth"))
    assert double.pipe_busy["MTE2"] > single.pipe_busy["MTE2"]


def test_a_vector_heavy_kernel_is_reported_vector_bound(perf_add):
    rep = perf_add(8, exp_passes=16)
    assert rep.bound.startswith("V"), rep.render_text()
    assert rep.pipe_busy["V"] > 0.9


def test_doubling_cores_halves_time_until_gm_bandwidth_binds(perf_add):
    work = {n: perf_add(n).launches[0].makespan_us for n in (1, 2, 4, 8)}
    for n in (2, 4, 8):
        assert work[n] / work[n // 2] == pytest.approx(0.5, abs=0.08), work
    full = perf_add(48)
    gm_bound_us = (full.gm_read_bytes + full.gm_write_bytes) / (full.peak_gbps * 1e3)
    assert full.launches[0].makespan_us >= gm_bound_us * 0.98
    assert full.execution_bound.startswith("GM bandwidth"), full.render_text()
    assert full.launches[0].makespan_us > work[8] / 6 * 1.2     # 6x the cores, clearly less than 6x faster


def test_launch_overhead_dominates_tiny_shapes(perf_add):
    rep = perf_add(1, total=TILE)
    assert rep.bound.startswith("launch overhead")


def test_fused_kernel_beats_the_modelled_eager_chain(perf_add):
    torch = pytest.importorskip("torch")
    x = torch.randn(TOTAL, dtype=torch.float16)
    y = torch.randn(TOTAL, dtype=torch.float16)
    eager = perf.eager_baseline(lambda a, b: torch.exp(a + b), x, y)
    assert [o.name for o in eager.ops] == ["add", "exp"]
    rep = perf_add(48, exp_passes=1)
    rep.with_reference(eager)
    assert rep.speedup_vs_eager > 1.0, rep.render_text()
    assert rep.roofline_us == pytest.approx(3 * TOTAL * 2 / (rep.peak_gbps * 1e3))
    assert 0 < rep.roofline_fraction <= 1


def test_910b4_is_slower_than_910b2_on_a_memory_bound_kernel(perf_add):
    assert perf_add(48, soc="910B4").modelled_us > perf_add(48, soc="910B2").modelled_us
