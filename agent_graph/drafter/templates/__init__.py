"""Kernel/host/tiling templates of the offline drafter (data files, ``string.Template`` syntax) and the
typed parameter model that fills them.

Templates:
    flat  elementwise chains over the tensor as one run of elements (multi-core split in 32-byte
          blocks, tail on the last core, double-buffered tiles, DataCopyPad for any length; fp16 computed
          natively when every op is exact in half, else in float)
    row   whole rows per core and several rows per UB tile: last-dimension broadcast, row reductions,
          row normalisations, losses, cumulative sums (one float per row or one for the tensor)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from string import Template

from agent_graph.drafter.operands import InputKind, OutputKind

TEMPLATE_DIR = Path(__file__).resolve().parent
TEMPLATES = ("flat", "row", "col")


def load(name: str) -> Template:
    return Template((TEMPLATE_DIR / name).read_text())


@dataclass
class TensorParam:
    name: str                 # OpDef name (also the kernel argument name)
    kind: InputKind | OutputKind   # operands.py (a dict form's string is read as its kind)
    dtypes: list[str]         # one torch dtype name per dtype combination

    def __post_init__(self) -> None:
        if not isinstance(self.kind, (InputKind, OutputKind)):
            self.kind = InputKind(self.kind) if self.kind in tuple(InputKind) else OutputKind(self.kind)


@dataclass
class KernelParams:
    """Everything a template needs: the op's interface and the generated compute program."""

    op_type: str                                  # CamelCase operator type
    template: str                                 # flat | row | col (TEMPLATES)
    inputs: list[TensorParam]
    outputs: list[TensorParam]
    attrs: list[str] = field(default_factory=list)      # float attrs, in forward order
    attr_defaults: list[float] = field(default_factory=list)
    summary: str = ""
    nslots: int = 0                               # float UB slots of one tile row/tile
    nmasks: int = 0                               # uint8 bit-mask buffers of one tile (comparisons)
    variants: list["Variant"] = field(default_factory=list)  # compute code per dtype combination
    accs: list[tuple[str, str]] = field(default_factory=list)
    round_types: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)          # template-specific settings (col: dim, combine, mean)


@dataclass
class Variant:
    """Compute code of one dtype combination (PyTorch rounds differently per dtype)."""

    cond: str                                     # preprocessor condition on ORIG_DTYPE_* ("" = always)
    body: list[str] = field(default_factory=list)       # per row (row) or per tile (flat) statements
    final: list[str] = field(default_factory=list)      # whole-tensor epilogue (block 0)
    out_exprs: list[str] = field(default_factory=list)  # per output: tile tensor (vec) or value expression
    native: bool = False                                # computed in half as loaded (flat, all float16, exact ops)
