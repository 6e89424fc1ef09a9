"""Batched row reductions: a row kernel that only reduces each row of its input (sum, mean, max, min
over the last dimension) reduces all rows of a UB tile with two vector instructions instead of one
ReduceSum/ReduceMax + scalar round trip per row.

Documented rules it relies on (AscendC reduction APIs, dav-2201; kgen_sim/reduce_repeat.h):
  * BlockReduceSum/Max/Min: one result per 32-byte block (8 floats), 8 per 256-byte repeat, written to
    dst[r * dstRepStride * 8 + block]; at most 255 repeats per call.
  * WholeReduceSum/Max/Min: one result per repeat over the lanes the mask enables (at most 64 floats),
    written to dst[r * dstRepStride]; the source repeat r starts srcRepStride 32-byte blocks after
    repeat r - 1. WholeReduceMax/Min with ReduceOrder::ORDER_ONLY_VALUE store the value only.
  * DataCopyPad with isPad and rightPadding fills a row up to its 32-byte boundary with the padding
    value (0 for a sum, -inf for a max, +inf for a min), so the partial last block of a row reduces to
    the right value; whole blocks past the row are masked off in the WholeReduce.
So with rows at a pitch ``colsPad`` that is a multiple of 64 floats (the host pads it so), BlockReduce
over the tile gives each row's block results at a 32-byte aligned offset, and one WholeReduce with the
mask = the row's blocks (cols <= 512) and srcRepStride = colsPad / 64 gives one result per row. Longer
rows keep the per-row loop (runtime branch).
"""
from __future__ import annotations

import re

from agent_graph.drafter import sync
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.templates import KernelParams

_RED = re.compile(r"^(ReduceSum|ReduceMax|ReduceMin)<float>\(SC0, XI0\[o\], WK, cols_\);$")
_GET = re.compile(r"^float (r\d+) = SC0\.GetValue\(0\);$")
PAD = {"Sum": "0", "Max": "-INFINITY", "Min": "INFINITY"}
CHUNK = 248      # rows or repeats per instruction: <= 255 and a multiple of 8 (32-byte aligned float offsets)


def batched_kind(kp: KernelParams) -> tuple[str, bool] | None:
    """("Sum" | "Max" | "Min", mean) when every variant of this row program is one reduction of its only
    input per row, stored as its only output; None otherwise."""
    if (kp.template != "row" or len(kp.inputs) != 1 or kp.inputs[0].kind != InputKind.FULL or len(kp.outputs) != 1
            or kp.outputs[0].kind != OutputKind.RS or kp.accs or kp.nslots or kp.nmasks):
        return None
    found = set()
    for v in kp.variants:
        body = [ln.strip() for ln in v.body]
        if len(body) not in (3, 4) or body[1] != sync.VECTOR_TO_SCALAR:
            return None
        m, g = _RED.match(body[0]), _GET.match(body[2])
        if not m or not g or v.out_exprs != [g.group(1)]:
            return None
        r = g.group(1)
        mean = len(body) == 4
        if mean and body[3] != f"{r} = {r} / static_cast<float>(cols_);":
            return None
        found.add((m.group(1)[len("Reduce"):], mean))
    return found.pop() if len(found) == 1 else None


def pad_value(kp: KernelParams) -> str | None:
    """The padding value of the input rows (a C++ float expression), None for other programs."""
    k = batched_kind(kp)
    return PAD[k[0]] if k else None


def compute(kp: KernelParams) -> list[str]:
    """Statements of Compute for a tile of ``n`` rows (float data in XI0 at pitch colsPad_, results to RO0)."""
    kind, mean = batched_kind(kp)
    whole = f"WholeReduce{kind}<float>(RO0[q], WK[q * (colsPad_ / 8)], blk, k, 1, 1, colsPad_ / 64"
    whole += ");" if kind == "Sum" else ", ReduceOrder::ORDER_ONLY_VALUE);"
    L = ["uint32_t blk = (cols_ + 7) / 8;                  // 32-byte float blocks of a row",
         "uint32_t reps = n * (colsPad_ / 64);             // 256-byte repeats of the tile",
         f"for (uint32_t q = 0; q < reps; q += {CHUNK}) {{",
         f"    int32_t k = static_cast<int32_t>(reps - q < {CHUNK} ? reps - q : {CHUNK});",
         f"    BlockReduce{kind}<float>(WK[q * 8], XI0[q * 64], k, 64, 1, 1, 8);",
         "}",
         f"for (uint32_t q = 0; q < n; q += {CHUNK}) {{",
         f"    int32_t k = static_cast<int32_t>(n - q < {CHUNK} ? n - q : {CHUNK});",
         "    " + whole,
         "}"]
    if mean:
        L.append("Muls(RO0, RO0, 1.0f / static_cast<float>(cols_), n);")
    return L
