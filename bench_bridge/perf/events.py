"""Typed view of the emulator's instruction trace.

The emulator appends one JSON line per block to ``$KGEN_TRACE_FILE`` when the block's kernel
returns (``kgen_sim/launch.h``)::

    {"launch": 1, "kernel": "add_custom", "block": 3, "ub_bytes": 12288,
     "events": [[api, pipe, bytes, repeats, sync, arg, elem, buf, qpos], ...], "block_num": 8}

Event fields: ``api`` the AscendC call; ``pipe`` S V M MTE1 MTE2 MTE3 FIX or ALL; ``bytes`` moved
or touched; ``repeats`` 256-byte vector repeats, or bursts of a data copy; ``sync`` 0 none,
1 SetFlag, 2 WaitFlag, 3 PipeBarrier, 4 EnQue, 5 DeQue, 6 SyncAll; ``arg`` the event id
(HardEvent * 64 + id) or queue id; ``elem`` element bytes (0 unknown); ``buf`` queue buffer
(queue id * 64 + slot, -1 none); ``qpos`` the queue's src * 32 + dst TPosition (-1 unknown).
Traces written before the last three fields existed load with their defaults. A tenth field ``loc``
(an index into the block's ``"locs"`` list of ``"file:line"`` call sites) names the user's source line
of the instruction; traces without it are split by API in the hot-lines table (``lines.py``). A cube
core's line (the AIC of a MIX or cube launch) carries ``"aic": 1``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, NamedTuple

PIPES = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX")
SYNC_NONE, SYNC_SET, SYNC_WAIT, SYNC_BARRIER, SYNC_ENQUE, SYNC_DEQUE, SYNC_ALL = range(7)

# AscendC HardEvent values in the emulator's declaration order (kgen_sim/pipe.h): producer_consumer.
HARD_EVENTS = (
    "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V",
    "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3",
    "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3", "MTE1_FIX",
    "FIX_MTE1", "FIX_FIX",
)

# TPosition values (kgen_sim/tensor.h) -> the pipe that fills a buffer there / the pipe that reads it.
_POSITIONS = ("GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC")
_PRODUCER = {"GM": "MTE3", "A1": "MTE2", "B1": "MTE2", "C1": "MTE2", "A2": "MTE1", "B2": "MTE1", "C2": "MTE1",
             "CO1": "M", "CO2": "FIX", "VECIN": "MTE2", "VECOUT": "V", "VECCALC": "V"}
_CONSUMER = {"GM": "MTE2", "A1": "MTE1", "B1": "MTE1", "C1": "MTE1", "A2": "M", "B2": "M", "C2": "M",
             "CO1": "FIX", "CO2": "MTE3", "VECIN": "V", "VECOUT": "MTE3", "VECCALC": "V"}


def hard_event_pipes(code: int) -> tuple[str, str] | None:
    """(producer pipe, consumer pipe) of a SetFlag/WaitFlag ``arg`` (HardEvent * 64 + event id)."""
    ev = code // 64
    if 0 <= ev < len(HARD_EVENTS):
        a, b = HARD_EVENTS[ev].split("_")
        return a, b
    return None


def queue_pipes(qpos: int) -> tuple[str, str] | None:
    """(producer pipe of the source position, consumer pipe of the destination position) of a queue."""
    if qpos < 0:
        return None
    src, dst = divmod(qpos, 32)
    if src >= len(_POSITIONS) or dst >= len(_POSITIONS):
        return None
    return _PRODUCER[_POSITIONS[src]], _CONSUMER[_POSITIONS[dst]]


class Event(NamedTuple):
    api: str
    pipe: str
    bytes: int = 0
    repeats: int = 0
    sync: int = 0
    arg: int = 0
    elem: int = 0
    buf: int = -1
    qpos: int = -1
    loc: int = -1      # the call site: an index into the block's ``locs`` ("file:line"), -1 unknown


@dataclass
class BlockTrace:
    launch: int
    kernel: str
    block: int
    events: list[Event]
    block_num: int = 0
    ub_bytes: int = 0
    key: str = ""          # identical keys mean identical event lists (used to reuse model results)
    locs: list[str] = field(default_factory=list)   # the call sites ("file:line") events' ``loc`` name
    aic: bool = False      # a cube core's (AIC) trace: it runs on the SoC's cube cores, not its vector cores


@dataclass
class Launch:
    launch: int
    kernel: str
    blocks: list[BlockTrace] = field(default_factory=list)

    @property
    def block_num(self) -> int:
        return max([b.block_num for b in self.blocks] + [len(self.blocks)])


def parse_line(line: str) -> BlockTrace:
    d = json.loads(line)
    evs = [Event(*e[:10]) for e in d.get("events", [])]
    locs = [str(x) for x in d.get("locs", [])]
    key = json.dumps([d.get("events", []), locs], separators=(",", ":"))
    return BlockTrace(int(d.get("launch", 1)), str(d.get("kernel", "kernel")), int(d.get("block", 0)), evs,
                      int(d.get("block_num", 0)), int(d.get("ub_bytes", 0)), key, locs, bool(d.get("aic", 0)))


def group(blocks: Iterable[BlockTrace]) -> list[Launch]:
    launches: dict[int, Launch] = {}
    for b in blocks:
        launches.setdefault(b.launch, Launch(b.launch, b.kernel)).blocks.append(b)
    out = [launches[k] for k in sorted(launches)]
    for ln in out:
        ln.blocks.sort(key=lambda b: b.block)
    return out


def load_trace(path: str | Path) -> list[Launch]:
    """Read a trace file into launches, each with its blocks in block order."""
    blocks = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                blocks.append(parse_line(line))
    return group(blocks)


def synthetic(events: list[tuple], blocks: int = 1, kernel: str = "synthetic", locs: list[str] | None = None) -> Launch:
    """A launch whose ``blocks`` blocks all run ``events`` (tuples in Event field order): for tests."""
    evs = [Event(*e) for e in events]
    key = repr((evs, locs))
    return Launch(1, kernel, [BlockTrace(1, kernel, b, list(evs), blocks, 0, key, list(locs or [])) for b in range(blocks)])
