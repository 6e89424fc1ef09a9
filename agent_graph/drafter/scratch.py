"""The drafted kernel's own UB, beside its operands (operands.py): float slots, comparison masks, the
reduce work buffer, the scalar block, rounding buffers per half type, the whole-tensor accumulators'
partials and the split-row path's chunk buffers; each an InitBuffer call with the UB bytes it takes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent_graph.drafter.operands import MAX_CORES, Buffer, Layout, UbBytes, total

if TYPE_CHECKING:
    from agent_graph.drafter.templates import KernelParams

CT = {"float16": "half", "bfloat16": "bfloat16_t"}

# UB the budget keeps free beyond every named buffer: InitBuffer's 32-byte rounding of each buffer, the
# masks' 32-byte tails, the work buffer's tileElems/16 floats on the flat path, the split path's partials
FIXED_RESERVE = UbBytes(fixed=4096)


@dataclass(frozen=True)
class Scratch:
    """The kernel-wide UB: float slots, comparison masks, the reduce work buffer, the scalar block, the
    rounding buffers per half type, the accumulators' partials and (split-row path) chunk accumulators."""

    kp: "KernelParams"
    lay: Layout

    def slots(self) -> list[Buffer]:
        return [Buffer(f"sb{k}_", "tileElems * sizeof(float)", UbBytes(per_elem=4)) for k in range(self.kp.nslots)]

    def mask_views(self) -> list[str]:
        """The comparison masks as the compute code names them (``M<k>``)."""
        return [f"LocalTensor<uint8_t> M{k} = mk{k}_.Get<uint8_t>();" for k in range(self.kp.nmasks)]

    def masks(self) -> list[Buffer]:
        return [Buffer(f"mk{k}_", "tileElems / 8 + 32", UbBytes(per_elem=1)) for k in range(self.kp.nmasks)]

    def work(self) -> Buffer:
        """``wk_``: reduce work space, a padded row plus 64 floats (or the block results of a tile)."""
        if self.lay.row and self.lay.batched:   # block results of a whole tile (the split path has its own wk_)
            size = "((colsPad + 64) > tileElems / 8 + 64 ? (colsPad + 64) : tileElems / 8 + 64) * sizeof(float)"
        elif self.lay.row:
            size = "((colsPad + 64) > tileElems / 16 + 64 ? (colsPad + 64) : tileElems / 16 + 64) * sizeof(float)"
        else:
            size = "(tileElems / 16 + 64) * sizeof(float)"
        return Buffer("wk_", size, UbBytes(per_elem=1 if self.lay.batched else 0, per_col=4, fixed=64 * 4))

    def chunk_work(self) -> list[Buffer]:
        """Split-row path: ``wk_`` sized by the chunk, and one float accumulator vector per reduction of a pass."""
        return ([Buffer("wk_", "(chunkLen + 64) * sizeof(float)", UbBytes(per_elem=4, fixed=64 * 4))]
                + [Buffer(f"ac{k}_", "chunkLen * sizeof(float)", UbBytes(per_elem=4))
                   for k in range(self.kp.extra.get("split_accs", 1))])

    def scalars(self) -> Buffer:
        return Buffer("sc_", "64 * sizeof(float)", UbBytes(fixed=64 * 4))

    def rounding(self) -> list[Buffer]:
        out = []
        for dt in self.kp.round_types:
            out += [Buffer(f"rh_{CT[dt]}_", "tileElems * 2", UbBytes(per_elem=2)),
                    Buffer(f"rs_{CT[dt]}_", "32", UbBytes(fixed=64))]       # with its 32-byte rounding
        return out

    def partials(self) -> list[Buffer]:
        """Whole-tensor accumulators: every core's partial results, gathered by block 0."""
        return [Buffer("pb_", f"{MAX_CORES * 32}", UbBytes(fixed=MAX_CORES * 32))] if self.kp.accs else []

    def split_partials(self) -> Buffer:
        """Split-row path: the partial results of a row shared by several cores (in FIXED_RESERVE)."""
        return Buffer("pr_", f"{MAX_CORES * 32}", UbBytes())

    def ub(self) -> UbBytes:
        return total(b.ub for b in (*self.slots(), *self.masks(), self.work(), self.scalars(), *self.rounding(),
                                    *self.partials())) + FIXED_RESERVE

    def chunk_ub(self) -> UbBytes:
        """Per chunk element on the split-row path (the fixed part is the row path's plus the chunk work tail); a
        comparison's mask holds one chunk's bits."""
        return total(b.ub for b in (*self.slots(), *self.masks(), *self.rounding(), *self.chunk_work()))
