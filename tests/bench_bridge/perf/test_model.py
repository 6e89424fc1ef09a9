"""The timing model against hand-computed timelines on small synthetic traces."""
from __future__ import annotations

import pytest

from bench_bridge import perf
from bench_bridge.perf.costs import load
from bench_bridge.perf.events import synthetic
from bench_bridge.perf.model import _finish, run_block, simulate

C = load("910B2")
VECIN = 9 * 32 + 9     # TQue<VECIN>: filled by MTE2, read by V
VECOUT = 10 * 32 + 10  # TQue<VECOUT>: filled by V, read by MTE3
MTE2_V = 4 * 64        # HardEvent::MTE2_V, event id 0


def copy_in(nbytes, bursts=1):
    return ("DataCopy", "MTE2", nbytes, bursts, 0, 0, 2)


def add(repeats):
    return ("Add", "V", repeats * 256, repeats, 0, 0, 2)


def block(events):
    return _finish(run_block([perf.events.Event(*e) for e in events], C, share=1e9))


def mte_occupancy(nbytes, rate=C.mte2_gm_bytes_per_cycle):
    return C.mte_issue_cycles + nbytes / rate


def test_two_pipes_overlap():
    r = block([copy_in(3200), add(10)])
    s = C.scalar_issue_cycles
    mte = r.spans[0]
    vec = r.spans[1]
    assert mte.start == s and mte.end == s + mte_occupancy(3200)
    # the add does not depend on the copy: it starts as soon as it is issued, while the copy runs
    assert vec.start == 2 * s and vec.end == 2 * s + C.vector_startup_cycles + 10
    assert r.duration == pytest.approx(s + mte_occupancy(3200) + C.mte_latency_cycles)
    assert r.duration < (mte.end - mte.start) + C.mte_latency_cycles + (vec.end - vec.start) + 2 * s


def test_deque_makes_the_vector_pipe_wait_for_the_copy():
    q = 7
    r = block([("AllocTensor", "S", 0, 0, 0, q, 0, q * 64, VECIN), copy_in(3200),
               ("EnQue", "S", 0, 0, 4, q, 0, q * 64, VECIN), ("DeQue", "S", 0, 0, 5, q, 0, q * 64, VECIN), add(10)])
    s = C.scalar_issue_cycles
    copy_done = 2 * s + mte_occupancy(3200) + C.mte_latency_cycles
    vec = [sp for sp in r.spans if sp.pipe == "V"][0]
    assert vec.start == pytest.approx(copy_done + C.sync_cycles)


def test_setflag_waitflag_orders_two_pipes():
    r = block([copy_in(3200), ("SetFlag", "S", 0, 0, 1, MTE2_V), ("WaitFlag", "S", 0, 0, 2, MTE2_V), add(4)])
    vec = [sp for sp in r.spans if sp.pipe == "V"][0]
    assert vec.start == pytest.approx(C.scalar_issue_cycles + mte_occupancy(3200) + C.mte_latency_cycles + C.sync_cycles)


def test_pipe_barrier_all_drains_everything():
    r = block([copy_in(3200), ("PipeBarrier", "ALL", 0, 0, 3, 6), add(4)])
    vec = [sp for sp in r.spans if sp.pipe == "V"][0]
    # the scalar unit stalls at the barrier until the copy's data has landed, then issues the add
    assert vec.start == pytest.approx(2 * C.scalar_issue_cycles + mte_occupancy(3200) + C.mte_latency_cycles)


def tile_loop(tiles: int, buffers: int, nbytes=8192, repeats=32):
    """CopyIn / Compute / CopyOut per tile, with `buffers` buffers in each queue (round-robin)."""
    qi, qo = 1, 2
    ev = []
    for t in range(tiles):
        bi, bo = qi * 64 + t % buffers, qo * 64 + t % buffers
        ev += [("AllocTensor", "S", 0, 0, 0, qi, 0, bi, VECIN), copy_in(nbytes), ("EnQue", "S", 0, 0, 4, qi, 0, bi, VECIN),
               ("DeQue", "S", 0, 0, 5, qi, 0, bi, VECIN), ("AllocTensor", "S", 0, 0, 0, qo, 0, bo, VECOUT), add(repeats),
               ("EnQue", "S", 0, 0, 4, qo, 0, bo, VECOUT), ("FreeTensor", "S", 0, 0, 0, qi, 0, bi, VECIN),
               ("DeQue", "S", 0, 0, 5, qo, 0, bo, VECOUT), ("DataCopy", "MTE3", nbytes, 1, 0, 0, 2),
               ("FreeTensor", "S", 0, 0, 0, qo, 0, bo, VECOUT)]
    return ev


def test_buffer_reuse_single_buffer_serialises_and_double_buffering_overlaps():
    single = block(tile_loop(16, 1))
    double = block(tile_loop(16, 2))
    assert double.duration < 0.8 * single.duration
    # single buffering: the copy-in of tile i+1 cannot start before the add of tile i has freed the buffer
    mte2 = [s for s in single.spans if s.pipe == "MTE2"]
    vec = [s for s in single.spans if s.pipe == "V"]
    for i in range(1, 16):
        assert mte2[i].start >= vec[i - 1].end
    # double buffering: some copy-in starts before the previous tile's add has finished
    mte2d = [s for s in double.spans if s.pipe == "MTE2"]
    vecd = [s for s in double.spans if s.pipe == "V"]
    assert any(mte2d[i].start < vecd[i - 1].end for i in range(1, 16))


