"""One eager operator as the well-written library kernel it would be on the NPU, modelled.

``library_launch`` writes the instruction trace such a kernel would produce and ``op_time_us``
runs it through the same event-driven model (``model.simulate``) and cost table as a drafted
kernel, so both sides pay the same launch overhead, block start-up, scalar issue, DMA and vector
costs. The kernel (its rules are in docs/performance-model.md, "Eager baseline"):

  * the operator's largest tensor (``work`` elements) is split evenly over the vector cores in
    whole 32-byte blocks of its narrowest tensor, at most one block per ``align`` elements;
  * each core streams its share in tiles as large as the Unified Buffer allows with every queue
    double-buffered (inputs and outputs at their own element size, two float32 scratch tiles when
    it computes in float32), ``TQue<VECIN>``/``TQue<VECOUT>`` with two buffers each, so copy-in of
    tile i+1, compute of tile i and copy-out of tile i-1 overlap (max of the pipes + fill/drain);
  * a tensor smaller than the largest (a broadcast weight, a per-row statistic, a reduced output)
    moves its proportional share with each tile -- never more bytes than it has;
  * at its start one ``InitBuffer`` per queue (the emulator traces the queue ones);
  * per tile: one contiguous DataCopy per input, the Cast of each widened 16-bit input, the
    recipe's vector instructions over the tile (``eager_ops.Recipe``; a high-level math API such as
    Erf or Tanh as the passes the emulator traces for it, ``eager_ops.PASSES``), the Cast of each widened
    output, one DataCopy per output.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from bench_bridge.perf.costs import CostTable
from bench_bridge.perf.eager_ops import PASSES, Recipe
from bench_bridge.perf.events import BlockTrace, Event, Launch
from bench_bridge.perf.model import simulate

VECIN = 9 * 32 + 9       # TQue<TPosition::VECIN>: filled by MTE2, read by V (events.py positions)
VECOUT = 10 * 32 + 10    # TQue<TPosition::VECOUT>: filled by V, read by MTE3
BUFFERS = 2              # double buffering
UB_RESERVE = 8192        # bytes of UB a library kernel keeps for scalars, masks and reduction scratch (assumption)


@dataclass(frozen=True)
class Stream:
    numel: int      # elements of the tensor
    size: int       # bytes per element


def _tile_elems(work: int, per_core: int, ins: list[Stream], outs: list[Stream], r: Recipe, costs: CostTable,
                align: int) -> int:
    """Largest tile (elements of the largest tensor, a multiple of ``align``) whose double-buffered
    queues and float32 scratch fit in the Unified Buffer."""
    per_elem = sum(BUFFERS * s.size * s.numel / work for s in ins + outs)
    if r.widen or r.compute_bytes == 4:
        per_elem += 2 * 4            # two float32 scratch tiles (widened operands / intermediates)
    budget = max(costs.ub_bytes - UB_RESERVE, 1024)
    tile = int(budget / max(per_elem, 1e-9)) // align * align
    return max(align, min(tile, math.ceil(per_core / align) * align))


_REDUCE = {"ReduceSum": "Sum", "ReduceMax": "Max", "ReduceMin": "Min"}


def _reduce_events(api: str, n: int, r: Recipe, row: int) -> list[Event]:
    """A recipe's reduction over a tile of ``n`` elements. Over the whole tile (``row`` 0) or rows of at
    most one 256-byte repeat: one instruction (WholeReduce gives one result per repeat, a repeat per row).
    Longer rows need per-row results, which one ReduceSum (one result per call) cannot give for several
    rows: BlockReduce (one result per 32-byte block, over every repeat of the tile) until a row's
    partials fit one repeat, then one WholeReduce -- the fewest documented instructions that do it."""
    cb = r.compute_bytes
    vb = n * cb
    if not row or row * cb <= 256:
        return [Event(api, "V", vb, math.ceil(vb / 256), 0, 0, cb)]
    ev = []
    per_row = row * cb
    while per_row > 256:
        ev.append(Event("BlockReduce" + _REDUCE[api], "V", vb, math.ceil(vb / 256), 0, 0, cb))
        vb, per_row = math.ceil(vb / 32) * cb, math.ceil(per_row / 32) * cb    # one value per 32-byte block
    return ev + [Event("WholeReduce" + _REDUCE[api], "V", vb, max(1, math.ceil(vb / per_row)), 0, 0, cb)]


def _tile_events(n: int, work: int, ins: list[Stream], outs: list[Stream], r: Recipe, slot: int,
                 row: int = 0) -> list[Event]:
    ev: list[Event] = []
    nin = len(ins)
    for q, s in enumerate(ins, start=1):
        b = max(s.size, round(n * s.numel / work) * s.size)
        buf = q * 64 + slot
        ev += [Event("AllocTensor", "S", 0, 0, 0, q, 0, buf, VECIN), Event("DataCopy", "MTE2", b, 1, 0, 0, s.size),
               Event("EnQue", "S", 0, 0, 4, q, 0, buf, VECIN)]
    for q, s in enumerate(ins, start=1):
        ev.append(Event("DeQue", "S", 0, 0, 5, q, 0, q * 64 + slot, VECIN))
        if r.widen and s.size == 2:
            cb = max(4, round(n * s.numel / work) * 4)
            ev.append(Event("Cast", "V", cb, math.ceil(cb / 256), 0, 0, 4))
    for api in r.apis:
        if api in _REDUCE:
            ev += _reduce_events(api, n, r, row)
            continue
        if api.endswith("@out"):      # an instruction over the tile's share of the output (a mean's 1/N scale)
            ob = max(r.compute_bytes, round(n * outs[0].numel / work) * r.compute_bytes) if outs else r.compute_bytes
            ev.append(Event(api[:-4], "V", ob, math.ceil(ob / 256), 0, 0, r.compute_bytes))
            continue
        passes = PASSES.get(api, 1)
        vb = n * r.compute_bytes
        ev.append(Event(api, "V", vb * passes, math.ceil(vb / 256) * passes, 0, 0, r.compute_bytes))
    for k, s in enumerate(outs):
        q = nin + 1 + k
        buf = q * 64 + slot
        ev.append(Event("AllocTensor", "S", 0, 0, 0, q, 0, buf, VECOUT))
        if r.widen and s.size == 2:
            cb = max(4, round(n * s.numel / work) * 4)
            ev.append(Event("Cast", "V", cb, math.ceil(cb / 256), 0, 0, 4))
        ev.append(Event("EnQue", "S", 0, 0, 4, q, 0, buf, VECOUT))
    for q in range(1, nin + 1):
        ev.append(Event("FreeTensor", "S", 0, 0, 0, q, 0, q * 64 + slot, VECIN))
    for k, s in enumerate(outs):
        q = nin + 1 + k
        buf = q * 64 + slot
        b = max(s.size, round(n * s.numel / work) * s.size)
        ev += [Event("DeQue", "S", 0, 0, 5, q, 0, buf, VECOUT), Event("DataCopy", "MTE3", b, 1, 0, 0, s.size),
               Event("FreeTensor", "S", 0, 0, 0, q, 0, buf, VECOUT)]
    return ev


def library_launch(ins: list[Stream], outs: list[Stream], r: Recipe, costs: CostTable, name: str = "eager",
                   row: int = 0) -> Launch:
    """The trace of the library kernel of one operator (see the module docstring)."""
    tensors = [s for s in ins + outs if s.numel > 0]
    work = max([s.numel for s in tensors] + [1])
    narrow = min([s.size for s in tensors] + [4])
    align = max(1, 32 // narrow)                      # elements of one 32-byte block
    blocks_total = math.ceil(work / align)
    cores = max(1, min(int(costs.vector_cores), blocks_total))
    per_core = math.ceil(blocks_total / cores) * align
    cores = math.ceil(work / per_core)
    ins = [s for s in ins if s.numel > 0]
    outs = [s for s in outs if s.numel > 0] or [Stream(1, narrow)]
    tile = _tile_elems(work, per_core, ins, outs, r, costs, align)
    launch = Launch(1, name)
    memo: dict[int, tuple[list[Event], str]] = {}
    for b in range(cores):
        count = min(per_core, work - b * per_core)
        if count not in memo:
            ev: list[Event] = [Event("InitBuffer", "S") for _ in ins + outs]
            for t, off in enumerate(range(0, count, tile)):
                ev += _tile_events(min(tile, count - off), work, ins, outs, r, t % BUFFERS, row)
            memo[count] = (ev, f"{name}:{count}")
        ev, key = memo[count]
        launch.blocks.append(BlockTrace(1, name, b, ev, cores, 0, key))
    return launch


def op_time_us(ins: list[Stream], outs: list[Stream], r: Recipe, costs: CostTable, row: int = 0) -> float:
    """Modelled time of one eager operator: its library kernel through ``model.simulate`` (``row``: the
    length of the dimension a row-wise operator reduces or normalises, 0 for others)."""
    return simulate(library_launch(ins, outs, r, costs, row=row), costs).time_us
