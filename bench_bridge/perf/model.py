"""Event-driven timing model of one kernel launch on the cores of an Ascend SoC.

Per core (one block at a time):
  * the scalar unit issues the traced instructions in program order, ``scalar_issue_cycles`` each;
  * every pipe (MTE2, V, MTE3, ...) runs its instructions in order, one at a time, and pipes run
    in parallel: an instruction starts at max(issue time, end of the previous one on its pipe);
    a copy (MTE) occupies its pipe for issue + transfer time and its data is visible one
    ``mte_latency_cycles`` later, so back-to-back copies overlap their latencies;
  * dependencies delay the consumer pipe, as the hardware's flags do:
      EnQue/DeQue   the consumer pipe of the queue waits for the producer pipe's work before EnQue;
      FreeTensor -> AllocTensor of the same buffer   the producer pipe waits for the releasing pipe;
      SetFlag/WaitFlag   the HardEvent's consumer pipe waits for its producer pipe;
      PipeBarrier<PIPE_ALL>   everything waits for everything issued before;
      SyncAll   every block waits for the last block to arrive (blocks simulated in lockstep).
Per launch: blocks are dealt to ``vector_cores`` cores as each frees up (waves when blocks >
cores); a cube core's block (the AIC part of a MIX launch, whose trace says ``aic``) is dealt to the
``ai_cores`` cube cores instead, which run beside the vector cores (a MIX 1:2 launch of 24 blocks is
24 cube and 48 vector cores at once, not 72 blocks in waves); GM bandwidth is shared: a core's copies run at min(its own MTE rate, its share of the
chip's HBM bandwidth), the share found by a few fixed-point steps so that the aggregate GM
traffic never exceeds the HBM bandwidth. Kernel time = launch overhead + makespan.
All costs come from the cost table (``costs.py``); times inside are core clock cycles.
"""
from __future__ import annotations

import heapq
import math
from collections import defaultdict, deque
from dataclasses import dataclass

from bench_bridge.perf.costs import CostTable
from bench_bridge.perf.events import (PIPES, SYNC_ALL, SYNC_BARRIER, SYNC_DEQUE, SYNC_ENQUE, SYNC_SET, SYNC_WAIT, Event,
                                      Launch, hard_event_pipes, queue_pipes)

WORK_PIPES = ("MTE2", "V", "MTE3", "MTE1", "M", "FIX")


@dataclass
class Span:
    pipe: str
    api: str
    start: float      # cycles from the block's start
    end: float
    bytes: int = 0
    site: str = ""    # the user's source line ("file:line") when the trace names it


@dataclass
class BlockResult:
    block: int
    duration: float                                   # cycles
    busy: dict[str, float]                            # pipe -> busy cycles ("S" = scalar issue)
    spans: list[Span]
    gm_read: int = 0                                  # useful bytes moved GM -> UB
    gm_write: int = 0                                 # useful bytes moved UB -> GM
    gm_traffic: float = 0.0                           # bytes including 32-byte sector rounding
    vector_repeats: int = 0
    vector_elems: float = 0.0                         # element operations on the vector unit
    core: int = 0
    start: float = 0.0                                # cycles from the launch's start (set by the scheduler)


@dataclass
class LaunchResult:
    kernel: str
    launch: int
    blocks: list[BlockResult]
    cores: int                                        # cores available
    active_cores: int                                 # cores that ran blocks at once
    makespan: float                                   # cycles, without the launch overhead
    gm_share: float                                   # bytes/cycle each core could take from HBM
    gm_limited: bool                                  # the shared HBM bandwidth, not a core's MTE, set the copy rate
    launch_overhead_us: float
    clock_mhz: float
    waves: int = 1

    @property
    def time_us(self) -> float:
        return self.launch_overhead_us + self.makespan / self.clock_mhz


