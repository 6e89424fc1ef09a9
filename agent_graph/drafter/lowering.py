"""Op graph -> a kernel program: AscendC statements over float values in UB, per row or per tile.

Values have a kind: ``vec`` (a row, or a tile in flat mode, in a float UB slot), ``bvec`` (an input of
the last dimension's length, broadcast over rows, loaded once per core), ``rs`` (one float per row),
``gs`` (one float for the whole tensor: summed over cores at the end), ``k`` (a constant or runtime
attr), ``idx`` (an integer per row: argmax/argmin). Every fx node whose dtype is float16/bfloat16 is
rounded to it, as PyTorch rounds each op's result on the CPU.
"""
from __future__ import annotations

from typing import Any

import torch

from agent_graph.drafter.analysis import OpGraph, OpNode, Ref, RowLength, ScaledAttr
from agent_graph.drafter import sync, vecops
from agent_graph.drafter.hostnum import host_numbers
from agent_graph.drafter.composites import CompositeLowering
from agent_graph.drafter.elementwise import CMP, ElementwiseLowering
from agent_graph.drafter.program import (InputSpec, OutputSpec, Program, Val, ValKind, aliases as _aliases, is_last_dim as _is_last_dim,
                                         numel as _numel, reduce_dim as _reduce_dim, refs as _refs, uses as _uses)
from agent_graph.drafter.native import native_exact
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.vecops import Unsupported, f

HALF = {"float16": "half", "bfloat16": "bfloat16_t"}


def _broadcasts(shape, full) -> bool:
    """``shape`` broadcasts to ``full`` (aligned at the last dimension) and differs from it."""
    shape, full = tuple(shape or ()), tuple(full)
    if len(shape) > len(full) or shape == full:
        return False
    return all(s in (1, d) for s, d in zip(reversed(shape), reversed(full)))


def _common_shape(shapes: list) -> tuple | None:
    """The shape ``shapes`` broadcast to (PyTorch's rule), None when they do not."""
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for s in shapes:
        for k, d in enumerate(reversed(tuple(s))):
            if d != 1 and out[-1 - k] not in (1, d):
                return None
            out[-1 - k] = d if d != 1 else out[-1 - k]
    return tuple(out)


RESHAPING = ("view", "cast")
"""Ops on the way from an input to the shape it broadcasts at: reshapes, and dtype casts (``gamma.float().view(1, -1,
1, 1)``: a float16 group norm's weight, widened before it is reshaped)."""


def _broadcast_shapes(g: OpGraph) -> dict[str, tuple]:
    """The shape each input is used at when every use is a reshape of it with its numel (``b.view(1, -1, 1, 1)``,
    ``b[:, None, None]``, each maybe after a cast): the shape it broadcasts against the others with."""
    out: dict[str, tuple] = {}
    mains: dict[str, tuple] = {}
    most = max((_numel(n.shape) for n in g.inputs), default=0)
    for n in g.inputs:
        ends: set[tuple] = set()          # the shapes at the ends of chains of reshapes (s[:, None, None]: two)
        todo, ok = [n.name], True
        while todo and ok:
            users = [m for m in g.nodes if any(r.name == todo[-1] for r in _refs(m))]
            todo.pop()
            if not users:
                ok = False
            for m in users:
                if m.op not in RESHAPING or _numel(m.shape) != _numel(n.shape):
                    ok = False
                elif all(u.op in RESHAPING for u in g.nodes if any(r.name == m.name for r in _refs(u))) and m.name not in g.outputs:
                    todo.append(m.name)
                else:
                    ends.add(tuple(m.shape or ()))
        if ok and len(ends) == 1 and _numel(n.shape) < most:
            out[n.name] = ends.pop()
        elif ok and len(ends) == 1 and _squeezed(ends_one := next(iter(ends))) == _squeezed(n.shape or ()):
            mains[n.name] = ends_one      # the main input given unit dimensions only (a[:, None] * b[None, :])
    if mains:
        # the main input's reshape is the kernel's business, unless the inputs broadcast against each other to
        # a shape larger than any of them (an outer product): then it is a broadcast like the others'
        shapes = [out.get(n.name, mains.get(n.name, n.shape or ())) for n in g.inputs]
        common = _common_shape(shapes)
        if common is not None and _numel(common) > most:
            out.update(mains)
    return out


def _squeezed(shape: tuple) -> tuple:
    return tuple(d for d in shape if d != 1)


