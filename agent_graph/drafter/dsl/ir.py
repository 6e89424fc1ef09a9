"""The tile DSL's vocabularies and program objects: dtypes, schedules, positions and op names (Enums), GM
tensors, UB buffers, scalar expressions and the statement kinds. ``lang.Kernel`` builds programs of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Union


class DslError(ValueError):
    """An invalid program: one sentence naming the construct (the text form adds ``line N:``)."""


class Dtype(str, Enum):
    F32 = "float32"
    F16 = "float16"
    BF16 = "bfloat16"

    @property
    def size(self) -> int:
        return 4 if self is Dtype.F32 else 2

    @property
    def cpp(self) -> str:
        return {"float32": "float", "float16": "half", "bfloat16": "bfloat16_t"}[self.value]

    @property
    def ge(self) -> str:
        return {"float32": "ge::DT_FLOAT", "float16": "ge::DT_FLOAT16", "bfloat16": "ge::DT_BF16"}[self.value]


class Schedule(str, Enum):
    """How the tensors are cut into tiles. FLAT: all elements as one run split over the cores, tiles of
    ``tileLen`` elements (the last one shorter). ROWS: the main input as [rows, last dim], whole rows per
    core, one row per tile. MATMUL: one cube matmul block, C[M, N] = A[M, K] @ B[K, N], C split over the
    cores in singleCoreM x singleCoreN blocks."""
    FLAT = "flat"
    ROWS = "rows"
    MATMUL = "matmul"


class Position(str, Enum):
    """Where a buffer lives (AscendC TPosition)."""
    GM = "GM"
    VECIN = "VECIN"
    VECOUT = "VECOUT"
    VECCALC = "VECCALC"


class Extent(str, Enum):
    """How many elements a GM output holds per tile: the tile's own (LIKE), or one per row (ROW)."""
    LIKE = "like"
    ROW = "row"


class BinaryOp(str, Enum):
    ADD = "Add"
    SUB = "Sub"
    MUL = "Mul"
    DIV = "Div"
    MAX = "Max"
    MIN = "Min"


class UnaryOp(str, Enum):
    EXP = "Exp"
    LN = "Ln"
    ABS = "Abs"
    SQRT = "Sqrt"
    RSQRT = "Rsqrt"
    RECIPROCAL = "Reciprocal"
    RELU = "Relu"


class ScalarOp(str, Enum):
    ADDS = "Adds"
    MULS = "Muls"
    MAXS = "Maxs"
    MINS = "Mins"


class ReduceOp(str, Enum):
    SUM = "ReduceSum"
    MAX = "ReduceMax"
    MIN = "ReduceMin"


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,30}$")
_RESERVED = {"tiling", "workspace", "count", "offset", "row", "pipe", "event", "half", "float", "int", "auto",
             "this", "new", "delete", "class", "return", "if", "for", "while", "case", "default", "const"}


def _check_name(name: str, kind: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name) or name.endswith("_"):
        raise DslError(f"{kind} name {name!r} is not a plain identifier (a letter, then letters, digits, '_')")
    if name in _RESERVED or name in ("rowLen", "reduceOut", "reduceWork", "first", "firstRow", "op", "tilingData"):
        raise DslError(f"{kind} name {name!r} is taken by the lowering or by C++; choose another")
    return name


# -- operands ----------------------------------------------------------------------------------------
@dataclass(eq=False)
class Tensor:
    """A GM input or output: one dtype per dtype combination the op is built for (OpDef's DataType list)."""
    name: str
    dtypes: tuple[Dtype, ...]
    output: bool = False
    extent: Extent = Extent.LIKE

    @property
    def position(self) -> Position:
        return Position.GM

    @property
    def alias(self) -> str:
        """The element type name in the kernel: ``T`` + the name (``using TX = DTYPE_X``)."""
        return "T" + self.name[:1].upper() + self.name[1:]


ElemType = tuple[Dtype, ...]     # one dtype per combination (a tensor's dtypes, or a fixed dtype repeated)


@dataclass(eq=False)
class Buffer:
    """A UB buffer of one tile: a tensor's queue (VECIN/VECOUT, double-buffered) or a VECCALC scratch."""
    name: str
    position: Position
    etype: ElemType
    cpp: str                          # the C++ element type
    tensor: Tensor | None = None      # the GM tensor a queue copies from / to
    elems: str = "tile"               # "tile": one tile; "one": one element (a per-row output)
    depth: int = 1                    # queue slots (2: double buffering)

    @property
    def worst_size(self) -> int:
        return max(d.size for d in self.etype)

    @property
    def queue(self) -> bool:
        return self.position in (Position.VECIN, Position.VECOUT)


