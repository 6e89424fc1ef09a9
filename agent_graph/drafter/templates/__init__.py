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


@dataclass(frozen=True)
class DerivedNumber:
    """A number computed from the op's float attributes alone, ``scale * prod(attr[j] ** power) + offset``
    (``1 - beta1``, ``1 - lr * weight_decay``): the host computes it in double from each attribute as written and
    hands the kernel the float nearest it, as PyTorch rounds a Python number once where a tensor op takes it."""

    scale: float
    powers: tuple[tuple[int, int], ...]    # (attribute index, +1 | -1)
    offset: float = 0.0

    def host_expr(self) -> str:
        """The C++ double expression over the tiling's attribute fields (``AsWritten``: host helper)."""
        terms = [f"AsWritten(tiling.get_attr{j}())" for j, _ in self.powers]
        expr = "" if self.scale in (1.0, -1.0) and self.powers[0][1] > 0 else repr(float(self.scale))
        for (j, power), term in zip(self.powers, terms):
            expr += (" * " if expr else "") + term if power > 0 else f" / {term}"
        if self.scale == -1.0 and self.powers[0][1] > 0:
            expr = "-" + expr
        return f"{expr} + {float(self.offset)!r}" if self.offset else expr

    def describe(self, names: list[str]) -> str:
        """The number as the reference writes it: ``1 - lr * weight_decay``."""
        num = [names[j] for j, p in self.powers if p > 0]
        den = [names[j] for j, p in self.powers if p < 0]
        text = " * ".join(([f"{abs(self.scale):g}"] if abs(self.scale) != 1.0 or not num else []) + num)
        text += "".join(f" / {n}" for n in den)
        if self.offset:
            return f"{self.offset:g} {'-' if self.scale < 0 else '+'} {text}"
        return ("-" if self.scale < 0 else "") + text


@dataclass(frozen=True)
class HostNumber:
    """A Python number the reference computes from a one-element input it reads with ``.item()`` and from the float
    attributes (``lr / (1 - beta1 ** (step.item() + 1))``): the host computes it in double (hostnum.py), the input
    declared ``ValueDepend``, and hands the kernel the float nearest it."""

    expr: str                       # C++ double expression over the tiling's attributes and ``InputNumber``
    text: str                       # the expression as the reference writes it
    inputs: tuple[int, ...] = ()    # the inputs the host reads (ValueDepend)

    def host_expr(self) -> str:
        return self.expr

    def describe(self, names: list[str]) -> str:
        return self.text


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
    derived: list[DerivedNumber | HostNumber] = field(default_factory=list)   # tiling attr{len(attrs) + k}: computed by the host

    @property
    def nattrs(self) -> int:
        """The kernel's float numbers from the tiling: the attributes, then the numbers derived from them."""
        return len(self.attrs) + len(self.derived)


@dataclass
class Variant:
    """Compute code of one dtype combination (PyTorch rounds differently per dtype)."""

    cond: str                                     # preprocessor condition on ORIG_DTYPE_* ("" = always)
    body: list[str] = field(default_factory=list)       # per row (row) or per tile (flat) statements
    final: list[str] = field(default_factory=list)      # whole-tensor epilogue (block 0)
    out_exprs: list[str] = field(default_factory=list)  # per output: tile tensor (vec) or value expression
    native: bool = False                                # computed in half as loaded (flat, all float16, exact ops)