def _windowed(g: OpGraph) -> dict[str, tuple]:
    """Inputs read only through windows of their last dimension (``slice`` nodes), with the windows' shape
    (every window of an input as long as the others)."""
    out: dict[str, tuple] = {}
    for n in g.inputs:
        users = [m for m in g.nodes if any(r.name == n.name for r in _refs(m))]
        if users and all(m.op == "slice" for m in users) and n.name not in g.outputs:
            shapes = {tuple(m.shape or ()) for m in users}
            if len(shapes) != 1:
                raise Unsupported(f"windows of different lengths of input {n.name} of shape {list(n.shape)} "
                                  f"({', '.join(str(list(s)) for s in sorted(shapes))}) in one row-wise kernel")
            out[n.name] = shapes.pop()
    return out


FLOATS = {"float16", "bfloat16", "float32"}
INTS = {"int32", "int64", "int16", "int8", "uint8"}   # integer tensors computed as integral floats (exact below 2^24)


class Lowering(ElementwiseLowering, CompositeLowering):
    def __init__(self, g: OpGraph, host_derived: list | None = None):
        self.g = g
        self.host_derived = host_derived   # numbers computed from attributes alone: the host's (shared by the dtypes' programs)
        self.windowed = _windowed(g)
        full = max(g.inputs, key=lambda n: _numel(self.windowed.get(n.name, n.shape))) if g.inputs else None
        if full is None or not full.shape:
            raise Unsupported("the reference has no tensor input of rank >= 1")
        self.full = self.windowed.get(full.name, full.shape)
        self.shapes = {**_broadcast_shapes(g), **self.windowed}
        both = _common_shape([self.shapes.get(n.name, n.shape or ()) for n in g.inputs])
        if both is not None and (_numel(both) > _numel(self.full) or (0 in both and tuple(both) != tuple(self.full))):
            # inputs broadcast against each other: the output's shape is the main one (an empty input against a
            # one-value one: the output is empty, though the other has more elements)
            self.full = both
        big = max((tuple(g.node(o).shape or ()) for o in g.outputs), key=_numel, default=())
        if _numel(big) > _numel(self.full) and not self.windowed and all(n.op != "cat" for n in g.nodes) and all(
                _numel(s) == 1 or _broadcasts(s, big) for s in (self.shapes.get(n.name, n.shape or ()) for n in g.inputs)):
            # a result larger than every input, which all broadcast to it (torch.full(dims, v.item())): its shape
            self.full = big
        self.rank = len(self.full)
        self.cols = self.full[-1]
        self.rows = _numel(self.full) // max(self.cols, 1)
        self.vals: dict[str, Any] = {}
        self.free: list[int] = []
        self.nmasks = 0
        self.nslots = 0
        self.uses = _uses(g)
        self.scal = 0
        self.nrs = 0
        self.p = Program(mode="flat")
        self.row_mode = False
        self.pinned: set[str] = set()     # values a concatenated output stores: their slots are never reused

    # ---- slots and names --------------------------------------------------------------------
    def slot(self) -> int:
        if self.free:
            return self.free.pop()
        self.nslots += 1
        return self.nslots - 1

    def vec(self) -> Val:
        s = self.slot()
        return Val("vec", f"S{s}", s, f"B{s}")

    def tmp(self) -> str:
        s = self.slot()
        self._tmps.append(s)
        return f"S{s}"

    def new_val(self, kind: ValKind, expr: str) -> "Val":
        return Val(kind, expr)

    def _slot_held(self, slot: int, name: str) -> bool:
        """Whether a value other than ``name`` still needed later (read again, or an output) lives in ``slot``: a
        view or a copy of a value (``x.clone().detach()``) shares its slot, so the slot is free only when neither
        is read again."""
        g = self.g
        return any(isinstance(v, Val) and v.slot == slot and (self.uses.get(m, 0) > 0 or m in g.outputs or m in self.pinned)
                   for m, v in self.vals.items() if m != name)

    def rs_name(self) -> str:
        self.nrs += 1
        return f"r{self.nrs}"

    @property
    def n(self) -> str:
        return "cols_" if self.row_mode else "n"

    def out(self, v: Val) -> list[str]:
        return self.p.final if v.kind == "gs" else self.p.body

    # ---- program --------------------------------------------------------------------------------
    def run(self) -> Program:
        g = self.g
        self.row_mode = self._needs_rows()
        self.p.mode = "row" if self.row_mode else "flat"
        # Python numbers computed from a step count read with .item(): the host's, in double (hostnum.py)
        host, handed = host_numbers(g) if self.host_derived is not None else (set(), {})
        read = {r.name for node in g.nodes if node.name not in host for r in _refs(node)} | set(g.outputs)
        for i, n in enumerate(g.inputs):
            kind = self._input_kind(n) if n.name in read else InputKind.UNREAD
            self.p.inputs.append(InputSpec(n.name, kind, i))
            if kind == "full":
                self.vals[n.name] = Val("vec", f"XI{i}[o]" if self.row_mode else f"XI{i}", None, f"XI{i}")
            elif kind == "bvec":
                self.vals[n.name] = Val("bvec", f"W{i}")
            elif kind == "scalar":
                self.vals[n.name] = Val("k", f"sv{i}_")
            elif kind == "slice":
                self.p.windows[i] = []         # filled by its slice nodes (_lower)
            elif kind == "pair":
                pass                           # read through its parts (part nodes, _lower)
            elif kind == "grow":
                self.vals[n.name] = Val("vec", f"XI{i}[o]", None, f"XI{i}")
                self.p.row_maps[i] = self._kept(n)
            elif kind == "grs":
                self.vals[n.name] = Val("rs", f"static_cast<float>(xg{i}_.GetValue(rowMap{i}_(first_ + off + r)))")
                self.p.row_maps[i] = self._kept(n)
            else:
                self.vals[n.name] = Val("idx", f"static_cast<int64_t>(xg{i}_.GetValue(off + r))")
        for j, a in enumerate(g.attrs):
            self.p.attrs.append(a.name)
            self.vals[a.name] = Val("k", f"attr{j}_")
        for name, number in handed.items():
            if number not in self.host_derived:
                self.host_derived.append(number)
            self.vals[name] = Val("k", f"attr{len(g.attrs) + self.host_derived.index(number)}_")
        for node in g.nodes:
            if node.name in host:
                continue
            self._tmps: list[int] = []
            self._no_round = False
            start = len(self.p.body)
            v = self._lower(node)
            self.p.native16 = self.p.native16 and not self.p.final and native_exact(self.p.body[start:])
            final_out = node.name in g.outputs and self.uses.get(node.name, 0) == 0  # the store rounds it (CAST_RINT)
            if (isinstance(v, Val) and node.dtype in HALF and v.kind in ("vec", "rs", "gs") and not self._no_round
                    and node.op not in ("view", "identity", "slice", "cat") and not final_out):
                self._round(v, node.dtype)
            if isinstance(v, Val) and v.kind == "k" and node.dtype in HALF and not final_out and node.op not in ("view", "identity"):
                v = self._round_number(v, node.dtype)   # a 16-bit 0-d tensor of numbers (torch.as_tensor(alpha, ...))
            self.vals[node.name] = v
            self.free.extend(self._tmps)
            for name in sorted({a.name for a in _refs(node)}):      # sorted: the same slots on every run
                self.uses[name] -= 1
                if self.uses[name] == 0 and name not in g.outputs and name not in self.pinned:
                    old = self.vals.get(name)
                    if isinstance(old, Val) and old.slot is not None and old is not v and not _aliases(v, old) \
                            and not self._slot_held(old.slot, name):
                        self.free.append(old.slot)
        for name in g.outputs:
            v = self.vals[name]
            if isinstance(v, Val) and v.kind == "mask" and g.node(name).dtype == "bool":
                v = self._mask_to_vec(v)     # 1.0 / 0.0, stored as bool bytes (codegen ToBool)
            if isinstance(v, Val) and v.kind == "k" and _numel(g.node(name).shape or ()) == _numel(self.full):
                d = self.vec()               # a result of one value (zeros_like(x), ones_like(x) * 3): filled
                self.p.body.append(f"Duplicate({d.expr}, {v.expr}, {self.n});")
                v = d
            if not isinstance(v, Val) or v.kind in ("k", "bvec", "mask"):
                raise Unsupported(f"output {name} is not computed per element, per row or over the whole tensor")
            pair = {"gs": OutputKind.GS_PAIR, "rs": OutputKind.RS_PAIR}.get(v.kind, OutputKind.PAIR)
            kind = {"cat": OutputKind.CAT, "complex": pair}.get(g.node(name).op) or OutputKind(v.kind)
            self.p.outputs.append(OutputSpec(name, kind, v))
        whole = [o.kind in (OutputKind.GS, OutputKind.GS_PAIR) for o in self.p.outputs]
        if any(whole) and not all(whole):
            raise Unsupported("a reference returning a whole-tensor reduction together with other outputs")
        self.p.nmasks = self.nmasks
        self.p.nslots = self.nslots
        return self.p

    def _needs_rows(self) -> bool:
        if any(n.op == "cat" for n in self.g.nodes):
            return True
        for n in self.g.inputs:
            if self._input_kind(n) not in ("full", "scalar", "pair"):
                return True
        for n in self.g.nodes:
            if n.op in ("softmax", "log_softmax", "layer_norm", "rms_norm", "normalize", "cumsum", "cumprod", "logsumexp",
                        "cross_entropy", "nll_loss", "argmax", "argmin"):
                return True
            if n.op in ("sum", "mean", "amax", "amin", "max", "min", "prod") and _reduce_dim(n) is not None:
                return True
        return False

    def _input_kind(self, n: OpNode) -> InputKind:
        if n.name in self.windowed:
            if tuple(self.windowed[n.name]) != tuple(self.full):
                raise Unsupported(f"windows {list(self.windowed[n.name])} of input {n.name} against {list(self.full)}: "
                                  f"only windows as long as the output's rows are covered by the templates")
            if n.dtype not in FLOATS and n.dtype not in ("int8", "uint8", "int16", "int32"):
                raise Unsupported(f"windows of input {n.name} of dtype {n.dtype}: float, int8, int16 and int32 only "
                                  f"(a window is computed in float; int64 has no direct cast)")
            return InputKind.SLICE
        shape = self.shapes.get(n.name, n.shape or ())
        if n.dtype == "complex64":
            users = [m for m in self.g.nodes if any(r.name == n.name for r in _refs(m))]
            if tuple(shape) != tuple(self.full) or not all(m.op == "part" for m in users):
                raise Unsupported(f"complex64 input {n.name} of shape {list(shape)} against {list(self.full)}: "
                                  f"complex inputs of the output's shape, read through their parts, only")
            return InputKind.PAIR
        if _numel(shape) == 1 and (n.dtype in FLOATS or n.dtype in INTS or n.dtype == "bool") and self._expanded(n):
            return InputKind.SCALAR            # one value broadcast to the result (torch.full(dims, v.item()))
        if tuple(shape) == tuple(self.full):
            if n.dtype not in FLOATS and n.dtype not in INTS and n.dtype != "bool":
                raise Unsupported(f"input {n.name} of dtype {n.dtype}: the templates compute float16/bfloat16/float32, "
                                  f"int8/uint8/int32/int64 and bool")
            return InputKind.FULL
        if shape and shape[-1] == self.cols and _numel(shape) == self.cols:
            return InputKind.BVEC
        if _numel(shape) == 1 and (n.dtype in FLOATS or n.dtype in INTS) and len(self.full) <= 1:
            return InputKind.SCALAR            # one number against a vector (not a class index per row)
        if tuple(shape) == tuple(self.full[:-1]) and n.dtype in ("int64", "int32"):
            return InputKind.RIDX
        if _numel(shape) == 1 and (n.dtype in FLOATS or n.dtype in INTS):
            return InputKind.SCALAR
        if _broadcasts(shape, self.full) and (n.dtype in FLOATS or n.dtype in INTS or n.dtype == "bool"):
            if shape and shape[-1] == self.cols and self.cols > 1:
                return InputKind.GROW          # rows gathered through the host's row map
            return InputKind.GRS               # one value per output row
        raise Unsupported(f"input {n.name} of shape {list(shape)} against {list(self.full)}: only equal shapes and "
                          f"last-dimension broadcast are covered by the templates")

    def _expanded(self, n: OpNode) -> bool:
        """Whether input ``n`` is read only through a broadcast of it (``aten.expand``), reshapes before it."""
        todo, found = [(n.name, False)], False
        while todo:
            name, passed = todo.pop()
            for m in self.g.nodes:
                if not any(r.name == name for r in _refs(m)):
                    continue
                if m.op == "view":
                    todo.append((m.name, passed or m.name in self.g.expanded))
                elif not passed:
                    return False
            found = found or passed
        return found

    def _kept(self, n: OpNode) -> int:
        """Bit j: the input (as broadcast, aligned at the last dimension) holds the output's j-th dimension
        from the end."""
        shape = self.shapes.get(n.name, n.shape or ())
        kept = [j for j in range(1, len(shape)) if shape[-1 - j] != 1 and self.full[-1 - j] != 1]
        lead = [j for j in range(1, len(self.full)) if self.full[-1 - j] != 1]   # the host skips size-1 dimensions
        groups = sum(1 for a, b in zip([None] + lead, lead) if b in kept and (a is None or a not in kept))
        if groups > 2:
            raise Unsupported(f"input {n.name} of shape {list(shape)} against {list(self.full)}: a broadcast between "
                              f"more than two groups of kept dimensions is not covered by the templates")
        return sum(1 << j for j in kept)

    # ---- helpers --------------------------------------------------------------------------------
    def _arg(self, a: Any) -> Val:
        if isinstance(a, Ref):
            v = self.vals[a.name]
            if isinstance(v, tuple):
                raise Unsupported("a tuple result used as a tensor")
            return v
        if isinstance(a, ScaledAttr) and self.host_derived is not None:
            # a number computed from runtime attributes alone: the host computes it in double from the values as
            # written, as PyTorch computes ``1 - beta1`` in Python (1.0f - 0.9f is 3 float ulps from float(0.1)),
            # and hands it over as one more tiling number
            if a not in self.host_derived:
                self.host_derived.append(a)
            return Val("k", f"attr{len(self.g.attrs) + self.host_derived.index(a)}_")
        if isinstance(a, ScaledAttr):      # a number computed from runtime attributes (kernels with their own host)
            expr = f(a.scale)
            for name, power in a.powers:
                expr += f" {'*' if power > 0 else '/'} {self.vals[name].expr}"
            if a.powers[0][1] > 0 and a.scale in (1.0, -1.0):     # attr0_ * attr1_, -attr0_ (not 1.0f * ...)
                expr = ("-" if a.scale < 0 else "") + expr.split(" * ", 1)[1]
            return Val("k", f"({expr} + {f(a.offset)})" if a.offset else f"({expr})")
        if isinstance(a, RowLength):       # each case's row length: the kernel's own
            if not self.row_mode:
                raise Unsupported("a number that is the row length outside a row-wise kernel")
            self.p.cols_needed = True
            if a.numer is not None:      # q / D: a float division, as PyTorch rounds the double q / D to float
                return Val("k", f"({f(a.numer)} / static_cast<float>(cols_))")
            return Val("k", "static_cast<float>(cols_)")
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            raise Unsupported(f"argument {a!r} is not a tensor or a number")
        return Val("k", f(float(a)))

    def _scalar(self, a: Any) -> float | str:
        """A scalar parameter (eps, a slope): its value, or the C++ expression of the runtime attr it is."""
        if isinstance(a, (Ref, RowLength, ScaledAttr)):
            v = self._arg(a)
            if v.kind != "k":
                raise Unsupported("a tensor given where the op takes a number")
            return v.expr
        return float(a)

    def _round(self, v: Val, dt: str) -> None:
        ct = HALF[dt]
        self.p.round_types.add(dt)
        if v.kind == "vec":
            rh = f"RH_{ct}" + ("[o]" if self.row_mode else "")
            self.p.body += [f"Cast({rh}, {v.expr}, RoundMode::CAST_RINT, {self.n});", f"Cast({v.expr}, {rh}, RoundMode::CAST_NONE, {self.n});"]
        else:
            out = self.out(v)
            out += [f"Duplicate(SC0, {v.expr}, 8);", f"Cast(RS_{ct}, SC0, RoundMode::CAST_RINT, 8);",
                    f"Cast(SC0, RS_{ct}, RoundMode::CAST_NONE, 8);", sync.VECTOR_TO_SCALAR, f"{v.expr} = SC0.GetValue(0);"]

    def _round_number(self, v: Val, dt: str) -> Val:
        """A number rounded to a 16-bit type by the scalar unit (a literal rounded here)."""
        try:
            return Val("k", f(float(torch.tensor(float(v.expr.rstrip("f")), dtype=getattr(torch, dt)))))
        except ValueError:
            name = self.rs_name()
            self.p.body.append(f"float {name} = static_cast<float>(static_cast<{HALF[dt]}>({v.expr}));")
            return Val("k", name)

    # ---- row reductions -------------------------------------------------------------------------
    def _row_reduce(self, kind: str, a: Val, dtype: str = "float32") -> Val:
        """A per-row sum/max/min/prod of a vector value (row mode)."""
        name = self.rs_name()
        if kind == "prod":   # no product reduction instruction: a scalar loop over the row
            step = f"{name} * {a.expr}.GetValue(j)"
            if dtype in HALF:   # PyTorch multiplies 16-bit values one after another in their own type
                step = f"static_cast<float>(static_cast<{HALF[dtype]}>({step}))"
            self.p.body += [sync.VECTOR_TO_SCALAR, f"float {name} = 1.0f;", "for (uint32_t j = 0; j < cols_; ++j) {",
                            f"    {name} = {step};", "}"]
            return Val("rs", name)
        api = {"sum": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}[kind]
        self.p.cols_needed = True
        self.p.body += [f"{api}<float>(SC0, {a.expr}, WK, cols_);", sync.VECTOR_TO_SCALAR, f"float {name} = SC0.GetValue(0);"]
        return Val("rs", name)

    def _global(self, kind: str, a: Val, mean: bool) -> Val:
        acc = f"acc{len(self.p.accs)}_"
        self.p.accs.append((acc, kind))
        if a.kind == "vec":
            api = {"sum": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}[kind]
            self.p.body += [f"{api}<float>(SC0, {a.expr}, WK, {self.n});", sync.VECTOR_TO_SCALAR]
            part = "SC0.GetValue(0)"
            count = "static_cast<float>(total_)"
        elif a.kind == "rs":
            part = a.expr
            count = "static_cast<float>(rows_)"
        else:
            raise Unsupported("a whole-tensor reduction of this value is not covered by the templates")
        comb = {"sum": f"{acc} += {part};", "max": f"{acc} = {part} > {acc} ? {part} : {acc};",
                "min": f"{acc} = {part} < {acc} ? {part} : {acc};"}[kind]
        self.p.body.append(comb)
        name = f"G{len(self.p.accs) - 1}"
        if mean:
            self.p.final.append(f"{name} = {name} / {count};")
        return Val("gs", name)

    def _reduce(self, node: OpNode, kind: str, mean: bool = False) -> Val:
        a = self._arg(node.args[0])
        if a.kind == "mask":                 # a comparison counted or tested (count_nonzero, any, all): 1.0 / 0.0
            a = self._mask_to_vec(a)
        dim = _reduce_dim(node)
        if dim is None and kind == "prod":
            raise Unsupported("prod over all elements is not covered by the templates (a product over a dimension is)")
        if dim is None:
            if a.kind == "rs" or (a.kind == "vec"):
                return self._global(kind, a, mean)
            raise Unsupported(f"{node.op} over all elements of this value")
        if a.kind == "rs" and self.rank == 2 and _is_last_dim(dim, 1):
            return self._global(kind, a, mean)
        if a.kind == "rs" and self._over_ones(node):
            return a     # a per-row value reduced over a dimension of size 1 (a max of a kept sum): the value itself
        if not _is_last_dim(dim, len(self._shape(node.args[0]))):
            r = len(self._shape(node.args[0]))
            ds = sorted({int(d) % r for d in dim}) if isinstance(dim, (list, tuple)) and r else []
            if len(ds) > 1 and ds[-1] - ds[0] + 1 != len(ds) and node.op in ("sum", "mean"):
                raise Unsupported(f"a {node.op} of {node.dtype} values over dimensions that are not adjacent ({ds} of a "
                                  f"rank-{r} tensor) is not covered: one reduction per run of adjacent dimensions would "
                                  f"round between the runs, where PyTorch rounds once (float32 is covered)")
            raise Unsupported(f"{node.op} over dimension {dim} of a rank-{self.rank} tensor: the templates reduce the "
                              f"last dimension (inner-dimension reductions are not covered yet)")
        if a.kind not in ("vec", "bvec") or (kind == "prod" and a.kind != "vec"):
            raise Unsupported(f"{node.op} of a per-row value")
        r = self._row_reduce(kind, a, node.dtype)
        if mean:
            self.p.body.append(f"{r.expr} = {r.expr} / static_cast<float>(cols_);")
        return r

    def _over_ones(self, node: OpNode) -> bool:
        """Whether the reduction ``node`` reduces only dimensions of size 1 of its input."""
        shape, dim = self._shape(node.args[0]), _reduce_dim(node)
        ds = dim if isinstance(dim, (list, tuple)) else [dim]
        return bool(shape) and all(isinstance(d, int) and -len(shape) <= d < len(shape) and shape[d] == 1 for d in ds)

    def _shape(self, a: Any) -> tuple:
        if isinstance(a, Ref):
            return tuple(self.g.node(a.name).shape or ())
        return ()

    # ---- one node -------------------------------------------------------------------------------
    def _lower(self, node: OpNode) -> Any:
        op, args = node.op, node.args
        if op == "cat":                    # equal pieces side by side in each output row (operands.WindowOutput)
            if node.name not in self.g.outputs or self.uses.get(node.name, 0) > 0:
                raise Unsupported("a concatenation along the last dimension that is not the reference's result "
                                  "alone (other ops read it)")
            pieces = [self._arg(a) for a in args]
            if any(v.kind != "vec" for v in pieces):
                raise Unsupported("a concatenation of values that are not whole rows")
            self.pinned.update(a.name for a in args)     # each piece's tile is stored as it is: keep its slot
            return Val("vec", pieces[0].expr, None, "|".join(v.tile for v in pieces))
        if op == "slice":                  # a window of an input's rows: copied in on its own (operands.WindowInput)
            i = next(k for k, n in enumerate(self.g.inputs) if n.name == args[0].name)
            wins = self.p.windows[i]
            win = (int(node.kwargs["window"][0]), int(self.g.inputs[i].shape[-1]), int(self.cols))
            if win not in wins:            # the same window read twice (chunk and F.glu of one input): one copy
                wins.append(win)
            k = wins.index(win)
            return Val("vec", f"XI{i}w{k}[o]", None, f"XI{i}w{k}")
        if op == "part":                   # a complex input's real (0) or imaginary (1) parts (operands.PairInput)
            i = next(k for k, n in enumerate(self.g.inputs) if n.name == args[0].name)
            tile = f"XI{i}p{int(node.kwargs['part'])}"
            return Val("vec", f"{tile}[o]" if self.row_mode else tile, None, tile)
        if op == "complex":                # a complex result from its parts (operands.PairOutput)
            if node.name not in self.g.outputs or self.uses.get(node.name, 0) > 0:
                raise Unsupported("a complex value that is not the reference's result alone (other ops read it)")
            parts = [self._arg(a) for a in args]
            for kind in ("gs", "rs"):      # a complex sum of the whole tensor, of each row
                if all(isinstance(v, Val) and v.kind == kind for v in parts):
                    return Val(kind, f"{parts[0].expr}|{parts[1].expr}")
            if any(not isinstance(v, Val) or v.kind != "vec" for v in parts):
                raise Unsupported("a complex result whose parts are not computed per element or over the whole "
                                  "tensor")
            self.pinned.update(a.name for a in args if isinstance(a, Ref))   # each part's tile is stored as it is
            return Val("vec", parts[0].expr, None, f"{parts[0].tile}|{parts[1].tile}")
        if op in ("identity", "view"):
            v = self._arg(args[0])
            if op == "view" and v.kind == "vec" and self.row_mode and node.shape and node.shape[-1] != self.cols \
                    and not (node.name in self.g.outputs and self.uses.get(node.name, 0) == 0):
                # a reshape of the result as it is stored (the rows written in order) is free; any other is not
                raise Unsupported("a reshape that changes the last dimension inside a row-wise kernel")
            return v
        if op == "cast" and node.dtype == "bool":        # bool(x) is x != 0 (NaN included)
            v = self._arg(args[0])
            if v.kind == "mask":
                return v
            if self.row_mode or v.kind != "vec":
                raise Unsupported("a cast to bool of a per-row value or inside a row-wise kernel")
            m = f"M{self.nmasks}"
            self.nmasks += 1
            self.p.body.append(f"Compares({m}, {v.expr}, 0.0f, CMPMODE::NE, ({self.n} + 63) / 64 * 64);")
            return Val("mask", m)
        if op == "cast":
            if node.dtype == "float64" and not node.shape:
                v = self._arg(args[0])
                if v.kind == "k":       # a number widened as Python reads it (a float item): the number itself
                    return v
            if node.dtype not in FLOATS and node.dtype not in INTS:
                raise Unsupported(f"a cast to {node.dtype} is not covered by the templates")
            v = self._arg(args[0])
            if node.dtype in INTS and v.kind in ("vec", "rs"):
                # float -> integer truncates toward zero (PyTorch); kept as an integral float, exact below 2^24
                self._no_round = True
                if v.kind == "rs":
                    name = self.rs_name()
                    self.out(v).append(f"float {name} = static_cast<float>(static_cast<int64_t>({v.expr}));")
                    return Val("rs", name)
                d = self.vec()
                self.p.body.append(f"Cast({d.expr}, {v.expr}, RoundMode::CAST_TRUNC, {self.n});")
                return d
            if v.kind == "mask":  # a comparison used as a number: 1.0 / 0.0 (exact in every float type)
                self._no_round = True
                return self._mask_to_vec(v)
            src = self.g.node(args[0].name).dtype if isinstance(args[0], Ref) else None
            if src == node.dtype or node.dtype not in HALF:
                self._no_round = True
                return v
            if v.kind == "vec":
                src_name = args[0].name if isinstance(args[0], Ref) else None
                if node.name in self.g.outputs and self.uses.get(node.name, 0) == 0:
                    return v                     # the result as stored: the output's store rounds it
                if (v.slot is not None and src_name is not None and self.uses.get(src_name, 0) == 1
                        and src_name not in self.g.outputs and src_name not in self.pinned):
                    return v                     # read by nothing else: rounded in place (below)
                # a narrowing cast rounds a copy (the source is used again)
                d = self.vec()
                self.p.body.append(f"Adds({d.expr}, {v.expr}, 0.0f, {self.n});")
                return d
            if v.kind in ("rs", "gs"):
                name = self.rs_name()
                self.out(v).append(f"float {name} = {v.expr};")
                return Val(v.kind, name)
            return v
        if op in ("sum", "mean", "amax", "amin", "prod"):
            kind = {"sum": "sum", "mean": "sum", "amax": "max", "amin": "min", "prod": "prod"}[op]
            return self._reduce(node, kind, mean=(op == "mean"))
        if op in ("max", "min") and len(args) >= 2 and isinstance(args[1], Ref):
            return self._elementwise("maximum" if op == "max" else "minimum", [self._arg(args[0]), self._arg(args[1])], {})
        if op in ("max", "min"):
            if _reduce_dim(node) is None:
                return self._reduce(node, op)
            a = self._arg(args[0])
            used = any(n.op == "getitem" and n.args and isinstance(n.args[0], Ref) and n.args[0].name == node.name
                       and n.args[1] == 1 for n in self.g.nodes)       # the indices are computed only when used
            if a.kind == "rs" and not used and self._over_ones(node):
                return (a, None)      # the max of one value is that value
            if not _is_last_dim(_reduce_dim(node), self.rank):
                raise Unsupported(f"{op} over an inner dimension is not covered yet")
            return (self._row_reduce(op, a), self._arg_index(op, a) if used else None)
        if op in ("argmax", "argmin"):
            if _reduce_dim(node) is None or not _is_last_dim(_reduce_dim(node), self.rank):
                raise Unsupported(f"{op} over all elements or an inner dimension is not covered yet")
            return self._arg_index("max" if op == "argmax" else "min", self._arg(args[0]))
        if op == "fill":                   # a result of one value (zeros_like(x)): a number, filled when stored
            return Val("k", vecops.f(args[0]))
        if op == "getitem":
            return self.vals[args[0].name][args[1]]
        if op in ("softmax", "log_softmax", "logsumexp"):
            return self._softmax(node)
        if op == "layer_norm":
            return self._layer_norm(node)
        if op == "rms_norm":
            return self._rms_norm(node)
        if op == "normalize":
            return self._normalize(node)
        if op in ("cumsum", "cumprod"):
            return self._cumsum(node)
        if op in ("mse_loss", "l1_loss"):
            return self._loss(node)
        if op == "cross_entropy":
            return self._cross_entropy(node)
        if op == "nll_loss":
            return self._nll_loss(node)
        if op in CMP:
            return self._compare(node)
        if op == "where":
            return self._where(node)
        return self._lower_elementwise(node)

    def _arg_index(self, kind: str, a: Val) -> Val:
        api = "ReduceMax" if kind == "max" else "ReduceMin"
        name = self.rs_name()
        self.p.body += [f"{api}<float>(SC0, {a.expr}, WK, cols_, true);", sync.VECTOR_TO_SCALAR,
                        f"float {name}f = SC0.GetValue(1);",
                        f"int64_t {name} = static_cast<int64_t>(*reinterpret_cast<uint32_t*>(&{name}f));"]
        return Val("idx", name)


# ---- graph utilities --------------------------------------------------------------------------


def lower(g: OpGraph, host_derived: list | None = None) -> Program:
    """``g`` as a vector program. ``host_derived``: numbers computed from attributes alone are the host's, listed
    there (one list for the programs of every dtype combination: the same tiling fields); None: the kernel computes
    them (the cube epilogue, whose host writes its own attribute fields)."""
    return Lowering(g, host_derived).run()
