"""Lowering of the composite ops (softmax family, norms, cumsum, losses) onto row programs: a mixin
of ``lowering.Lowering`` (it uses its value helpers: ``_arg``, ``vec``, ``_row_reduce``, ``_global``...)."""
from __future__ import annotations

from typing import Any

from agent_graph.drafter.analysis import OpNode
from agent_graph.drafter import sync
from agent_graph.drafter.program import Val, is_last_dim as _is_last_dim
from agent_graph.drafter.vecops import Unsupported, f

HALF = {"float16": "half", "bfloat16": "bfloat16_t"}


class CompositeLowering:
    def _softmax(self, node: OpNode) -> Val:
        a = self._arg(node.args[0])
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        if dim is None or not _is_last_dim(dim, self.rank) or a.kind != "vec":
            raise Unsupported(f"{node.op} over dimension {dim}: the templates cover the last dimension")
        if node.op == "logsumexp" and not node.kwargs.get("keepdim", len(node.args) > 2 and node.args[2]):
            pass
        # PyTorch on the CPU, 16-bit inputs: softmax works in float; log_softmax stores the sum and its
        # log in the input type; logsumexp is a chain of ops, each rounded to the input type
        dt = node.dtype if node.dtype in HALF else None
        m = self._row_reduce("max", a)
        e = self.vec()
        self.p.body.append(f"Adds({e.expr}, {a.expr}, -{m.expr}, cols_);")
        if dt and node.op == "logsumexp":
            self._round(e, dt)
        self.p.body.append(f"Exp({e.expr}, {e.expr}, cols_);")
        if dt and node.op == "logsumexp":
            self._round(e, dt)
        s = self._row_reduce("sum", e)
        if node.op == "softmax":
            self.p.body.append(f"Muls({e.expr}, {e.expr}, 1.0f / {s.expr}, cols_);")
            return e
        if dt:
            self._round(s, dt)
        lse = self._scalar_unary("log", s, {})
        if dt:
            self._round(lse, dt)
        self.free.append(e.slot)
        if node.op == "logsumexp":
            self.p.body.append(f"{lse.expr} = {lse.expr} + {m.expr};")
            return lse
        d = self.vec()
        self.p.body.append(f"Adds({d.expr}, {a.expr}, -({m.expr} + {lse.expr}), cols_);")
        return d

    def _layer_norm(self, node: OpNode) -> Val:
        args = node.args + [None] * 5
        a = self._arg(args[0])
        shape = tuple(args[1]) if isinstance(args[1], (list, tuple)) else (args[1],)
        while len(shape) > 1 and shape[0] == 1:
            shape = shape[1:]        # normalised dimensions of size 1 (an instance norm of a [N, 1, 1, C] view)
        if shape != (self.cols,) or a.kind != "vec":
            raise Unsupported(f"layer_norm over {list(shape)}: the templates normalise the last dimension")
        w = node.kwargs.get("weight", args[2])
        b = node.kwargs.get("bias", args[3])
        eps = self._scalar(node.kwargs.get("eps", args[4] if args[4] is not None else 1e-5))
        mu = self._row_reduce("sum", a)
        self.p.body.append(f"{mu.expr} = {mu.expr} / static_cast<float>(cols_);")
        d = self.vec()
        sq = self.vec()
        self.p.body += [f"Adds({d.expr}, {a.expr}, -{mu.expr}, cols_);", f"Mul({sq.expr}, {d.expr}, {d.expr}, cols_);"]
        var = self._row_reduce("sum", sq)
        corr = self._row_reduce("sum", d)  # corrected two-pass: the mean refined by the residual's mean
        self.free.append(sq.slot)
        self.p.body += [f"{corr.expr} = {corr.expr} / static_cast<float>(cols_);",
                        f"{var.expr} = {var.expr} / static_cast<float>(cols_) - {corr.expr} * {corr.expr} + {f(eps)};",
                        f"{mu.expr} = {mu.expr} + {corr.expr};"]
        rstd = self._scalar_unary("rsqrt", var, {})
        # PyTorch's CPU kernel form: x * rstd + (-rstd * mean), then * w + b, each multiply-add fused
        # (its vectorised float loop is compiled to FMA instructions): Axpy and FusedMulAdd round
        # once, as FMA does; two separately rounded steps land on the other side of a bf16 rounding
        # tie where PyTorch's result is exactly the fused one.
        self.p.body += [f"Duplicate({d.expr}, -{rstd.expr} * {mu.expr}, cols_);", f"Axpy({d.expr}, {a.expr}, {rstd.expr}, cols_);"]
        return self._affine(d, w, b, fused=True)

    def _affine(self, d: Val, w: Any, b: Any, fused: bool = False) -> Val:
        if fused and w is not None and b is not None:   # d = w * d + b, rounded once
            self.p.body.append(f"FusedMulAdd({d.expr}, {self._arg(w).expr}, {self._arg(b).expr}, cols_);")
            return d
        if w is not None:
            self.p.body.append(f"Mul({d.expr}, {d.expr}, {self._arg(w).expr}, cols_);")
        if b is not None:
            self.p.body.append(f"Add({d.expr}, {d.expr}, {self._arg(b).expr}, cols_);")
        return d

    def _rms_norm(self, node: OpNode) -> Val:
        args = node.args + [None] * 4
        a = self._arg(args[0])
        w = node.kwargs.get("weight", args[2])
        eps = node.kwargs.get("eps", args[3])
        if eps is None:
            raise Unsupported("rms_norm without an explicit eps (its default depends on the dtype)")
        sq = self.vec()
        self.p.body.append(f"Mul({sq.expr}, {a.expr}, {a.expr}, cols_);")
        ms = self._row_reduce("sum", sq)
        self.p.body.append(f"{ms.expr} = {ms.expr} / static_cast<float>(cols_) + {f(self._scalar(eps))};")
        r = self._scalar_unary("rsqrt", ms, {})
        self.p.body.append(f"Muls({sq.expr}, {a.expr}, {r.expr}, cols_);")
        return self._affine(sq, w, None)

    def _normalize(self, node: OpNode) -> Val:
        a = self._arg(node.args[0])
        p = float(node.kwargs.get("p", node.args[1] if len(node.args) > 1 else 2.0))
        dim = node.kwargs.get("dim", node.args[2] if len(node.args) > 2 else 1)
        eps = self._scalar(node.kwargs.get("eps", node.args[3] if len(node.args) > 3 else 1e-12))
        if p != 2.0 or not _is_last_dim(dim, self.rank):
            raise Unsupported(f"normalize with p={p} over dim {dim}: the templates cover p=2 over the last dimension")
        sq = self.vec()
        self.p.body.append(f"Mul({sq.expr}, {a.expr}, {a.expr}, cols_);")
        ss = self._row_reduce("sum", sq)
        nrm = self._scalar_unary("sqrt", ss, {})
        self.p.body += [f"{nrm.expr} = {nrm.expr} > {f(eps)} ? {nrm.expr} : {f(eps)};",
                        f"Duplicate({sq.expr}, {nrm.expr}, cols_);", f"Div({sq.expr}, {a.expr}, {sq.expr}, cols_);"]
        return sq

    def _cumsum(self, node: OpNode) -> Val:
        a = self._arg(node.args[0])
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        if not _is_last_dim(dim, self.rank) or a.kind != "vec":
            raise Unsupported(f"{node.op} over dimension {dim}: the templates cover the last dimension")
        d = self.vec()
        # a scan along the row: cumsum/cumprod, reversed (from the row's end) and/or exclusive (each element
        # gets the scan of the ones before it)
        prod, reverse, exclusive = node.op == "cumprod", bool(node.kwargs.get("reverse")), bool(node.kwargs.get("exclusive"))
        # PyTorch's CPU cumsum accumulates float in double: a compensated (Kahan) sum keeps the float running
        # value as close (plain float accumulation drifts by ~sqrt(n) ulps over a long row)
        step = (f"run *= {a.expr}.GetValue(j);" if prod else
                f"float y = {a.expr}.GetValue(j) - comp; float t = run + y; comp = (t - run) - y; run = t;")
        loop = "for (int32_t j = static_cast<int32_t>(cols_) - 1; j >= 0; --j) {" if reverse else \
            "for (uint32_t j = 0; j < cols_; ++j) {"
        body = [f"        {d.expr}.SetValue(j, run);", f"        {step}"] if exclusive else \
            [f"        {step}", f"        {d.expr}.SetValue(j, run);"]
        self.p.body += [sync.VECTOR_TO_SCALAR, "{", f"    float run = {'1.0f' if prod else '0.0f'};",
                        *([] if prod else ["    float comp = 0.0f;   // the low-order part the running sum lost"]), f"    {loop}",
                        *body, "    }", "}", sync.SCALAR_TO_VECTOR]
        return d

    def _loss(self, node: OpNode) -> Val:
        red = node.kwargs.get("reduction", "mean")
        a, b = self._arg(node.args[0]), self._arg(node.args[1])
        d = self._elementwise("sub", [a, b], {})
        e = self._elementwise("square" if node.op == "mse_loss" else "abs", [d], {})
        if red == "none":
            return e
        if red not in ("mean", "sum"):
            raise Unsupported(f"{node.op} with reduction={red!r}")
        return self._global("sum", e, red == "mean")

    def _cross_entropy(self, node: OpNode) -> Val:
        if self.rank != 2 or len(node.args) < 2:
            raise Unsupported("cross_entropy: the template takes logits [N, C] and class indices [N]")
        if node.kwargs.get("weight") is not None:
            raise Unsupported("cross_entropy with a class weight")
        for k, plain in (("label_smoothing", 0.0), ("ignore_index", -100)):
            if node.kwargs.get(k, plain) != plain:
                raise Unsupported(f"cross_entropy with {k}={node.kwargs[k]!r}")
        red = node.kwargs.get("reduction", "mean")
        x, t = self._arg(node.args[0]), self._arg(node.args[1])
        if x.kind != "vec" or t.kind != "idx":
            raise Unsupported("cross_entropy: the template takes logits [N, C] and class indices [N]")
        m = self._row_reduce("max", x)
        e = self.vec()
        self.p.body += [f"Adds({e.expr}, {x.expr}, -{m.expr}, cols_);", f"Exp({e.expr}, {e.expr}, cols_);"]
        s = self._row_reduce("sum", e)
        lse = self._scalar_unary("log", s, {})
        nll = self.rs_name()
        self.p.body.append(f"float {nll} = {lse.expr} + {m.expr} - {x.expr}.GetValue(static_cast<uint32_t>({t.expr}));")
        v = self.new_val("rs", nll)
        if red == "none":
            return v
        return self._global("sum", v, red == "mean")

    def _nll_loss(self, node: OpNode) -> Val:
        """``nll_loss(logp, target, weight)``: each row's loss is ``-weight[t] * logp[t]`` (PyTorch's nll_loss
        page); a row whose target is ``ignore_index`` adds nothing to the sum and no weight to the mean,
        which divides by the sum of the picked weights (the row count without weights)."""
        red, ignore = node.kwargs.get("reduction", "mean"), int(node.kwargs.get("ignore_index", -100))
        if red not in ("none", "sum", "mean"):
            raise Unsupported(f"nll_loss with reduction={red!r}")
        x, t = self._arg(node.args[0]), self._arg(node.args[1])
        w = self._arg(node.args[2]) if node.args[2] is not None else None
        if self.rank != 2 or x.kind != "vec" or t.kind != "idx" or (w is not None and w.kind != "bvec"):
            raise Unsupported("nll_loss: the template takes log-probabilities [N, C], class indices [N] and an "
                              "optional class weight [C]")
        cls, wt, nll = "nllClass", "nllWeight", "nllLoss"     # one nll_loss per kernel: plain names
        pick = f"{w.expr}.GetValue(static_cast<uint32_t>({cls}))" if w is not None else "1.0f"
        self.p.body += [sync.VECTOR_TO_SCALAR,
                        f"const int64_t {cls} = {t.expr};",
                        f"float {wt} = {cls} == {ignore} ? 0.0f : {pick};",
                        f"float {nll} = {cls} == {ignore} ? 0.0f : -{wt} * {x.expr}.GetValue(static_cast<uint32_t>({cls}));"]
        v = self.new_val("rs", nll)
        if red == "none":
            return v
        total = self._global("sum", v, False)
        if red == "mean":
            weights = self._global("sum", self.new_val("rs", wt), False)
            self.p.final.append(f"{total.expr} = {total.expr} / {weights.expr};")
        return total
