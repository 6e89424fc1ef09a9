"""The DSL's text form: a restricted Python module, parsed with ``ast`` and interpreted against an allow-list
(never executed: a model's reply is untrusted).

Allowed statements, in order: ``k = Kernel("flat" | "rows")`` once; ``name = k.<method>(args)``;
``k.<method>(args)``; docstrings and comments; import lines (ignored: a model may write them, nothing is
imported). Arguments: numbers, strings, lists of strings,
names bound earlier, ``k.row_len``, and ``+ - * /`` and unary ``-`` over numbers and reduction results.
Errors: :class:`DslError` with ``line N: <what is wrong>``.
"""
from __future__ import annotations

import ast
import math

from agent_graph.drafter.dsl.ir import Buffer, DslError, Expr, Scalar, Tensor, _what
from agent_graph.drafter.dsl.lang import Kernel

NAMED = {"input", "output", "tile", "ub", "reduce_sum", "reduce_max", "reduce_min"}   # the result's name is the target
STATEMENTS = {"add", "sub", "mul", "div", "max", "min", "exp", "ln", "abs", "sqrt", "rsqrt", "reciprocal", "relu",
              "adds", "muls", "maxs", "mins", "fill", "cast", "reduce_sum", "reduce_max", "reduce_min", "matmul"}
METHODS = NAMED | STATEMENTS
RESULT = {"input", "output", "tile", "ub", "reduce_sum", "reduce_max", "reduce_min"}
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


class _Reader:
    def __init__(self):
        self.kernel: Kernel | None = None
        self.kname = ""
        self.env: dict[str, object] = {}

    def fail(self, node: ast.AST, msg: str) -> DslError:
        return DslError(f"line {getattr(node, 'lineno', '?')}: {msg}")

    def value(self, node: ast.AST):
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (bool, int, float, str)):
                raise self.fail(node, f"the constant {node.value!r} is not allowed (numbers, strings, True/False only)")
            if isinstance(node.value, float) and not math.isfinite(node.value):
                raise self.fail(node, "constants must be finite")
            return node.value
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.value(e) for e in node.elts]
        if isinstance(node, ast.Name):
            if node.id == self.kname:
                raise self.fail(node, f"the kernel {self.kname} is not an operand")
            if node.id not in self.env:
                raise self.fail(node, f"{node.id} is not defined (declare it with k.input/k.output/k.tile/k.ub, "
                                      f"or assign a reduction to it)")
            return self.env[node.id]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self.kname:
            if node.attr != "row_len":
                raise self.fail(node, f"{self.kname}.{node.attr} is not a value (only {self.kname}.row_len)")
            try:
                return self.kernel.row_len
            except DslError as e:
                raise self.fail(node, str(e)) from None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.value(node.operand)
            return self._arith(node, lambda x: -x if isinstance(node.op, ast.USub) else x, v)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            a, b = self.value(node.left), self.value(node.right)
            op = _OPS[type(node.op)]
            fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y, "/": lambda x, y: x / y}[op]
            return self._arith(node, fn, a, b)
        raise self.fail(node, f"{type(node).__name__} expressions are not allowed in the DSL "
                              f"(numbers, strings, names, k.row_len, + - * /)")

    def _arith(self, node, fn, *vals):
        for v in vals:
            if isinstance(v, (Buffer, Tensor, str, list)) or isinstance(v, bool):
                raise self.fail(node, f"arithmetic works on numbers and reduction results, not on {_what(v)} "
                                      f"(use k.add/k.mul/... for buffers)")
        try:
            out = fn(*vals)
        except ZeroDivisionError:
            raise self.fail(node, "division by zero") from None
        if isinstance(out, float) and not math.isfinite(out):
            raise self.fail(node, "constants must be finite")
        return out

    def call(self, node: ast.Call, target: str | None):
        f = node.func
        if isinstance(f, ast.Name) and f.id == "Kernel":
            raise self.fail(node, "Kernel(...) is assigned once, as the first statement")
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == self.kname):
            raise self.fail(node, f"only calls of the kernel's methods ({self.kname}.add(...), ...) are allowed")
        if f.attr not in METHODS:
            raise self.fail(node, f"{self.kname}.{f.attr} is not a DSL method (one of {', '.join(sorted(METHODS))})")
        if any(isinstance(a, ast.Starred) for a in node.args) or any(kw.arg is None for kw in node.keywords):
            raise self.fail(node, "*args and **kwargs are not allowed")
        args = [self.value(a) for a in node.args]
        kwargs = {kw.arg: self.value(kw.value) for kw in node.keywords}
        if "name" in kwargs:
            raise self.fail(node, "name= is given by the assignment's target")
        if f.attr in RESULT:
            if target is None and f.attr in ("input", "output", "tile", "ub"):
                raise self.fail(node, f"assign {self.kname}.{f.attr}(...) to a name")
            if target is not None:
                kwargs["name"] = target
        elif target is not None:
            raise self.fail(node, f"{self.kname}.{f.attr}(...) returns nothing; write it as a statement")
        try:
            return getattr(self.kernel, f.attr)(*args, **kwargs)
        except DslError as e:
            raise self.fail(node, str(e)) from None
        except TypeError as e:
            msg = str(e).replace("Kernel.", f"{self.kname}.").replace("_binary() ", "").replace("self, ", "")
            raise self.fail(node, msg) from None

    def statement(self, st: ast.stmt) -> None:
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            return
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
            return   # a docstring
        if self.kernel is None:
            ok = (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                  and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name) and st.value.func.id == "Kernel")
            if not ok:
                raise self.fail(st, 'the program starts with k = Kernel("flat"), Kernel("rows") or Kernel("matmul")')
            if st.value.keywords or len(st.value.args) > 1:
                raise self.fail(st, "Kernel takes one argument, the schedule")
            sched = self.value(st.value.args[0]) if st.value.args else "flat"
            try:
                self.kernel = Kernel(sched)
            except DslError as e:
                raise self.fail(st, str(e)) from None
            self.kname = st.targets[0].id
            return
        if isinstance(st, ast.Assign):
            if len(st.targets) != 1 or not isinstance(st.targets[0], ast.Name):
                raise self.fail(st, "assign to one plain name")
            name = st.targets[0].id
            if name in self.env or name == self.kname:
                raise self.fail(st, f"{name} is assigned twice (every name is bound once)")
            if not isinstance(st.value, ast.Call):
                raise self.fail(st, f"{name} = ...: the right side must be a {self.kname}.<method>(...) call")
            self.env[name] = self.call(st.value, name)
            return
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            self.call(st.value, None)
            return
        raise self.fail(st, f"{type(st).__name__} statements are not allowed in the DSL (assignments and method calls only)")


def parse(text: str) -> Kernel:
    """The Kernel a DSL text describes, checked; DslError("line N: ...") otherwise."""
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        raise DslError(f"line {e.lineno}: syntax error: {e.msg}") from None
    r = _Reader()
    for st in tree.body:
        r.statement(st)
    if r.kernel is None:
        raise DslError('line 1: the program is empty (it starts with k = Kernel("flat") or k = Kernel("rows"))')
    try:
        r.kernel.check()
    except DslError as e:
        raise DslError(f"line {len(text.splitlines())}: {e}") from None
    return r.kernel


__all__ = ["Expr", "Scalar", "parse"]