class _Core:
    """Timing state of one core running one block."""

    def __init__(self, costs: CostTable, share: float):
        self.c = costs
        self.issue = 0.0
        self.ready = {p: 0.0 for p in PIPES}        # a pipe can start its next instruction (in order)
        self.done = {p: 0.0 for p in PIPES}         # everything issued to the pipe has completed
        self.busy = {p: 0.0 for p in PIPES}
        self.queues: dict[int, deque] = defaultdict(deque)
        self.free_at: dict[int, float] = {}
        self.flags: dict[int, deque] = defaultdict(deque)
        self.spans: list[Span] = []
        self.rate = {"MTE2": min(costs.mte2_gm_bytes_per_cycle, share), "MTE3": min(costs.mte3_gm_bytes_per_cycle, share),
                     "MTE1": costs.mte1_bytes_per_cycle, "FIX": costs.fix_bytes_per_cycle}
        self.gm_read = self.gm_write = self.repeats = 0
        self.gm_traffic = self.vec_elems = 0.0

    def drain(self) -> float:
        return max([self.issue] + list(self.ready.values()) + list(self.done.values()))

    def wait(self, pipe: str, t: float) -> None:
        if pipe == "S":
            self.issue = max(self.issue, t)
        elif pipe in self.ready:
            self.ready[pipe] = max(self.ready[pipe], t)

    def token(self, pipe: str) -> float:
        return self.issue if pipe == "S" else max(self.ready.get(pipe, self.issue), self.done.get(pipe, 0.0))

    def latency(self, e: Event) -> float:
        """Cycles after an instruction leaves its pipe until its result is visible (DMA round trip)."""
        return self.c.mte_latency_cycles if e.pipe in ("MTE2", "MTE3", "MTE1", "FIX") else 0.0

    def cost(self, e: Event) -> float:
        """Cycles the instruction occupies its pipe."""
        c = self.c
        if e.pipe in ("MTE2", "MTE3"):
            bursts = max(1, e.repeats)
            if e.bytes == 0:
                return c.mte_issue_cycles
            per = e.bytes // bursts
            aligned = e.bytes % bursts == 0 and per % c.gm_sector_bytes == 0
            sectors = math.ceil(e.bytes / bursts / c.gm_sector_bytes) + (0 if aligned else c.unaligned_extra_sectors)
            traffic = bursts * sectors * c.gm_sector_bytes
            self.gm_traffic += traffic
            if e.pipe == "MTE2":
                self.gm_read += e.bytes
            else:
                self.gm_write += e.bytes
            return c.mte_issue_cycles + (bursts - 1) * c.mte_burst_cycles + traffic / self.rate[e.pipe]
        if e.pipe == "V":
            reps = e.repeats or math.ceil(e.bytes / c.vector_bytes_per_repeat)
            self.repeats += reps
            self.vec_elems += e.bytes / (e.elem or 2)
            per_rep = c.vector_cycles_per_repeat(e.api) * c.vector_bytes_per_repeat / c.vector_bytes_per_cycle
            return c.vector_startup_cycles + reps * per_rep
        if e.pipe == "M":
            # Mmad: `repeats` = 16 x 16 x C0 fractal products (kgen_sim/cube/mmad.h), one per cube cycle
            if e.repeats:
                return c.cube_startup_cycles + e.repeats * c.cube_fractal_cycles
            return c.vector_startup_cycles + e.bytes / c.fix_bytes_per_cycle
        return c.mte_issue_cycles + e.bytes / self.rate.get(e.pipe, c.mte1_bytes_per_cycle)


def _neighbour_pipes(events: list[Event]) -> tuple[list[str], list[str]]:
    """For each event, the pipe of the nearest work instruction before it and after it."""
    prev, nxt = [], [""] * len(events)
    last = "V"
    for e in events:
        prev.append(last)
        if e.pipe in WORK_PIPES:
            last = e.pipe
    last = "V"
    for i in range(len(events) - 1, -1, -1):
        nxt[i] = last
        if events[i].pipe in WORK_PIPES:
            last = events[i].pipe
    return prev, nxt


def run_block(events: list[Event], costs: CostTable, share: float, block: int = 0, locs: list[str] | None = None):
    """Generator: simulates one block; yields its drain time at each SyncAll and expects the
    release time back; returns the BlockResult. ``locs``: the block's call sites (``Event.loc`` indexes them)."""
    core = _Core(costs, share)
    locs = locs or []
    prev, nxt = _neighbour_pipes(events)
    sync_c = costs.sync_cycles
    for i, e in enumerate(events):
        core.issue += costs.scalar_issue_cycles
        core.busy["S"] += costs.scalar_issue_cycles
        if e.pipe in WORK_PIPES and e.sync == 0:
            cost = core.cost(e)
            start = max(core.issue, core.ready[e.pipe])
            core.ready[e.pipe] = start + cost
            core.done[e.pipe] = max(core.done[e.pipe], start + cost + core.latency(e))
            core.busy[e.pipe] += cost
            core.spans.append(Span(e.pipe, e.api, start, start + cost, e.bytes,
                                   locs[e.loc] if 0 <= e.loc < len(locs) else ""))
            continue
        qp = queue_pipes(e.qpos)
        if e.sync == SYNC_ENQUE:
            producer = qp[0] if qp else prev[i]
            core.queues[e.arg].append(core.token(producer))
        elif e.sync == SYNC_DEQUE:
            consumer = qp[1] if qp else nxt[i]
            q = core.queues[e.arg]
            if q:
                core.wait(consumer, q.popleft() + sync_c)
        elif e.api == "AllocTensor" and e.buf >= 0:
            producer = qp[0] if qp else nxt[i]
            if e.buf in core.free_at:
                core.wait(producer, core.free_at[e.buf] + sync_c)
        elif e.api == "FreeTensor" and e.buf >= 0:
            consumer = qp[1] if qp else prev[i]
            core.free_at[e.buf] = core.token(consumer)
        elif e.sync == SYNC_SET:
            pp = hard_event_pipes(e.arg)
            if pp:
                core.flags[e.arg].append(core.token(pp[0]))
        elif e.sync == SYNC_WAIT:
            pp = hard_event_pipes(e.arg)
            q = core.flags[e.arg]
            if pp and q:
                core.wait(pp[1], q.popleft() + sync_c)
        elif e.sync == SYNC_BARRIER and e.pipe == "ALL":
            t = core.drain()
            for p in PIPES:
                core.wait(p, t)
        elif e.sync == SYNC_ALL:
            release = yield core.drain()
            t = max(release, core.drain())
            for p in PIPES:
                core.wait(p, t)
    return BlockResult(block, core.drain(), dict(core.busy), core.spans, core.gm_read, core.gm_write, core.gm_traffic,
                       core.repeats, core.vec_elems)


