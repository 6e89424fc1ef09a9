"""The tile DSL's program builder: :class:`Kernel` declares GM tensors and UB buffers and appends statements
(``ir.py`` holds the objects). Every method checks its arguments and raises :class:`DslError` with one
sentence; the text form (``text.py``) calls the same methods. The lowering (``lower_kernel.py``,
``lower_host.py``, ``cube.py``) and the budgets (``budget.py``, ``cube.py``) read the same objects, so what is
budgeted is what is emitted.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from agent_graph.drafter.dsl.ir import (Binary, BinaryOp, Buffer, Convert, DslError, Dtype, Expr, Extent, Fill, MatmulBlock,
                                        Position, Reduce, ReduceOp, Scalar, ScalarOp, Schedule, Statement, Tensor, Unary,
                                        UnaryOp, WithScalar, _check_name, _lift, _what)

_ARITH = (Dtype.F32, Dtype.F16)    # what the vector unit computes in (no bfloat16 arithmetic)


@dataclass(eq=False)
class Kernel:
    """A tile program: ``k = Kernel("rows")``; tensors, buffers and statements through its methods."""
    schedule: Schedule
    tensors: list[Tensor] = field(default_factory=list)
    buffers: list[Buffer] = field(default_factory=list)
    body: list[Statement] = field(default_factory=list)
    scalars: list[Scalar] = field(default_factory=list)

    def __init__(self, schedule: str = "flat"):
        try:
            self.schedule = Schedule(schedule)
        except ValueError:
            raise DslError(f"unknown schedule {schedule!r} (one of {', '.join(s.value for s in Schedule)})") from None
        self.tensors, self.buffers, self.body, self.scalars = [], [], [], []
        self._written: set[int] = set()   # the scratch buffers some statement has written so far

    # -- declarations
    def _names(self) -> set[str]:
        return {t.name for t in self.tensors} | {b.name for b in self.buffers} | {s.name for s in self.scalars}

    def _fresh(self, name: str, kind: str) -> str:
        _check_name(name, kind)
        if name in self._names() or name.lower() in {n.lower() for n in self._names()}:
            raise DslError(f"the name {name!r} is declared twice")
        return name

    def input(self, dtypes, name: str) -> Tensor:
        """A GM input with one dtype per dtype combination: ``x = k.input(["float32", "float16"])``."""
        if self.buffers or self.body:
            raise DslError(f"input {name} must be declared before buffers and statements")
        if any(t.output for t in self.tensors):
            raise DslError(f"input {name} must be declared before the outputs (OpDef order)")
        t = Tensor(self._fresh(name, "input"), self._dtypes(dtypes, name))
        self.tensors.append(t)
        return t

    def output(self, like: Tensor, name: str, per_row: bool = False) -> Tensor:
        """A GM output with ``like``'s dtypes; ``per_row=True``: one element per row (ROWS schedule)."""
        if not isinstance(like, Tensor):
            raise DslError(f"output {name}: like= must be a GM tensor, not {_what(like)}")
        if per_row and self.schedule is not Schedule.ROWS:
            raise DslError(f"output {name}: per_row outputs need the rows schedule")
        if self.buffers or self.body:
            raise DslError(f"output {name} must be declared before buffers and statements")
        t = Tensor(self._fresh(name, "output"), like.dtypes, True, Extent.ROW if per_row else Extent.LIKE)
        self.tensors.append(t)
        return t

    def _dtypes(self, dtypes, name: str) -> tuple[Dtype, ...]:
        if isinstance(dtypes, str):
            dtypes = [dtypes]
        try:
            out = tuple(Dtype(d) for d in dtypes)
        except (ValueError, TypeError):
            raise DslError(f"{name}: dtypes must be a list of {', '.join(d.value for d in Dtype)}") from None
        if not out:
            raise DslError(f"{name}: at least one dtype")
        n = len(self.tensors[0].dtypes) if self.tensors else len(out)
        if len(out) != n:
            raise DslError(f"{name} has {len(out)} dtypes, the first input {n} (one per dtype combination)")
        return out

    @property
    def combos(self) -> int:
        return len(self.tensors[0].dtypes) if self.tensors else 0

    def tile(self, tensor: Tensor, name: str) -> Buffer:
        """The double-buffered queue tile of a GM tensor: copied in (input) or out (output) every tile."""
        if not isinstance(tensor, Tensor):
            raise DslError(f"tile {name}: expected a GM tensor, not {_what(tensor)}")
        if self.body:
            raise DslError(f"tile {name} must be declared before the statements")
        if self.schedule is Schedule.MATMUL:
            raise DslError(f"tile {name}: the matmul schedule moves GM to GM through the cube (no UB tiles)")
        if any(b.tensor is tensor for b in self.buffers):
            raise DslError(f"tensor {tensor.name} already has a tile")
        pos = Position.VECOUT if tensor.output else Position.VECIN
        b = Buffer(self._fresh(name, "tile"), pos, tensor.dtypes, tensor.alias if len(set(tensor.dtypes)) > 1 else tensor.dtypes[0].cpp,
                   tensor, "one" if tensor.extent is Extent.ROW else "tile", 2)
        self.buffers.append(b)
        return b

    def ub(self, dtype, name: str) -> Buffer:
        """A VECCALC scratch buffer of one tile: ``xf = k.ub("float32")`` or ``k.ub(x)`` (x's dtypes)."""
        if self.body:
            raise DslError(f"buffer {name} must be declared before the statements")
        if self.schedule is Schedule.MATMUL:
            raise DslError(f"buffer {name}: the matmul schedule has no UB buffers")
        if isinstance(dtype, Tensor):
            et, cpp = dtype.dtypes, dtype.alias if len(set(dtype.dtypes)) > 1 else dtype.dtypes[0].cpp
        else:
            try:
                d = Dtype(dtype)
            except ValueError:
                raise DslError(f"ub {name}: dtype {dtype!r} is not one of {', '.join(x.value for x in Dtype)}") from None
            et, cpp = (d,) * max(self.combos, 1), d.cpp
        b = Buffer(self._fresh(name, "buffer"), Position.VECCALC, et, cpp)
        self.buffers.append(b)
        return b

    @property
    def row_len(self) -> Expr:
        """The row length (the last dimension) as a float, for a mean: ``s / k.row_len``."""
        if self.schedule is not Schedule.ROWS:
            raise DslError("k.row_len needs the rows schedule")
        return Expr("rowlen")

    # -- statements
    def _emit(self, s: Statement) -> None:
        self.body.append(s)
        dst = getattr(s, "into", None) or getattr(s, "dst", None)
        if isinstance(dst, Buffer):
            self._written.add(id(dst))

    def _buf(self, b, what: str, write: bool = False) -> Buffer:
        if not isinstance(b, Buffer):
            raise DslError(f"{what}: expected a UB buffer (k.tile or k.ub), not {_what(b)}")
        if write and b.position is Position.VECIN:
            raise DslError(f"{what}: {b.name} is an input tile (read-only)")
        if not write and b.position is Position.VECOUT:
            raise DslError(f"{what}: {b.name} is an output tile (write-only)")
        if not write and b.position is Position.VECCALC and id(b) not in self._written:
            raise DslError(f"{what}: {b.name} is read before any statement writes it")
        if b.elems == "one" and what.split("(")[0] not in ("reduce_sum", "reduce_max", "reduce_min"):
            raise DslError(f"{what}: {b.name} holds one value per row; only a reduction's into= writes it")
        return b

    def _arith(self, what: str, *bufs: Buffer) -> None:
        first = bufs[0]
        for b in bufs[1:]:
            if b.etype != first.etype:
                raise DslError(f"{what}: {first.name} and {b.name} have different element types "
                               f"({'/'.join(d.value for d in first.etype)} vs {'/'.join(d.value for d in b.etype)}); "
                               f"convert with k.cast first")
        bad = [d for d in first.etype if d not in _ARITH]
        if bad:
            raise DslError(f"{what}: the vector unit does not compute in {bad[0].value}; cast {first.name} to float32 first")

    def _binary(self, op: BinaryOp, dst, a, b) -> None:
        what = f"{op.value.lower()}()"
        d, x, y = self._buf(dst, what, True), self._buf(a, what), self._buf(b, what)
        self._arith(what, d, x, y)
        self._emit(Binary(op, d, x, y))

    def add(self, dst, a, b): self._binary(BinaryOp.ADD, dst, a, b)
    def sub(self, dst, a, b): self._binary(BinaryOp.SUB, dst, a, b)
    def mul(self, dst, a, b): self._binary(BinaryOp.MUL, dst, a, b)
    def div(self, dst, a, b): self._binary(BinaryOp.DIV, dst, a, b)
    def max(self, dst, a, b): self._binary(BinaryOp.MAX, dst, a, b)
    def min(self, dst, a, b): self._binary(BinaryOp.MIN, dst, a, b)

    def _unary(self, op: UnaryOp, dst, src) -> None:
        what = f"{op.value.lower()}()"
        d, s = self._buf(dst, what, True), self._buf(src, what)
        self._arith(what, d, s)
        self._emit(Unary(op, d, s))

    def exp(self, dst, src): self._unary(UnaryOp.EXP, dst, src)
    def ln(self, dst, src): self._unary(UnaryOp.LN, dst, src)
    def abs(self, dst, src): self._unary(UnaryOp.ABS, dst, src)
    def sqrt(self, dst, src): self._unary(UnaryOp.SQRT, dst, src)
    def rsqrt(self, dst, src): self._unary(UnaryOp.RSQRT, dst, src)
    def reciprocal(self, dst, src): self._unary(UnaryOp.RECIPROCAL, dst, src)
    def relu(self, dst, src): self._unary(UnaryOp.RELU, dst, src)

    def _scalar(self, op: ScalarOp, dst, src, value) -> None:
        what = f"{op.value.lower()}()"
        d, s = self._buf(dst, what, True), self._buf(src, what)
        self._arith(what, d, s)
        self._emit(WithScalar(op, d, s, self._expr(value, what)))

    def adds(self, dst, src, value): self._scalar(ScalarOp.ADDS, dst, src, value)
    def muls(self, dst, src, value): self._scalar(ScalarOp.MULS, dst, src, value)
    def maxs(self, dst, src, value): self._scalar(ScalarOp.MAXS, dst, src, value)
    def mins(self, dst, src, value): self._scalar(ScalarOp.MINS, dst, src, value)

    def fill(self, dst, value) -> None:
        """Every element of ``dst`` = ``value`` (Duplicate)."""
        d = self._buf(dst, "fill()", True)
        self._arith("fill()", d)
        self._emit(Fill(d, self._expr(value, "fill()")))

    def cast(self, dst, src) -> None:
        """Convert ``src`` into ``dst``'s element type (Cast; a plain copy where the types agree)."""
        d, s = self._buf(dst, "cast()", True), self._buf(src, "cast()")
        if d is s:
            raise DslError(f"cast(): {d.name} onto itself")
        self._emit(Convert(d, s))

    def _expr(self, value, what: str) -> Expr:
        try:
            e = _lift(value)
        except DslError as err:
            raise DslError(f"{what}: {err}") from None
        for s in e.scalars():
            if s not in self.scalars:
                raise DslError(f"{what}: the scalar {s.name} is not a result of this kernel")
        return e

    def _reduce(self, op: ReduceOp, src, into, name: str | None) -> Scalar | None:
        what = f"{op.name.lower().join(('reduce_', '()'))}"
        if self.schedule is not Schedule.ROWS:
            raise DslError(f"{what}: row reductions need the rows schedule")
        s = self._buf(src, what)
        self._arith(what, s)
        if into is not None:
            t = self._buf(into, what, True)
            if t.elems != "one":
                raise DslError(f"{what}: into= must be the tile of a per_row output")
            if t.etype != s.etype and s.etype != (Dtype.F32,) * len(s.etype):
                raise DslError(f"{what}: {s.name} must be float32 or have {t.name}'s element type")
            self._emit(Reduce(op, s, into=t))
            return None
        if name is None:
            raise DslError(f"{what}: assign the result to a name (m = k.{what[:-2]}(x)) or give into=")
        out = Scalar(self._fresh(name, "scalar"))
        if s.etype != (Dtype.F32,) * len(s.etype):
            raise DslError(f"{what}: a scalar result needs a float32 source; cast {s.name} first")
        self.scalars.append(out)
        self._emit(Reduce(op, s, out=out))
        return out

    def reduce_sum(self, src, into=None, name=None): return self._reduce(ReduceOp.SUM, src, into, name)
    def reduce_max(self, src, into=None, name=None): return self._reduce(ReduceOp.MAX, src, into, name)
    def reduce_min(self, src, into=None, name=None): return self._reduce(ReduceOp.MIN, src, into, name)

    def matmul(self, c, a, b, transpose_b: bool = False, base_m: int = 128, base_n: int = 128) -> None:
        """C = A @ B (``transpose_b``: B given as [N, K]); ``base_m`` x ``base_n``: C's base block in L0C."""
        if self.schedule is not Schedule.MATMUL:
            raise DslError("matmul() needs the matmul schedule (k = Kernel(\"matmul\"))")
        if self.body:
            raise DslError("matmul(): one matmul block per kernel")
        for t, role in ((c, "c"), (a, "a"), (b, "b")):
            if not isinstance(t, Tensor):
                raise DslError(f"matmul(): {role} must be a GM tensor, not {_what(t)}")
        if not c.output or a.output or b.output:
            raise DslError("matmul(): c is an output, a and b are inputs")
        if a.dtypes != b.dtypes or c.dtypes != a.dtypes:
            raise DslError(f"matmul(): {a.name}, {b.name} and {c.name} must have the same dtypes")
        for v, what in ((base_m, "base_m"), (base_n, "base_n")):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0 or v % 16:
                raise DslError(f"matmul(): {what} must be a positive multiple of 16 (one fractal), not {v!r}")
        if not isinstance(transpose_b, bool):
            raise DslError("matmul(): transpose_b is True or False")
        self._emit(MatmulBlock(c, a, b, transpose_b, base_m, base_n))

    # -- whole-program checks (the lowering calls this)
    def check(self) -> None:
        ins = [t for t in self.tensors if not t.output]
        outs = [t for t in self.tensors if t.output]
        if not ins or not outs:
            raise DslError("a kernel needs at least one input and one output")
        if self.schedule is Schedule.MATMUL:
            if len(self.body) != 1 or set(self.tensors) != {self.body[0].a, self.body[0].b, self.body[0].c}:
                raise DslError("a matmul kernel is its inputs a and b, its output c and one k.matmul(c, a, b)")
            return
        for t in self.tensors:
            if not any(b.tensor is t for b in self.buffers):
                raise DslError(f"tensor {t.name} has no tile (k.tile({t.name}))")
        written = {id(s.dst) for s in self.body if not isinstance(s, Reduce)} | \
                  {id(s.into) for s in self.body if isinstance(s, Reduce) and s.into is not None}
        for b in self.buffers:
            if b.position is Position.VECOUT and id(b) not in written:
                raise DslError(f"the output tile {b.name} is never written")
        read = set()
        for s in self.body:
            for b in _reads(s):
                read.add(id(b))
        for b in self.buffers:
            if b.position is Position.VECCALC and id(b) not in read:
                raise DslError(f"the buffer {b.name} is never read (remove it)")
            if b.position is Position.VECIN and id(b) not in read:
                raise DslError(f"the input tile {b.name} is never read")


def _reads(s: Statement) -> list[Buffer]:
    if isinstance(s, Binary):
        return [s.a, s.b]
    if isinstance(s, (Unary, WithScalar, Convert)):
        return [s.src]
    if isinstance(s, Reduce):
        return [s.src]
    return []


reads = _reads