def test_unaligned_rows_cost_more_than_aligned_rows():
    rows = 100
    unaligned = block([("DataCopyPad", "MTE2", rows * 62, rows, 0, 0, 2)])
    aligned = block([("DataCopyPad", "MTE2", rows * 64, rows, 0, 0, 2)])
    assert unaligned.spans[0].end - unaligned.spans[0].start > aligned.spans[0].end - aligned.spans[0].start
    assert unaligned.gm_traffic > aligned.gm_traffic > unaligned.gm_read


def test_waves_when_blocks_exceed_cores():
    ev = [copy_in(65536), add(64)]
    one = simulate(synthetic(ev, blocks=48), C)
    two = simulate(synthetic(ev, blocks=96), C)
    assert one.waves == 1 and two.waves == 2
    assert len({b.core for b in two.blocks}) == 48
    assert two.makespan == pytest.approx(2 * one.makespan, rel=0.15)


def test_a_mix_launch_runs_its_cube_cores_beside_its_vector_cores():
    """A MIX 1:2 launch of 24 blocks is 24 cube (AIC) and 48 vector (AIV) cores at once on a 910B2 (24 + 48
    cores): one wave, as long as its longest block, not 72 blocks dealt to 48 cores in two waves (blocks of vector
    work: the HBM share does not bind)."""
    ev = [copy_in(256), add(4096)]
    vector = simulate(synthetic(ev, blocks=48), C)
    mix = synthetic(ev, blocks=72)
    for b in mix.blocks[48:]:
        b.aic = True
    res = simulate(mix, C)
    assert C.ai_cores == 24 and C.vector_cores == 48
    assert res.waves == 1 and res.active_cores == 48
    assert len({b.core for b in res.blocks}) == 72         # 48 vector and 24 cube cores
    assert res.makespan == pytest.approx(vector.makespan, rel=0.15)
    unmarked = simulate(synthetic(ev, blocks=72), C)       # the same blocks all on vector cores: two waves
    assert unmarked.waves == 2 and unmarked.makespan > 1.5 * res.makespan
    more = synthetic(ev, blocks=48 + 48)                   # 48 cube blocks on 24 cube cores: two waves
    for b in more.blocks[48:]:
        b.aic = True
    assert simulate(more, C).waves == 2


def test_gm_bandwidth_is_shared_by_active_cores():
    ev = [copy_in(1 << 20), ("DataCopy", "MTE3", 1 << 20, 1, 0, 0, 2)]
    few = simulate(synthetic(ev, blocks=4), C)
    many = simulate(synthetic(ev, blocks=48), C)
    assert not few.gm_limited and many.gm_limited
    traffic = sum(b.gm_traffic for b in many.blocks)
    assert traffic / many.makespan <= C.hbm_bytes_per_cycle * 1.03      # never above the HBM bandwidth
    assert traffic / many.makespan >= C.hbm_bytes_per_cycle * 0.8       # and close to it when memory bound
    # 12x the cores but far less than 12x faster: the HBM limit binds
    assert many.makespan > few.makespan / 12 * 2


def test_syncall_releases_all_blocks_at_the_last_arrival():
    slow = [copy_in(1 << 16), ("SyncAll", "ALL", 0, 0, 6, 0), add(1)]
    fast = [("SyncAll", "ALL", 0, 0, 6, 0), add(1)]
    launch = synthetic(slow, blocks=2)
    launch.blocks[1].events = [perf.events.Event(*e) for e in fast]
    launch.blocks[1].key = "fast"
    res = simulate(launch, C)
    v_fast = [s for s in res.blocks[1].spans if s.pipe == "V"][0]
    slow_copy_done = C.scalar_issue_cycles + mte_occupancy(1 << 16, min(C.mte2_gm_bytes_per_cycle, res.gm_share)) + \
        C.mte_latency_cycles
    assert v_fast.start >= slow_copy_done + C.syncall_cycles


def test_launch_overhead_dominates_a_tiny_kernel():
    rep = perf.model_launches([synthetic([copy_in(64), add(1), ("DataCopy", "MTE3", 64, 1, 0, 0, 2)])])
    assert rep.bound.startswith("launch overhead")
    assert rep.launch_overhead_us > 0.5 * rep.modelled_us


def test_report_fields_and_vector_bound():
    rep = perf.model_launches([synthetic([copy_in(2048), ("Exp", "V", 256 * 200, 200, 0, 0, 2)] * 20, blocks=8)])
    d = rep.to_dict()
    for k in ("modelled_us", "time_us", "pipe_busy", "bound", "gm_read_bytes", "gm_write_bytes", "achieved_gbps",
              "peak_gbps", "roofline_us", "launches"):
        assert k in d
    assert rep.bound.startswith("V")
    assert "modelled kernel time" in rep.render_text()
    rep.with_measured(3.5)
    assert rep.time_us == 3.5 and rep.to_dict()["source"] == "measured"
    assert "measured kernel time" in rep.render_text() and "modelled kernel time" in rep.render_text()


def test_soc_is_selectable(monkeypatch):
    assert load("910B4").vector_cores == 40 and load("Ascend910B4").clock_mhz == 1500
    monkeypatch.setenv("KGEN_SOC", "910B4")
    assert load().soc == "910B4"
    with pytest.raises(ValueError):
        load("910Z")