def _finish(gen) -> BlockResult:
    try:
        next(gen)
    except StopIteration as stop:
        return stop.value
    raise RuntimeError("a block reached SyncAll outside a lockstep run")


def _simulate_blocks(launch: Launch, costs: CostTable, share: float) -> list[BlockResult]:
    has_syncall = any(e.sync == SYNC_ALL for b in launch.blocks for e in b.events)
    if not has_syncall:
        memo: dict[str, BlockResult] = {}
        out = []
        for b in launch.blocks:
            r = memo.get(b.key) if b.key else None
            if r is None:
                r = _finish(run_block(b.events, costs, share, b.block, b.locs))
                if b.key:
                    memo[b.key] = r
            out.append(BlockResult(b.block, r.duration, r.busy, r.spans, r.gm_read, r.gm_write, r.gm_traffic,
                                   r.vector_repeats, r.vector_elems))
        return out
    # Lockstep: run every block to its next SyncAll, release all at the latest arrival.
    gens = [run_block(b.events, costs, share, b.block, b.locs) for b in launch.blocks]
    results: list[BlockResult | None] = [None] * len(gens)
    arrivals: dict[int, float] = {}
    for i, g in enumerate(gens):
        try:
            arrivals[i] = next(g)
        except StopIteration as stop:
            results[i] = stop.value
    while arrivals:
        release = max(arrivals.values()) + costs.syncall_cycles
        nxt: dict[int, float] = {}
        for i in arrivals:
            try:
                nxt[i] = gens[i].send(release)
            except StopIteration as stop:
                results[i] = stop.value
        arrivals = nxt
    return [r for r in results if r is not None]


def _schedule(blocks: list[BlockResult], cores: int, start_cycles: float) -> tuple[float, int]:
    """Deal blocks in order to the core that frees first; returns (makespan, waves)."""
    heap = [(0.0, c) for c in range(cores)]
    makespan, waves = 0.0, 1
    for n, r in enumerate(blocks):
        free, c = heapq.heappop(heap)
        r.core, r.start = c, free + start_cycles
        end = r.start + r.duration
        makespan = max(makespan, end)
        heapq.heappush(heap, (end, c))
        waves = n // cores + 1
    return makespan, waves


def _schedule_cores(launch: Launch, blocks: list[BlockResult], cores: int, costs: CostTable) -> tuple[float, int]:
    """The vector cores' blocks dealt to ``cores``, the cube cores' to the SoC's ``ai_cores``, both at once;
    (makespan, waves) of the slower side."""
    cube = [r for r, b in zip(blocks, launch.blocks) if b.aic]
    if not cube:
        return _schedule(blocks, cores, costs.block_start_cycles)
    vector = [r for r, b in zip(blocks, launch.blocks) if not b.aic]
    span_v, waves_v = _schedule(vector, cores, costs.block_start_cycles) if vector else (0.0, 1)
    span_c, waves_c = _schedule(cube, max(1, int(costs.ai_cores)), costs.block_start_cycles)
    for r in cube:    # the cube cores are numbered after the vector cores
        r.core += cores
    return max(span_v, span_c), max(waves_v, waves_c)


def simulate(launch: Launch, costs: CostTable, cores: int | None = None) -> LaunchResult:
    """Model one launch; ``cores`` overrides the SoC's vector core count (e.g. to study scaling)."""
    cores = int(cores or costs.vector_cores)
    active = max(1, min(sum(not b.aic for b in launch.blocks), cores))   # vector cores (the HBM share's divisor)
    hbm = costs.hbm_bytes_per_cycle
    core_cap = max(costs.mte2_gm_bytes_per_cycle, costs.mte3_gm_bytes_per_cycle)
    share = min(core_cap, hbm / active)
    best = None
    for _ in range(6):
        blocks = _simulate_blocks(launch, costs, share)
        makespan, waves = _schedule_cores(launch, blocks, cores, costs)
        traffic = sum(b.gm_traffic for b in blocks)
        throughput = traffic / makespan if makespan > 0 else 0.0
        ok = throughput <= hbm * 1.02
        if ok:
            best = (blocks, makespan, waves, share)
        if (ok and share >= core_cap) or throughput <= 0:
            break
        new = min(core_cap, share * hbm / throughput)
        if abs(new - share) < 1e-3 * share:
            break
        share = new
    if best is None:
        best = (blocks, makespan, waves, share)
    blocks, makespan, waves, share = best
    gm_limited = share < core_cap * 0.999 and any(b.gm_traffic for b in blocks) and \
        share < costs.mte2_gm_bytes_per_cycle
    return LaunchResult(launch.kernel, launch.launch, blocks, cores, active, makespan, share, bool(gm_limited),
                        costs.launch_overhead_us, costs.clock_mhz, waves)
