"""Lowering of elementwise ops (unary, binary, scalar forms, clamp/addcmul/lerp, comparisons and where)
onto float vector statements: a mixin of ``lowering.Lowering`` (it uses its value helpers)."""
from __future__ import annotations

from agent_graph.drafter.analysis import OpNode, Ref, RowLength, ScaledAttr
from agent_graph.drafter import sync
from agent_graph.drafter.program import Val, is_number as _is_number, num as _num
from agent_graph.drafter.vecops import (SIXTEEN_BIT_CXX, S, Unsupported, V, as_dtype, binary, f, pow_const,
                                        SCALAR_UNARY, scalar_binary, unary)


CMP = {"gt": "GT", "lt": "LT", "ge": "GE", "le": "LE", "eq": "EQ", "ne": "NE"}
MIRROR = {"GT": "LT", "LT": "GT", "GE": "LE", "LE": "GE", "EQ": "EQ", "NE": "NE"}


class ElementwiseLowering:
    # ---- comparisons and where (Compare/Compares into a bit mask, Select) --------------------------
    def _compare(self, node: OpNode) -> Val:
        """A comparison as a uint8 bit mask. Compare/Compares only compare whole 256-byte repeats
        (documented count rule), so the count is rounded up to 64 floats: flat tiles are whole
        multiples of 64 elements, and with a comparison the row template's row pitch is too (host
        ``colsPad``), so the extra elements are inside the tile and their bits unused."""
        a, b = (self._mask_to_vec(v) if v.kind == "mask" else v for v in (self._arg(x) for x in node.args[:2]))
        mode = CMP[node.op]
        dts = [self.g.node(x.name).dtype if isinstance(x, Ref) else None for x in node.args[:2]]
        if {a.kind, b.kind} <= {"idx", "k", "rs"} and not (_is_number(a.expr) and _is_number(b.expr)):
            # a row's integer index (a class target), a per-row value (an input broadcast along the row: [N, 1]
            # against [N, D]) or a one-element input against a number or another such value (cross_entropy's
            # ignore_index test, logical_and's y != 0): 1.0 or 0.0 (per row), on the scalar unit
            if a.kind == "k" and dts[1] in SIXTEEN_BIT_CXX:      # the number takes the 16-bit value's type first
                a = self._round_number(a, dts[1])
            if b.kind == "k" and dts[0] in SIXTEEN_BIT_CXX:
                b = self._round_number(b, dts[0])
            kind = "rs" if self.row_mode or {a.kind, b.kind} & {"idx", "rs"} else "k"
            name = self.rs_name()
            self.out(Val(kind, "")).append(f"float {name} = {scalar_binary(node.op, a.expr, b.expr)};")
            return Val(kind, name)
        tensors = ("vec", "bvec")     # a row and a broadcast row compare alike; a per-row value is a number
        if {a.kind, b.kind} - {*tensors, "k", "rs"} or not {a.kind, b.kind} & set(tensors):
            raise Unsupported(f"{node.op} of these operands (a tensor compared with a tensor or a number is covered)")
        if a.kind not in tensors:
            a, b, mode = b, a, MIRROR[mode]
            dts.reverse()
        if b.kind == "k" and dts[0] in SIXTEEN_BIT_CXX:
            # a number compared with a 16-bit tensor is cast to the tensor's dtype first (PyTorch's promotion: a
            # scalar or 0-d tensor takes the tensor's type): x > 0.3 in bfloat16 compares with 0.30078125
            b = self._round_number(b, dts[0])
        m = f"M{self.nmasks}"
        self.nmasks += 1
        cnt = f"({self.n} + 63) / 64 * 64"
        if b.kind in tensors:
            self.p.body.append(f"Compare({m}, {a.expr}, {b.expr}, CMPMODE::{mode}, {cnt});")
        else:
            self.p.body.append(f"Compares({m}, {a.expr}, static_cast<float>({b.expr}), CMPMODE::{mode}, {cnt});")
        return Val("mask", m)

    def _mask_to_vec(self, m: Val) -> Val:
        d = self.vec()
        self.p.body += [f"Duplicate({d.expr}, 1.0f, {self.n});",
                        f"Select({d.expr}, {m.expr}, {d.expr}, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, {self.n});"]
        return d

    def _where(self, node: OpNode) -> Val:
        if len(node.args) != 3:
            raise Unsupported("where with one argument (nonzero indices) is not covered by the templates")
        c, a, b = (self._arg(x) for x in node.args)
        cond = self.g.node(node.args[0].name) if isinstance(node.args[0], Ref) else None
        if c.kind == "vec" and cond is not None and cond.dtype == "bool":
            m = f"M{self.nmasks}"      # a bool input (0/1) as a bit mask
            self.nmasks += 1
            self.p.body.append(f"Compares({m}, {c.expr}, 0.5f, CMPMODE::GT, ({self.n} + 63) / 64 * 64);")
            c = Val("mask", m)
        if c.kind == "rs" and self.row_mode and {a.kind, b.kind} <= {"k", "rs"}:
            name = self.rs_name()        # one value per row picked from two per-row values or numbers
            self.out(Val("rs", "")).append(f"float {name} = ({c.expr} != 0.0f) ? {a.expr} : {b.expr};")
            return Val("rs", name)
        if c.kind == "rs" and self.row_mode:
            return self._where_per_row(c, a, b)
        if c.kind != "mask":
            raise Unsupported("where with a condition that is not a comparison computed in the kernel")
        tensors = ("vec", "bvec")     # a broadcast row selects like a row; a per-row value like a number
        if {a.kind, b.kind} - {*tensors, "k", "rs"} or (self.row_mode is False and {a.kind, b.kind} & {"bvec", "rs"}):
            raise Unsupported("where over per-row or whole-tensor values is not covered by the templates")
        d = self.vec()
        n = self.n
        if a.kind in tensors and b.kind in tensors:
            self._no_round = True  # picks already-rounded values
            self.p.body.append(f"Select({d.expr}, {c.expr}, {a.expr}, {b.expr}, SELMODE::VSEL_TENSOR_TENSOR_MODE, {n});")
        elif a.kind in tensors:
            self.p.body.append(f"Select({d.expr}, {c.expr}, {a.expr}, static_cast<float>({b.expr}), "
                               f"SELMODE::VSEL_TENSOR_SCALAR_MODE, {n});")
        elif b.kind in tensors:
            self.p.body += [f"Duplicate({d.expr}, static_cast<float>({a.expr}), {n});",
                            f"Select({d.expr}, {c.expr}, {d.expr}, {b.expr}, SELMODE::VSEL_TENSOR_TENSOR_MODE, {n});"]
        else:
            self.p.body += [f"Duplicate({d.expr}, static_cast<float>({a.expr}), {n});",
                            f"Select({d.expr}, {c.expr}, {d.expr}, static_cast<float>({b.expr}), "
                            f"SELMODE::VSEL_TENSOR_SCALAR_MODE, {n});"]
        return d

    def _where_per_row(self, c: Val, a: Val, b: Val) -> Val:
        """where(cond, a, b) with one condition per row (a bool broadcast over the last dimension): the row is a
        copy of a's or of b's (Muls by 1 copies -0.0 and NaN as they are)."""
        if {a.kind, b.kind} - {"vec", "k", "rs"}:
            raise Unsupported("where over whole-tensor values is not covered by the templates")
        d = self.vec()
        self._no_round = True   # picks already-rounded values

        def pick(v: Val) -> str:
            if v.kind == "vec":
                return f"Muls({d.expr}, {v.expr}, 1.0f, cols_);"
            return f"Duplicate({d.expr}, static_cast<float>({v.expr}), cols_);"
        self.p.body += [f"if ({c.expr} != 0.0f) {{", f"    {pick(a)}", "} else {", f"    {pick(b)}", "}"]
        return d

    def _scalar_unary(self, op: str, a: Val, kw: dict) -> Val:
        name = self.rs_name()
        out = self.out(a)
        kind = a.kind if a.kind != "k" or not self.row_mode else "rs"
        if op in SCALAR_UNARY and not kw:      # one float operation: on the scalar unit, no vector round trip
            out.append(f"float {name} = {SCALAR_UNARY[op].format(a=a.expr)};")
            return Val(kind, name)
        out.append(f"Duplicate(SC1, {a.expr}, 8);")
        tmps = iter(["SC2", "SC3", "SC4"])
        out += unary(op, "SC0", "SC1", "8", kw, lambda: next(tmps))
        out += [sync.VECTOR_TO_SCALAR, f"float {name} = SC0.GetValue(0);"]
        return Val(kind, name)

    def _index_arith(self, op: str, args: list[Val]) -> Val:
        """An argmax/argmin index plus, minus or times a whole-number constant (BLAS's i?amax counts from 1):
        integer arithmetic on the scalar unit; anything else on an index is refused."""
        def whole(v: Val) -> int | None:
            try:
                x = float(v.expr.rstrip("f"))
            except ValueError:
                return None
            return int(x) if x == int(x) else None
        others = [whole(a) for a in args if a.kind != "idx"]
        if op not in ("add", "sub", "mul") or len(args) != 2 or len(others) != 1 or others[0] is None:
            raise Unsupported(f"{op} on integer indices is not covered by the templates (only + - * of a whole number)")
        a, b = (x.expr if x.kind == "idx" else str(others[0]) for x in args)
        name = self.rs_name()
        self.out(Val("rs", "")).append(f"int64_t {name} = {scalar_binary(op, a, b)};")
        return Val("idx", name)

    def _elementwise(self, op: str, args: list[Val], kw: dict) -> Val:
        args = [self._mask_to_vec(a) if a.kind == "mask" else a for a in args]
        vecs = [a for a in args if a.kind in ("vec", "bvec")]
        kinds = {a.kind for a in args}
        if "gs" in kinds and (vecs or "rs" in kinds):
            raise Unsupported(f"{op} mixes a whole-tensor reduction with per-element values (needs two passes)")
        if "idx" in kinds:
            return self._index_arith(op, args)
        if not vecs:
            if len(args) == 1:
                return self._scalar_unary(op, args[0], kw)
            if op == "pow" and args[1].kind == "k":
                return self._scalar_unary("square", args[0], kw) if args[1].expr == f(2.0) else self._pow_scalar(args)
            kind = "gs" if "gs" in kinds else ("rs" if "rs" in kinds else "k")
            if kind == "k" and self.row_mode:
                kind = "rs"      # computed in the row loop; in flat mode a float of the tile loop, read as a number
            name = self.rs_name()
            self.out(Val(kind, "")).append(f"float {name} = {scalar_binary(op, args[0].expr, args[1].expr)};")
            return Val(kind, name)
        if "rs" in kinds and not self.row_mode:
            raise Unsupported(f"{op} of per-row values in flat mode")
        d = self.vec()
        if len(args) == 1:
            self.p.body += unary(op, d.expr, args[0].expr, self.n, kw, self.tmp)
        elif op == "pow":
            if args[1].kind != "k" or not _is_number(args[1].expr):
                if args[0].kind == "k" and args[1].kind in ("vec", "bvec"):
                    self.p.body += binary("pow", d.expr, S(args[0].expr), V(args[1].expr), self.n, self.tmp)
                    return d
                if args[0].kind in ("vec", "bvec") and args[1].kind in ("vec", "bvec", "k"):
                    # a tensor (or runtime) exponent: the Power advanced API, element by element as std::pow
                    # (a negative base with an integral exponent is defined, as in torch.pow)
                    ex = args[1].expr
                    if args[1].kind == "k":
                        value = args[1].expr
                        if "exponent_type" in kw:     # as PyTorch: the exponent in the tensor's 16-bit type
                            value = f"static_cast<float>(static_cast<{kw['exponent_type']}>({value}))"
                        ex = self.tmp()
                        self.p.body.append(f"Duplicate({ex}, {value}, {self.n});")
                    self.p.body.append(f"Power({d.expr}, {args[0].expr}, {ex}, {self.n});")
                    return d
                raise Unsupported("pow with a per-row exponent is not covered by the templates")
            self.p.body += pow_const(d.expr, args[0].expr, _num(args[1].expr), self.n, self.tmp)
        else:
            ops = [V(a.expr) if a.kind in ("vec", "bvec") else S(a.expr) for a in args]
            self.p.body += binary(op, d.expr, ops[0], ops[1], self.n, self.tmp)
        return d

    def _mish_backward(self, grad: Val, x: Val) -> Val:
        """grad * (t + x * sigmoid(x) * (1 - t * t)) with t = tanh(softplus(x)), all in float (rounded once for a
        16-bit result, as PyTorch's kernel computes it); t as the mish template computes it: m / (m + 2) with
        m = e * (e + 2), e = exp(min(x, 20)) (tanh(ln(1 + e)), no Ln or Tanh)."""
        k = lambda v: Val("k", f(v))     # noqa: E731
        e = self._elementwise("exp", [self._elementwise("minimum", [x, k(20.0)], {})], {})
        m = self._elementwise("mul", [e, self._elementwise("add", [e, k(2.0)], {})], {})
        t = self._elementwise("div", [m, self._elementwise("add", [m, k(2.0)], {})], {})
        rest = self._elementwise("sub", [k(1.0), self._elementwise("mul", [t, t], {})], {})
        slope = self._elementwise("mul", [self._elementwise("mul", [x, self._elementwise("sigmoid", [x], {})], {}), rest], {})
        return self._elementwise("mul", [grad, self._elementwise("add", [t, slope], {})], {})

    def _pow_scalar(self, args: list[Val]) -> Val:
        name = self.rs_name()
        kinds = {a.kind for a in args}
        kind = "gs" if "gs" in kinds else ("rs" if "rs" in kinds or self.row_mode else "k")   # as _elementwise's
        self.out(Val(kind, "")).append(f"float {name} = powf({args[0].expr}, {args[1].expr});")
        return Val(kind, name)

    def _lower_elementwise(self, node: OpNode) -> Val:
        op, args, kw = node.op, node.args, dict(node.kwargs)
        if op in ("add", "sub") and "alpha" in kw:
            alpha = self._arg(kw.pop("alpha"))
            if alpha.kind == "k" and node.dtype in ("float16", "bfloat16"):
                alpha = self._round_number(alpha, node.dtype)   # PyTorch casts alpha to the tensors' dtype first
            b = self._elementwise("mul", [self._arg(args[1]), alpha], {})
            return self._elementwise(op, [self._arg(args[0]), b], {})
        if op == "clamp":
            lo = args[1] if len(args) > 1 else kw.get("min")
            hi = args[2] if len(args) > 2 else kw.get("max")
            v = self._arg(args[0])
            if lo is not None:
                v = self._elementwise("maximum", [v, self._arg(lo)], {})
            if hi is not None:
                v = self._elementwise("minimum", [v, self._arg(hi)], {})
            return v
        if op in ("addcmul", "addcdiv"):
            value = kw.get("value", 1.0)
            t = self._elementwise("mul" if op == "addcmul" else "div", [self._arg(args[1]), self._arg(args[2])], {})
            if value != 1.0:
                t = self._elementwise("mul", [t, self._arg(value)], {})
            return self._elementwise("add", [self._arg(args[0]), t], {})
        if op == "mish_backward":
            return self._mish_backward(self._arg(args[0]), self._arg(args[1]))
        if op == "lerp":
            a, b = self._arg(args[0]), self._arg(args[1])
            w = self._arg(args[2] if len(args) > 2 else kw["weight"])
            d = self._elementwise("sub", [b, a], {})
            return self._elementwise("add", [a, self._elementwise("mul", [w, d], {})], {})
        if op == "pow" and "exponent" in kw:
            args = [args[0], kw.pop("exponent")]
        if op == "pow" and node.dtype in SIXTEEN_BIT_CXX:   # a number exponent takes the tensor's dtype first
            if isinstance(args[1], (int, float)) and not isinstance(args[1], bool):
                args = [args[0], as_dtype(float(args[1]), node.dtype)]
            elif isinstance(args[1], Ref):
                kw["exponent_type"] = SIXTEEN_BIT_CXX[node.dtype]
        pos = [self._arg(a) for a in args if isinstance(a, (Ref, RowLength, ScaledAttr, int, float)) and not isinstance(a, bool)]
        extra = {k: v for k, v in kw.items()}
        for k, name in (("negative_slope", 1), ("alpha", 1), ("min_val", 1), ("max_val", 2)):
            if op in ("leaky_relu", "elu", "hardtanh") and len(args) > name and k not in extra:
                if (op, k) in (("leaky_relu", "negative_slope"), ("elu", "alpha"), ("hardtanh", "min_val"), ("hardtanh", "max_val")):
                    extra[k] = args[name]
                    pos = pos[:1]
        if op == "gelu" and len(args) > 1:
            extra["approximate"] = args[1]
        if op in ("softplus",) and len(args) > 1:
            extra["beta"] = args[1]
            pos = pos[:1]
        extra = {k: self._arg(v).expr if isinstance(v, Ref) else v for k, v in extra.items()}  # runtime attrs
        arity = 1 if op not in ("add", "sub", "mul", "div", "pow", "maximum", "minimum") else 2
        if len(pos) != arity:
            raise Unsupported(f"{op} with {len(pos)} operands is not covered by the templates")
        return self._elementwise(op, pos, extra)