# -- scalar expressions (the scalar unit: reduction results, constants, the row length) ---------------
@dataclass(frozen=True, eq=False)
class Scalar:
    """A float on the scalar unit: the result of a row reduction (``m = k.reduce_max(x)``)."""
    name: str

    def _wrap(self):
        return Expr("ref", (self,))

    def __neg__(self): return -self._wrap()
    def __add__(self, o): return self._wrap() + o
    def __radd__(self, o): return _lift(o) + self._wrap()
    def __sub__(self, o): return self._wrap() - o
    def __rsub__(self, o): return _lift(o) - self._wrap()
    def __mul__(self, o): return self._wrap() * o
    def __rmul__(self, o): return _lift(o) * self._wrap()
    def __truediv__(self, o): return self._wrap() / o
    def __rtruediv__(self, o): return _lift(o) / self._wrap()


@dataclass(frozen=True, eq=False)
class Expr:
    """kind: "const" (args = (float,)), "ref" (a Scalar), "rowlen" (the row length as a float),
    "neg", "+", "-", "*", "/" (args: sub-expressions)."""
    kind: str
    args: tuple = ()

    def __neg__(self): return Expr("neg", (self,))
    def __add__(self, o): return Expr("+", (self, _lift(o)))
    def __radd__(self, o): return Expr("+", (_lift(o), self))
    def __sub__(self, o): return Expr("-", (self, _lift(o)))
    def __rsub__(self, o): return Expr("-", (_lift(o), self))
    def __mul__(self, o): return Expr("*", (self, _lift(o)))
    def __rmul__(self, o): return Expr("*", (_lift(o), self))
    def __truediv__(self, o): return Expr("/", (self, _lift(o)))
    def __rtruediv__(self, o): return Expr("/", (_lift(o), self))

    def scalars(self) -> list[Scalar]:
        if self.kind == "ref":
            return [self.args[0]]
        return [s for a in self.args if isinstance(a, Expr) for s in a.scalars()]

    def uses_rowlen(self) -> bool:
        return self.kind == "rowlen" or any(isinstance(a, Expr) and a.uses_rowlen() for a in self.args)


ScalarLike = Union[float, int, Scalar, Expr]


def _lift(v) -> Expr:
    if isinstance(v, Expr):
        return v
    if isinstance(v, Scalar):
        return Expr("ref", (v,))
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DslError(f"a scalar operand must be a number, a reduction result or k.row_len, not {_what(v)}")
    return Expr("const", (float(v),))


def _what(v) -> str:
    if isinstance(v, Buffer):
        return f"the buffer {v.name}"
    if isinstance(v, Tensor):
        return f"the GM tensor {v.name}"
    return type(v).__name__


# -- statements --------------------------------------------------------------------------------------
@dataclass(eq=False)
class Binary:
    op: BinaryOp
    dst: Buffer
    a: Buffer
    b: Buffer


@dataclass(eq=False)
class Unary:
    op: UnaryOp
    dst: Buffer
    src: Buffer


@dataclass(eq=False)
class WithScalar:
    op: ScalarOp
    dst: Buffer
    src: Buffer
    value: Expr


@dataclass(eq=False)
class Fill:
    dst: Buffer
    value: Expr


@dataclass(eq=False)
class Convert:
    dst: Buffer
    src: Buffer


@dataclass(eq=False)
class Reduce:
    """A row reduction over the tile: into a Scalar (``out``) or element 0 of a per-row output tile (``into``)."""
    op: ReduceOp
    src: Buffer
    out: Scalar | None = None
    into: Buffer | None = None


@dataclass(eq=False)
class MatmulBlock:
    """C = A @ B on the cube unit (A, B in L1 -> L0A / L0B, C accumulated in L0C as float), GM to GM; the
    base block ``base_m`` x ``base_n`` is C's piece one L0C tile holds."""
    c: Tensor
    a: Tensor
    b: Tensor
    transpose_b: bool = False
    base_m: int = 128
    base_n: int = 128


Statement = Union[Binary, Unary, WithScalar, Fill, Convert, Reduce, MatmulBlock]
