"""Canonical front end: a PyTorch ``Model`` -> core ATen (``torch.export`` + decompositions) -> ``OpGraph``.

Every spelling of the same math reaches the lowering as the same small op set: methods, functionals,
``torch.linalg``, ``chunk``/``split``, modules, scalars given as forward arguments, module attributes
or constants. PyTorch does the reading (``torch.export.export``, then ``run_decompositions`` with
the core-ATen table); this module only names the core ops in the drafter's vocabulary
(``analysis.OpGraph``: "add", "softmax", "sum", ...) and refuses what it cannot name, naming the core
op and its shape.

The decomposition table is PyTorch's default one, except for the ops the lowering writes better as
one composite (``KEEP``: silu, softplus, logsumexp, mse_loss, ...), plus PyTorch's own decompositions
of the norms and moments the lowering has no composite for (``linalg_vector_norm``, ``var``, ``std``).

Forward number arguments are specialised by ``torch.export``; they are found again by exporting a
second time with each float argument moved (``_perturbed``): a constant that moves with it is the
argument (a ``Ref`` to the op's runtime attr), one that stays is a constant of the reference.
Module parameters and buffers that hold one value everywhere (``nn.LayerNorm``'s fresh weight and
bias, a ``torch.ones`` scale) are that value; others are refused (pass them as forward inputs).
"""
from __future__ import annotations

import builtins
import contextlib
import copy
import io
import itertools
import logging
import math
import operator
import warnings
from typing import Any, Callable

import torch
import torch.fx as fx
import torch.nn as nn
import torch.utils._pytree as pytree
from torch._subclasses import fake_tensor

from bench_bridge.api import drawn_at_random
from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode, Ref, ScaledAttr, one_element_rows
from agent_graph.drafter.complexparts import complex_as_parts
from agent_graph.drafter.program import refs
from agent_graph.drafter.vecops import MATH_LIBRARY

aten = torch.ops.aten

# ---- decomposition table -------------------------------------------------------------------------

KEEP = ("silu", "hardswish", "hardsigmoid", "mish", "softplus", "logsumexp", "mse_loss", "l1_loss", "addcmul",
        "addcdiv", "lerp", "square", "nll_loss", "nll_loss_forward", "nll_loss2d_forward", "rms_norm")
"""Ops the lowering writes as one composite: kept out of PyTorch's decomposition table."""

def _reduced(x: torch.Tensor, dim: Any) -> tuple[list[int], int]:
    dims = list(range(x.dim())) if dim is None or (isinstance(dim, (list, tuple)) and not dim) else \
        [int(d) % x.dim() for d in ([dim] if isinstance(dim, int) else dim)]
    n = 1
    for d in dims:
        n *= x.shape[d]
    return dims, n


def _var(x: torch.Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False) -> torch.Tensor:
    """Variance as the lowering's row programs compute it: mean, squared residuals, their sum / (n - correction)."""
    dims, n = _reduced(x, dim)
    corr = 1.0 if correction is None else float(correction)
    r = aten.sub.Tensor(x, aten.mean.dim(x, dims, True))
    return aten.div.Tensor(aten.sum.dim_IntList(aten.mul.Tensor(r, r), dims, keepdim), max(n - corr, 0.0))


def _std(x: torch.Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False) -> torch.Tensor:
    return aten.sqrt.default(_var(x, dim, correction=correction, keepdim=keepdim))


def _var_mean(x: torch.Tensor, dim: Any = None, *, correction: Any = None, keepdim: bool = False):
    dims, _ = _reduced(x, dim)
    return _var(x, dim, correction=correction, keepdim=keepdim), aten.mean.dim(x, dims, keepdim)


def _vector_norm(x: torch.Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None):
    """p-norms as reductions the lowering has: sqrt(sum(x*x)), sum(|x|), max(|x|), (sum |x|^p)^(1/p); a complex
    x's 2-norm sums re^2 + im^2 (|z|^2)."""
    dims, _ = _reduced(x, dim)
    p = float(ord)
    if p == 2.0:
        if x.is_complex():
            pairs = aten.view_as_real.default(x)
            re, im = aten.select.int(pairs, -1, 0), aten.select.int(pairs, -1, 1)
            squares = aten.add.Tensor(aten.mul.Tensor(re, re), aten.mul.Tensor(im, im))
            return aten.sqrt.default(aten.sum.dim_IntList(squares, dims, keepdim))
        return aten.sqrt.default(aten.sum.dim_IntList(aten.mul.Tensor(x, x), dims, keepdim))
    a = aten.abs.default(x)
    if p == 1.0:
        return aten.sum.dim_IntList(a, dims, keepdim)
    if p == float("inf"):
        return aten.amax.default(a, dims, keepdim)
    return aten.pow.Tensor_Scalar(aten.sum.dim_IntList(aten.pow.Tensor_Scalar(a, p), dims, keepdim), 1.0 / p)


def _rounded_quotient(x: Any, y: Any, mode: str | None) -> Any:
    """x / y rounded toward -inf ('floor') or toward 0 ('trunc'), in x's dtype when x is an integer tensor
    (PyTorch's floor_divide / div(rounding_mode=...) of integers stays integer)."""
    q = aten.div.Tensor(x, y)
    if mode is None:
        return q
    q = aten.floor.default(q) if mode == "floor" else aten.trunc.default(q)
    if isinstance(x, torch.Tensor) and not x.dtype.is_floating_point:
        q = aten._to_copy.default(q, dtype=x.dtype)
    return q


def _div_mode(x: Any, y: Any, *, rounding_mode: str | None = None) -> Any:
    return _rounded_quotient(x, y, rounding_mode)


def _remainder_like(mode: str) -> Callable:
    """remainder (the sign of y: x - floor(x / y) * y) and fmod (the sign of x: x - trunc(x / y) * y) of floats."""
    def run(x: Any, y: Any) -> Any:
        if isinstance(x, torch.Tensor) and not x.dtype.is_floating_point:
            return NotImplemented   # integer remainders stay whole (the gather planner reads index wrapping)
        return aten.sub.Tensor(x, aten.mul.Tensor(_rounded_quotient(x, y, mode), y))
    return run


def _hypot(a: Any, b: Any) -> Any:
    return aten.sqrt.default(aten.add.Tensor(aten.mul.Tensor(a, a), aten.mul.Tensor(b, b)))


def _atan2(y: Any, x: Any) -> Any:
    """atan2 by quadrant: atan(y / x), + pi with y's sign where x < 0, +-pi/2 where x == 0 (0 at the origin)."""
    pi = 3.141592653589793
    base = aten.atan.default(aten.div.Tensor(y, x))
    half = aten.mul.Tensor(aten.sign.default(y), pi / 2)
    turn = aten.where.self(aten.ge.Scalar(y, 0), aten.add.Tensor(base, pi), aten.sub.Tensor(base, pi))
    return aten.where.self(aten.gt.Scalar(x, 0), base, aten.where.self(aten.lt.Scalar(x, 0), turn, half))


def _unit_operand(n: fx.Node, base: str, args: list) -> fx.Node | None:
    """The tensor operand of ``x * 1``, ``1 * x``, ``x + 0``, ``0 + x`` or ``x - 0`` when the result is ``x``
    unchanged (same shape and dtype), else None."""
    unit = {"mul": 1.0, "add": 0.0, "sub": 0.0}.get(base)
    if unit is None or len(n.args) != 2 or n.kwargs.get("alpha", 1) != 1:
        return None
    for k, (a, v) in enumerate(zip(n.args, args)):
        other = n.args[1 - k]
        if (isinstance(v, float) and v == unit and (k == 1 or base != "sub") and isinstance(other, fx.Node)
                and isinstance(other.meta.get("val"), torch.Tensor) and isinstance(n.meta.get("val"), torch.Tensor)
                and other.meta["val"].shape == n.meta["val"].shape and other.meta["val"].dtype == n.meta["val"].dtype):
            return other
    return None


def _split_sizes(n: fx.Node) -> tuple[list[int], int]:
    """The piece sizes and the dimension of ``aten.split_with_sizes`` / ``aten.split`` (equal pieces, the last
    one shorter)."""
    dim = n.args[2] if len(n.args) > 2 else n.kwargs.get("dim", 0)
    size = int(n.args[0].meta["val"].shape[int(dim)])
    if _name(n)[0] == "split_with_sizes":
        return [int(v) for v in n.args[1]], int(dim)
    step = int(n.args[1])
    return [min(step, size - k) for k in range(0, size, step)], int(dim)


def _group_norm_affine(x: torch.Tensor, weight: Any, bias: Any, n: Any, c: Any, hw: Any, group: Any, eps: float):
    """A group norm's per-channel affine as its own multiply and add after the plain norm (a row kernel
    normalises a group; the channels' scale and shift are elementwise ops a later stage broadcasts). In a 16-bit
    type the norm and the affine run in float32 and the result is rounded once, as PyTorch's kernel computes (its
    normalised value is never rounded: the later stage reads it as float32; within one ulp of PyTorch's result)."""
    if (weight is None and bias is None) or x.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        return NotImplemented
    wide = x.dtype != torch.float32
    f32 = (lambda t: aten._to_copy.default(t, dtype=torch.float32)) if wide else (lambda t: t)
    out, mean, rstd = aten.native_group_norm.default(f32(x), None, None, n, c, hw, group, eps)
    shape = [1, c] + [1] * (x.dim() - 2)
    if weight is not None:
        out = aten.mul.Tensor(out, f32(aten.view.default(weight, shape)))
    if bias is not None:
        out = aten.add.Tensor(out, f32(aten.view.default(bias, shape)))
    if wide:
        out, mean, rstd = (aten._to_copy.default(t, dtype=x.dtype) for t in (out, mean, rstd))
    return out, mean, rstd


def _cross(a: torch.Tensor, b: torch.Tensor, dim: int = -1) -> Any:
    """The cross product along ``dim`` (of size 3) as slices, products and a concatenation: c_i = a_{i+1} b_{i+2} -
    a_{i+2} b_{i+1} (PyTorch's own decomposition indexes with an ``arange``, which the lowering does not take)."""
    if a.shape != b.shape or a.shape[dim] != 3:
        return NotImplemented
    d = dim % a.dim()
    pa = [aten.slice.Tensor(a, d, i, i + 1) for i in range(3)]
    pb = [aten.slice.Tensor(b, d, i, i + 1) for i in range(3)]
    parts = [aten.sub.Tensor(aten.mul.Tensor(pa[(i + 1) % 3], pb[(i + 2) % 3]),
                             aten.mul.Tensor(pa[(i + 2) % 3], pb[(i + 1) % 3])) for i in range(3)]
    return aten.cat.default(parts, d)


def _runs(dims: list[int]) -> list[list[int]]:
    """Sorted dimensions as runs of adjacent ones ([0, 2, 3] -> [[0], [2, 3]])."""
    runs: list[list[int]] = []
    for d in dims:
        if runs and runs[-1][-1] + 1 == d:
            runs[-1].append(d)
        else:
            runs.append([d])
    return runs


def _split_reduce(op: Any, rounds: bool) -> Any:
    """A reduction over dimensions that are not adjacent (``x.sum((0, 2))``) as one reduction per run of adjacent
    ones, the last run first (the earlier dimensions keep their places): a staged op of templates that each reduce
    one run. Adjacent dimensions are left to the op (``NotImplemented``). A sum or mean (``rounds``) of 16-bit
    values is computed as PyTorch's CPU kernels do (ReduceOps ``mean_out``: cast to float32, sum, divide, cast
    back): the stages reduce in float32 and the result is rounded once."""
    def split(x: torch.Tensor, dim: Any = None, keepdim: bool = False, **kw: Any) -> Any:
        if not isinstance(dim, (list, tuple)) or x.dim() == 0:
            return NotImplemented
        runs = _runs(sorted({int(d) % x.dim() for d in dim}))
        if len(runs) < 2:
            return NotImplemented
        out_dtype = kw.get("dtype") or x.dtype
        wide = rounds and out_dtype in (torch.float16, torch.bfloat16)
        y = x.to(torch.float32) if wide else x
        for run in reversed(runs):
            y = op(y, run, keepdim, **({**kw, "dtype": torch.float32} if wide and "dtype" in kw else kw))
        return y.to(out_dtype) if wide else y
    return split


EXTRA: dict = {aten.sum.dim_IntList: _split_reduce(aten.sum.dim_IntList, True),
               aten.mean.dim: _split_reduce(aten.mean.dim, True),
               aten.amax.default: _split_reduce(aten.amax.default, False),
               aten.amin.default: _split_reduce(aten.amin.default, False),
               aten.var.correction: _var, aten.std.correction: _std, aten.var_mean.correction: _var_mean,
               aten.linalg_vector_norm.default: _vector_norm, aten.native_group_norm.default: _group_norm_affine,
               aten.div.Tensor_mode: _div_mode, aten.div.Scalar_mode: _div_mode,
               aten.remainder.Tensor: _remainder_like("floor"), aten.remainder.Scalar: _remainder_like("floor"),
               aten.fmod.Tensor: _remainder_like("trunc"), aten.fmod.Scalar: _remainder_like("trunc"),
               aten.hypot.default: _hypot, aten.atan2.default: _atan2, aten.linalg_cross.default: _cross}
"""Core ops with no composite in the lowering, decomposed into the ops its row programs compute
(PyTorch's own decompositions of these go down to prims, which name no core ATen op)."""


FOREACH = ("abs", "acos", "add", "addcdiv", "addcmul", "asin", "atan", "ceil", "clamp_max", "clamp_min", "cos", "cosh",
           "div", "erf", "erfc", "exp", "expm1", "floor", "lerp", "log", "log10", "log1p", "log2", "maximum", "minimum",
           "mul", "neg", "pow", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "sub", "tan",
           "tanh", "trunc")
"""``torch._foreach_<op>`` functions read as ``<op>`` of each tensor (export keeps them whole)."""


def _per_tensor(fn: Callable) -> Callable:
    """A ``_foreach_`` op as a list of ``fn`` calls: list arguments (tensors, scalar lists) give their i-th item."""
    def run(*args: Any, **kwargs: Any) -> list:
        if fn in (torch.addcmul, torch.addcdiv) and len(args) == 4:   # the _foreach_ form's value is positional
            args, kwargs = args[:3], {**kwargs, "value": args[3]}
        n = next(len(a) for a in args if isinstance(a, (list, tuple)))
        return [fn(*[a[i] if isinstance(a, (list, tuple)) else a for a in args], **kwargs) for i in range(n)]
    return run


def _foreach_decompositions() -> dict:
    table = {}
    for name in FOREACH:
        packet = getattr(aten, f"_foreach_{name}", None)
        if packet is not None:
            for overload in packet.overloads():
                table[getattr(packet, overload)] = _per_tensor(getattr(torch, name))
    return table


def decompositions() -> dict:
    table = {k: v for k, v in torch.export.default_decompositions().items()
             if str(k).split(".")[1] not in KEEP}
    table.update(EXTRA)
    table.update(_foreach_decompositions())
    return table


# ---- export --------------------------------------------------------------------------------------

CONSTANT_ELEMENTS = 64
"""Tensors the reference builds from Python numbers (``torch.tensor(self.normalized_shape)``) of up to this many
elements keep their values while exporting, so a number computed from them (``float(torch.prod(..))``) is that
number: PyTorch's fake tensors keep the values of one-element constants only."""


def _export_tracking_constants(model: nn.Module, inputs: list[Any]) -> torch.export.ExportedProgram:
    """``torch.export`` of the reference; when it stops on a data-dependent value, once more with the values of
    small constant tensors kept (a value computed from the reference's own constants, never from an input: an
    input's values are never known while exporting, so a branch on them still stops the export)."""
    try:
        return _quiet_export(model, inputs)
    except Exception as e:
        if "data-dependent" not in str(e):
            raise
    limit = fake_tensor.CONSTANT_NUMEL_LIMIT
    fake_tensor.CONSTANT_NUMEL_LIMIT = CONSTANT_ELEMENTS
    try:
        try:
            return _quiet_export(model, inputs)
        except Exception as e:
            if "data-dependent" not in str(e):
                raise
            with _numbers_of_tensors(model):     # float(step): the number a one-element input holds, symbolic
                return _quiet_export(model, inputs)
    finally:
        fake_tensor.CONSTANT_NUMEL_LIMIT = limit


def _symbolic_float(v: Any = 0.0) -> Any:
    """``float(v)`` while exporting: a tensor's number as the symbolic float it is (Python's ``float()`` must
    return a real float, so ``float(step)`` of an input stops the export; ``step.item()`` does not)."""
    if isinstance(v, torch.Tensor):
        return torch.sym_float(v.item())
    return builtins.float(v)


def _symbolic_int(v: Any = 0, *base: Any) -> Any:
    """``int(v)`` while exporting: a tensor's number as the symbolic int it is (see ``_symbolic_float``)."""
    if isinstance(v, torch.Tensor) and not base:
        return torch.sym_int(v.item())
    return builtins.int(v, *base)


@contextlib.contextmanager
def _numbers_of_tensors(model: nn.Module):
    """``float``/``int`` in the reference's module read a tensor's number symbolically for the time of an export
    (names the module defines itself are left alone)."""
    space = getattr(type(model).forward, "__globals__", None)
    put = [n for n in ("float", "int") if space is not None and n not in space]
    for name in put:
        space[name] = {"float": _symbolic_float, "int": _symbolic_int}[name]
    try:
        yield
    finally:
        for name in put:
            space.pop(name, None)


def _quiet_export(model: nn.Module, inputs: list[Any]) -> torch.export.ExportedProgram:
    """``torch.export``, its own output kept off the user's terminal: on a data-dependent value PyTorch prints the
    partial graph to stderr (a ``print``, not a log record) and warns through its symbolic-shapes logger; the
    drafter retries or refuses in one line instead."""
    logging.getLogger("torch.fx.experimental.symbolic_shapes").setLevel(logging.ERROR)
    with contextlib.redirect_stderr(io.StringIO()):
        return torch.export.export(model, tuple(inputs), strict=False)


def _export(model: nn.Module, inputs: list[Any]) -> torch.export.ExportedProgram:
    # a reference that fails under fake tensors is reported by the AnalysisError below; PyTorch would also
    # log the whole traceback of the failing meta kernel at ERROR level
    logging.getLogger("torch._subclasses.fake_tensor").setLevel(logging.CRITICAL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ep = _export_tracking_constants(model, inputs)
        except Exception as e:
            raise AnalysisError(f"the reference cannot be exported by torch.export ({type(e).__name__}: "
                                f"{str(e).strip().splitlines()[0][:160]})") from e
        _diagonal_products(ep)
        _arange_lookups(ep)
        _items_as_tensors(ep)
        ep = ep.run_decompositions(decompositions())
    complex_as_parts(ep)
    return ep


DIAG = (aten.diag.default, aten.diag_embed.default)
PRODUCTS = (aten.matmul.default, aten.mm.default)


ITEMS = (aten.item.default, aten._local_scalar_dense.default)
SYM_FLOAT = getattr(torch, "sym_float", None)


def _items_as_tensors(ep: torch.export.ExportedProgram) -> None:
    """Numbers read out of one-element tensors (``step.item() + 1``, then ``beta1 ** step``: an optimizer's step
    count) as the one-element tensors they are, and the Python arithmetic on them as tensor ops: the export gives
    such numbers as symbols the lowering cannot read (their values are the input's, known only at run time), the
    tensor ops broadcast the value wherever the number was used. ``s ** x`` is ``aten.pow.Scalar``, ``s - x`` is ``-x + s``, ``s / x`` is ``s * (1 / x)``; an ``addcdiv``/``addcmul`` whose ``value`` became a
    tensor is written out. Left as it is when any use of such a number is not one of these."""
    g = ep.graph
    items = [n for n in g.nodes if n.op == "call_function" and n.target in ITEMS]
    if not items:
        return
    env: dict[fx.Node, fx.Node] = {}     # a number's node -> the one-element tensor it is
    done: list[fx.Node] = []             # ops written out anew

    def val(a: Any) -> Any:
        return a.meta["val"] if isinstance(a, fx.Node) else a

    def call(target: Any, args: tuple, kwargs: dict | None = None) -> fx.Node:
        node = g.call_function(target, args, kwargs or {})
        node.meta["val"] = target(*[val(a) for a in args], **{k: val(v) for k, v in (kwargs or {}).items()})
        return node

    def python_float(x: Any, other: Any) -> Any:
        """An integer number's tensor as float64 where Python arithmetic with a float makes it a float (``beta1 **
        t`` of an int t: a Python float, double precision)."""
        if isinstance(x, fx.Node) and not val(x).dtype.is_floating_point and (
                isinstance(other, float) or (isinstance(other, fx.Node) and val(other).dtype.is_floating_point)):
            return call(aten._to_copy.default, (x,), {"dtype": torch.float64})
        return x

    def tensor_of(n: fx.Node, a: Any, b: Any) -> fx.Node | None:
        t = n.target
        x, y = env.get(a, a), env.get(b, b)
        xt, yt = isinstance(x, fx.Node) and a in env, isinstance(y, fx.Node) and b in env
        x, y = python_float(x, y), python_float(y, x)
        if t in (operator.add, operator.mul):
            op = aten.add.Tensor if t is operator.add else aten.mul.Tensor
            return call(op, (x, y) if xt else (y, x))
        if t is operator.sub:
            return call(aten.sub.Tensor, (x, y)) if xt else call(aten.add.Tensor, (call(aten.neg.default, (y,)), x))
        if t is operator.truediv:
            return call(aten.div.Tensor, (x, y)) if xt else call(aten.mul.Tensor, (call(aten.reciprocal.default, (y,)), x))
        if t is operator.pow:
            if xt:
                return call(aten.pow.Tensor_Scalar, (x, y)) if not yt else None
            if isinstance(x, (int, float)):
                return call(aten.pow.Scalar, (x, y))
        return None

    try:
        for n in list(g.nodes):
            if n.op != "call_function":
                continue
            with g.inserting_before(n):
                if n.target in ITEMS:
                    src = n.args[0]
                    if val(src).numel() != 1:
                        return
                    # a Python number: a float item is a double, the arithmetic on it Python's, in double
                    env[n] = call(aten.reshape.default, (src, []))
                    if val(src).dtype.is_floating_point and val(src).dtype != torch.float64:
                        env[n] = call(aten._to_copy.default, (env[n],), {"dtype": torch.float64})
                elif n.target is SYM_FLOAT and n.args[0] in env:
                    env[n] = call(aten._to_copy.default, (env[n.args[0]],), {"dtype": torch.float64})
                elif n.target is operator.neg and n.args[0] in env:
                    env[n] = call(aten.neg.default, (env[n.args[0]],))
                elif n.target in (operator.add, operator.sub, operator.mul, operator.truediv, operator.pow) and \
                        any(a in env for a in n.args):
                    new = tensor_of(n, *n.args)
                    if new is None:
                        return
                    env[n] = new
                elif n.target in (aten.full.default, aten.full_like.default) and n.args[1] in env:
                    # a tensor filled with the number: the one-element tensor broadcast to the shape, in its dtype
                    like = val(n.args[0]) if n.target is aten.full_like.default else None
                    size = [int(d) for d in (n.args[0] if like is None else like.shape)]
                    one = call(aten.reshape.default, (env[n.args[1]], [1] * len(size)))
                    number = val(env[n.args[1]]).dtype       # (a float number fills the default dtype, as torch.full)
                    dtype = n.kwargs.get("dtype") or (like.dtype if like is not None else
                                                      torch.get_default_dtype() if number.is_floating_point else number)
                    if dtype != val(one).dtype:
                        one = call(aten._to_copy.default, (one,), {"dtype": dtype})
                    # (times one: an elementwise op the broadcast feeds, exact for every value, -0.0 and NaN too)
                    out = call(aten.mul.Tensor, (call(aten.expand.default, (one, size)), 1))
                    n.replace_all_uses_with(out)
                    done.append(n)
                elif any(a in env for a in (*n.args, *n.kwargs.values())):
                    if n.target in (aten.addcdiv.default, aten.addcdiv_.default, aten.addcmul.default,
                                    aten.addcmul_.default) and n.kwargs.get("value") in env:
                        base, a, b = n.args
                        inner = aten.div.Tensor if "addcdiv" in str(n.target) else aten.mul.Tensor
                        # in float32, rounded once into base's dtype, as PyTorch's addcdiv/addcmul compute
                        wide = [call(aten._to_copy.default, (t,), {"dtype": torch.float32}) for t in (base, a, b)]
                        term = call(aten.mul.Tensor, (call(inner, (wide[1], wide[2])), env[n.kwargs["value"]]))
                        out = call(aten._to_copy.default, (call(aten.add.Tensor, (wide[0], term)),),
                                   {"dtype": val(base).dtype})
                        if n.target in (aten.addcdiv_.default, aten.addcmul_.default):
                            out = call(aten.copy_.default, (base, out))
                        n.replace_all_uses_with(out)
                        done.append(n)
                        continue
                    if n.target in (aten.add.Tensor, aten.sub.Tensor) and n.kwargs.get("alpha") in env and \
                            len(n.args) == 2 and isinstance(n.args[1], fx.Node) and n.args[1] not in env:
                        # x.add(g, alpha=number): x + alpha * g in float32, rounded once into x's dtype (PyTorch's)
                        base, other = n.args
                        wide = [call(aten._to_copy.default, (t,), {"dtype": torch.float32}) for t in (base, other)]
                        term = call(aten.mul.Tensor, (wide[1], env[n.kwargs["alpha"]]))
                        op = aten.add.Tensor if n.target is aten.add.Tensor else aten.sub.Tensor
                        out = call(aten._to_copy.default, (call(op, (wide[0], term)),), {"dtype": val(n).dtype})
                        n.replace_all_uses_with(out)
                        done.append(n)
                        continue
                    if str(n.target).endswith(".Tensor") and not any(v in env for v in n.kwargs.values()):
                        # (add, mul, div ... .Tensor: a tensor there). A Python float with an integer tensor makes
                        # the default float dtype, as the float64 0-d tensor would not: cast to it first
                        ints = any(isinstance(a, fx.Node) and a not in env and isinstance(val(a), torch.Tensor)
                                   and not val(a).dtype.is_floating_point for a in n.args)
                        n.args = tuple(call(aten._to_copy.default, (env[a],), {"dtype": torch.get_default_dtype()})
                                       if a in env and ints and val(env[a]).dtype == torch.float64 else env.get(a, a)
                                       for a in n.args)
                        continue
                    return
    except Exception as e:    # a form not foreseen: the export as it is (its refusal names the op)
        logging.getLogger(__name__).debug("numbers read from tensors kept: %s: %s", type(e).__name__, e)
        return
    for n in reversed(list(g.nodes)):      # the numbers and the ops written out, now unused
        if (n in env or n in done) and not n.users:
            g.erase_node(n)
    ep.graph_module.recompile()


def _diagonal_products(ep: torch.export.ExportedProgram) -> None:
    """``torch.diag(v) @ b`` is ``v[:, None] * b`` and ``b @ torch.diag(v)`` is ``b * v`` (one nonzero term per
    output: the same single rounding): rewritten before PyTorch decomposes ``diag`` into an ``arange`` compare,
    so the product reaches the lowering as the row or column scaling it is."""
    g = ep.graph
    changed = False
    for n in list(g.nodes):
        if n.op != "call_function" or n.target not in PRODUCTS or len(n.args) != 2:
            continue
        for side, d in enumerate(n.args):
            other = n.args[1 - side]
            if not (isinstance(d, fx.Node) and d.target in DIAG and len(d.args) == 1 and not d.kwargs and len(d.users) == 1
                    and d.args[0].meta["val"].dim() == 1 and isinstance(other, fx.Node) and other.meta["val"].dim() == 2):
                continue
            v = d.args[0]
            with g.inserting_before(n):
                if side == 0:     # diag(v) @ b: row i scaled by v[i]
                    col = g.call_function(aten.unsqueeze.default, (v, -1))
                    col.meta["val"] = v.meta["val"].unsqueeze(-1)
                    new = g.call_function(aten.mul.Tensor, (col, other))
                else:             # b @ diag(v): column j scaled by v[j]
                    new = g.call_function(aten.mul.Tensor, (other, v))
            new.meta["val"] = n.meta["val"]
            n.replace_all_uses_with(new)
            g.erase_node(n)
            g.erase_node(d)
            changed = True
            break
    if changed:
        ep.graph_module.recompile()


ARANGES = (aten.arange.default, aten.arange.start, aten.arange.start_step)


def _arange_lookups(ep: torch.export.ExportedProgram) -> None:
    """``torch.arange(start, end, step)[i]`` with ``i`` a value the reference computes (``indices[x.argmin()]``:
    the position an arg-reduction found, mapped back through the positions it searched) is ``start + i * step``:
    written so, the lookup needs no tensor of positions."""
    g = ep.graph
    changed = False
    for n in list(g.nodes):
        if n.op != "call_function" or n.target is not aten.select.int or len(n.args) != 3 or n.args[1] != 0:
            continue
        table, at = n.args[0], n.args[2]
        while isinstance(table, fx.Node) and table.target in (aten.to.dtype, aten._to_copy.default) and \
                not table.meta["val"].is_floating_point():
            table = table.args[0]
        if not (isinstance(table, fx.Node) and table.target in ARANGES and isinstance(at, fx.Node)
                and at.target in ITEMS and all(isinstance(a, int) for a in table.args)):
            continue
        start, _, step = (0, table.args[0], 1) if len(table.args) == 1 else (*table.args, 1)[:3]
        pos = at.args[0]
        with g.inserting_before(n):
            new = g.call_function(aten._to_copy.default, (pos,), {"dtype": n.meta["val"].dtype})
            new.meta["val"] = pos.meta["val"].to(n.meta["val"].dtype)
            for target, k, unit in ((aten.mul.Tensor, step, 1), (aten.add.Tensor, start, 0)):
                if k != unit:
                    val = target(new.meta["val"], k)
                    new = g.call_function(target, (new, k))
                    new.meta["val"] = val
        n.replace_all_uses_with(new)
        changed = True
    if changed:
        g.eliminate_dead_code()
        ep.graph_module.recompile()


def _pointwise_ints(ep: torch.export.ExportedProgram) -> set[int]:
    """The int constants pointwise ops (and scalar_tensor/full values) of the export take: an int argument with
    one of these values may be one of them (worth a second export with the ints moved)."""
    out: set[int] = set()
    for n in ep.graph.nodes:
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) and (
                torch.Tag.pointwise in n.target.tags or _name(n)[0] in ("scalar_tensor", "full", "full_like")):
            out |= {a for a in n.args if isinstance(a, int) and not isinstance(a, bool)}
    return out


def _same_path(ep: torch.export.ExportedProgram, other: torch.export.ExportedProgram) -> bool:
    """Whether the perturbed export calls the same ops in the same order with outputs of the same shapes."""
    mine = [n for n in ep.graph.nodes if n.op == "call_function"]
    theirs = [n for n in other.graph.nodes if n.op == "call_function"]

    def shape(n: fx.Node) -> Any:
        v = n.meta.get("val")
        return tuple(v.shape) if isinstance(v, torch.Tensor) else None
    return len(mine) == len(theirs) and all(_name(x) == _name(y) and shape(x) == shape(y) for x, y in zip(mine, theirs))


def _perturbed(v: float, k: int = 0) -> float:
    """Float argument ``k``'s value in the second export: each argument moved its own way, so two arguments of
    equal value (alpha == scale) move apart and a constant computed from them says which it came from."""
    # (constants of many digits: a product of moved values never looks like a round coefficient, see _derived)
    return v * (1.37172389 + 0.09312787 * k) + (0.17312941 + 0.03771293 * k) if v else 0.42437913 + 0.06113417 * k


def moved_floats(values: list[Any]) -> list[Any]:
    """``values`` with each float perturbed by its position among the floats (``_perturbed``)."""
    out, k = [], 0
    for v in values:
        if isinstance(v, float):
            out.append(_perturbed(v, k))
            k += 1
        else:
            out.append(v)
    return out


def _moved_int(v: int, k: int) -> int:
    """Int argument ``k``'s value in the second export (an int stays an int: PyTorch's type promotion of a tensor
    with it is unchanged); far from any size, each argument its own way."""
    return v + 1009 + 97 * k


def moved_numbers(values: list[Any]) -> list[Any]:
    """``moved_floats`` with the int arguments moved too (``_moved_int``): a threshold, a fill value or an offset
    given as an int is an attribute when a constant of a pointwise op moves with it."""
    out, k = [], 0
    for v in moved_floats(values):
        if isinstance(v, int) and not isinstance(v, bool):
            out.append(_moved_int(v, k))
            k += 1
        else:
            out.append(v)
    return out


def _derived(attrs: dict[str, float], moved: dict[str, float], a: float, b: float) -> ScaledAttr | None:
    """``a`` (this export's constant) and ``b`` (the perturbed export's, where each forward float ``v`` was
    ``moved[name]``) as a function of the forward floats: ``p * v + q`` of one of them with round p and q (a
    negation, ``1 - v``, ``v / 2``), else ``c * prod(v ** +-1)`` over the fewest of them (``1 / tau``,
    ``input_scale * alpha * scale``), else ``c * prod(..) + q`` of two or more (``1 - lr * weight_decay``); None when
    nothing fits both exports."""
    def close(x: float, y: float) -> bool:
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)

    def round_number(x: float) -> float | None:   # two points fit any line: only round coefficients count
        r = float(f"{x:.4g}")
        return r if close(r, x) else None

    for attr, v in attrs.items():
        w = moved[attr]
        if w == v:
            continue
        p = round_number((b - a) / (w - v))
        q = round_number(a - p * v) if p else None
        if p and q is not None and close(p * v + q, a) and close(p * w + q, b):
            return ScaledAttr(((attr, 1),), p, q)
    names = list(attrs)[:4]
    combos = sorted((e for e in itertools.product((0, 1, -1), repeat=len(names)) if any(e)),
                    key=lambda e: sum(x != 0 for x in e))
    for e in combos:
        m = mw = 1.0
        try:
            for name, k in zip(names, e):
                m *= attrs[name] ** k
                mw *= moved[name] ** k
        except ZeroDivisionError:
            continue
        if m == 0 and mw == 0:
            continue
        c = round_number(a / m if m else b / mw)    # (an argument of 0 makes this export's product 0)
        if c and close(c * m, a) and close(c * mw, b):
            return ScaledAttr(tuple((name, k) for name, k in zip(names, e) if k), c)
    for e in combos:      # a product with an offset (AdamW's decay factor 1 - lr * weight_decay)
        if sum(x != 0 for x in e) < 2:
            continue
        try:
            m = math.prod(attrs[name] ** k for name, k in zip(names, e))
            mw = math.prod(moved[name] ** k for name, k in zip(names, e))
        except ZeroDivisionError:
            continue
        c = round_number((a - b) / (m - mw)) if m != mw else None
        q = round_number(a - c * m) if c else None
        if c and q is not None and close(c * m + q, a) and close(c * mw + q, b):
            return ScaledAttr(tuple((name, k) for name, k in zip(names, e) if k), c, q)
    return None


# ---- names -----------------------------------------------------------------------------------------

UNARY = {"neg", "relu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "abs", "reciprocal", "erf", "sin", "cos",
         "floor", "ceil", "round", "trunc", "sign", "log1p", "expm1", "silu", "hardswish", "hardsigmoid", "mish", "square",
         *MATH_LIBRARY}
# logic on bool tensors (0/1 values in the kernel): and = a * b, or = max(a, b), not = 1 - a
BOOL_LOGIC = {"bitwise_and": lambda a: ("mul", a[:2], {}), "logical_and": lambda a: ("mul", a[:2], {}),
              "bitwise_or": lambda a: ("maximum", a[:2], {}), "logical_or": lambda a: ("maximum", a[:2], {}),
              "bitwise_not": lambda a: ("sub", [1.0, a[0]], {}), "logical_not": lambda a: ("sub", [1.0, a[0]], {}),
              "logical_xor": lambda a: ("ne", a[:2], {})}
LOGICAL = {"logical_and", "logical_or", "logical_not", "logical_xor"}   # of any dtype: a value is true when != 0


def _is_bool(n: fx.Node) -> bool:
    v = n.meta.get("val")
    return v is not None and getattr(v, "dtype", None) == torch.bool


BINARY = {"add", "sub", "mul", "div", "maximum", "minimum", "pow", "gt", "lt", "ge", "le", "eq", "ne"}
IDENTITY = {"clone", "alias", "contiguous", "detach", "lift_fresh_copy", "_to_copy_same"}
VIEWS = {"view", "_unsafe_view", "reshape", "squeeze", "unsqueeze", "expand", "flatten"}
REDUCE = {"sum": "sum", "mean": "mean", "amax": "amax", "amin": "amin", "prod": "prod",
          "any": "amax", "all": "amin"}   # any / all of 0/1 values: their largest / smallest
REDUCTION_NAMES = {0: "none", 1: "mean", 2: "sum"}
BATCH_NORMS = {"_native_batch_norm_legit", "_native_batch_norm_legit_functional", "native_batch_norm",
               "_native_batch_norm_legit_no_training"}
TUPLE_FIRST = {"native_layer_norm", "log_sigmoid_forward", "nll_loss_forward", "native_group_norm",
               "rrelu_with_noise_functional", *BATCH_NORMS}
"""Core ops returning a tuple whose first element is the op's result (the rest are saved statistics)."""


def _init_index(t: torch.Tensor, init: list[torch.Tensor], taken: dict) -> int | None:
    """Which of the model's init tensors (not yet matched) a lifted module tensor is (by value)."""
    for k, c in enumerate(init):
        if k not in taken and c.shape == t.shape and c.dtype == t.dtype and bool(torch.equal(c.detach(), t.detach())):
            return k
    return None


def _dtype_name(dt: torch.dtype) -> str:
    return str(dt).replace("torch.", "")


def _dims(d: Any) -> Any:
    """A reduction's dims as the lowering takes them: None (all), an int, or a list."""
    if d is None or (isinstance(d, (list, tuple)) and len(d) == 0):
        return None
    if isinstance(d, (list, tuple)) and len(d) == 1:
        return int(d[0])
    return int(d) if isinstance(d, int) else list(d)   # aten.prod.dim_int takes one int


def _over_ones(x: Any, dims: Any) -> bool:
    """Whether a reduction of the float ``x`` over ``dims`` (given, not all) reduces only dimensions of size 1
    (an integer sum would change the dtype)."""
    val = x.meta.get("val") if isinstance(x, fx.Node) else None
    if val is None or not val.is_floating_point() or dims is None or (isinstance(dims, (list, tuple)) and not dims):
        return False
    ds = [int(d) for d in (dims if isinstance(dims, (list, tuple)) else [dims])]
    return all(-val.dim() <= d < val.dim() and int(val.shape[d]) == 1 for d in ds)


def _whole_vector(n: fx.Node) -> bool:
    """An argmax/argmin with no dim (over all elements) whose input is 1-D."""
    dim = n.args[1] if len(n.args) > 1 else n.kwargs.get("dim")
    return dim is None and isinstance(n.args[0], fx.Node) and n.args[0].meta["val"].dim() == 1


def _name(n: fx.Node) -> tuple[str, str]:
    t = n.target
    packet = getattr(t, "_overloadpacket", None)
    return (packet.__name__ if packet is not None else getattr(t, "__name__", str(t))), getattr(t, "_overloadname", "")


def _canonical(base: str, overload: str, args: list, kw: dict) -> tuple[str, list, dict]:
    """(drafter op, args, kwargs) of one core ATen call; AnalysisError for ops outside the vocabulary."""
    if base in UNARY:
        return base, [args[0]], {}
    if base in BINARY:
        out_kw = {"alpha": kw["alpha"]} if base in ("add", "sub") and kw.get("alpha", 1) != 1 else {}
        if base == "div" and kw.get("rounding_mode") is not None:
            raise AnalysisError(f"aten.div with rounding_mode={kw['rounding_mode']!r} is not covered by the templates")
        return base, list(args[:2]), out_kw
    if base in IDENTITY:
        return "identity", [args[0]], {}
    if base in VIEWS:
        return "view", [args[0]], {}
    if base == "_to_copy":
        return "cast", [args[0]], {}
    if base in ("clamp", "clamp_min", "clamp_max"):
        lo = args[1] if base == "clamp" and len(args) > 1 else (args[1] if base == "clamp_min" else None)
        hi = args[2] if base == "clamp" and len(args) > 2 else (args[1] if base == "clamp_max" else None)
        lo, hi = kw.get("min", lo), kw.get("max", hi)
        return "clamp", [args[0]], {k: v for k, v in (("min", lo), ("max", hi)) if v is not None}
    if base == "gelu":
        return "gelu", [args[0]], {"approximate": kw.get("approximate", "none")}
    if base == "leaky_relu":
        return "leaky_relu", [args[0]], {"negative_slope": args[1] if len(args) > 1 else 0.01}
    if base in ("rrelu_with_noise", "rrelu_with_noise_functional"):
        lower, upper = (args[2] if len(args) > 2 else kw.get("lower", 1 / 8)), (args[3] if len(args) > 3 else kw.get("upper", 1 / 3))
        if (args[4] if len(args) > 4 else kw.get("training", False)):
            raise AnalysisError("rrelu in training mode (a random slope per element) is not covered by the templates")
        # evaluation mode: a leaky relu whose slope is the mean of the bounds (the RReLU page)
        return "leaky_relu", [args[0]], {"negative_slope": (lower + upper) / 2}
    if base == "elu":
        alpha, scale, in_scale = (list(args[1:]) + [1.0, 1.0, 1.0])[:3]
        if isinstance(scale, float) and abs(scale - 1.0507009873554805) < 1e-9 and in_scale == 1:
            return "selu", [args[0]], {}
        if scale != 1 or in_scale != 1:
            raise AnalysisError(f"aten.elu with scale={scale} input_scale={in_scale} (celu) is not covered by the templates")
        return "elu", [args[0]], {"alpha": alpha}
    if base == "hardtanh":
        return "hardtanh", [args[0]], {"min_val": args[1] if len(args) > 1 else -1.0,
                                       "max_val": args[2] if len(args) > 2 else 1.0}
    if base == "softplus":
        return "softplus", [args[0]], {"beta": args[1] if len(args) > 1 else 1.0,
                                       "threshold": args[2] if len(args) > 2 else 20.0}
    if base == "log_sigmoid_forward":
        return "logsigmoid", [args[0]], {}
    if base in ("addcmul", "addcdiv"):
        return base, list(args[:3]), {"value": kw.get("value", 1.0)} if kw.get("value", 1.0) != 1.0 else {}
    if base == "lerp":
        return "lerp", list(args[:3]), {}
    if base == "mish_backward":               # (grad, x): the export keeps it (PyTorch's decomposition is not applied)
        return "mish_backward", list(args[:2]), {}
    if base == "where":
        return "where", list(args[:3]), {}
    if base in REDUCE:
        dim = _dims(args[1] if len(args) > 1 else kw.get("dim"))
        keep = bool(args[2] if len(args) > 2 else kw.get("keepdim", False))
        out: dict = {"dim": dim, "keepdim": keep} if dim is not None else {}
        return REDUCE[base], [args[0]], out
    if base in ("max", "min") and overload == "dim":
        return base, [args[0], int(args[1])], {"keepdim": bool(args[2]) if len(args) > 2 else False}
    if base in ("max", "min") and overload == "default":
        return base, [args[0]], {}
    if base in ("argmax", "argmin"):
        dim = args[1] if len(args) > 1 else kw.get("dim")
        if dim is None:
            raise AnalysisError(f"aten.{base} over all elements is not covered by the templates")
        return base, [args[0]], {"dim": int(dim), "keepdim": bool(args[2]) if len(args) > 2 else False}
    if base in ("cumsum", "cumprod"):
        return base, [args[0], int(args[1])], {}
    if base == "isnan":                       # x != x holds exactly for NaN
        return "ne", [args[0], args[0]], {}
    if base in ("_softmax", "_log_softmax"):
        return base[1:], [args[0]], {"dim": int(args[1])}
    if base == "logsumexp":
        return "logsumexp", [args[0]], {"dim": _dims(args[1]), "keepdim": bool(args[2]) if len(args) > 2 else False}
    if base == "native_layer_norm":
        return "layer_norm", [args[0], list(args[1]), args[2], args[3], args[4]], {}
    if base == "rms_norm":
        return "rms_norm", [args[0], list(args[1]), args[2] if len(args) > 2 else None,
                            args[3] if len(args) > 3 else kw.get("eps")], {}
    if base in ("mse_loss", "l1_loss"):
        red = args[2] if len(args) > 2 else kw.get("reduction", 1)
        return base, list(args[:2]), {"reduction": REDUCTION_NAMES.get(red, red)}
    raise AnalysisError(f"core op aten.{base}.{overload or 'default'} is not covered by the templates")


# ---- the graph ---------------------------------------------------------------------------------------

class _Reader:
    """One exported program -> OpGraph (with the constants of a second, perturbed export to find attrs)."""

    def __init__(self, ep: torch.export.ExportedProgram, other: torch.export.ExportedProgram | None,
                 inputs: list[Any], init: list[Any], drawn: set[str] | frozenset = frozenset()):
        self.ep, self.other, self.inputs = ep, other, inputs
        self.drawn = drawn                    # module tensors of one value drawn at random: inputs, not numbers
        self.g = OpGraph(init=list(init))
        self.known: set[str] = set()          # names of nodes the graph holds (inputs, attrs, ops)
        self.consts: dict[str, Any] = {}      # fx node name -> Python value (uniform parameters, scalar_tensor)
        self.alias: dict[str, str] = {}       # fx node name -> graph node it stands for (getitem 0 of a TUPLE_FIRST op)
        self.attr_values: dict[str, float] = {}
        self.attr_moved: dict[str, float] = {}  # each float attr's value in the perturbed export
        self.derived = True                   # numbers computed from float attrs read as such (ScaledAttr)
        self.pointwise = False                # conv() reads a pointwise op's operands (an int may be an attr)
        self.skip: set[str] = set()           # fx nodes a recognised pattern stands in for
        self.cast_of: dict[str, fx.Node] = {}  # a cast of an input read only in windows: cast per window
        self.scan_kw: dict[str, dict] = {}    # scan node name -> reverse / exclusive
        self.scan_src: dict[str, fx.Node] = {}  # scan node name -> the tensor it scans (an exclusive scan's whole input)

    # placeholders: user inputs become tensors / attrs, lifted parameters become constants
    def placeholders(self) -> None:
        sig = self.ep.graph_signature
        user = [s for s in sig.input_specs if s.kind.name == "USER_INPUT"]
        # torch.export takes a tuple or list argument (permute's dims, pad's sizes) apart: one input an item
        flat: list[tuple[Any, bool]] = []     # (value, taken from a tuple or list)
        for k, v in enumerate(self.inputs):
            if not isinstance(v, (tuple, list)):
                flat.append((v, False))
            elif any(isinstance(x, torch.Tensor) for x in pytree.tree_leaves(v)):
                raise AnalysisError(f"forward argument {k} is a {type(v).__name__} of tensors (the templates take "
                                    "tensors one argument each)")
            else:
                flat += [(x, True) for x in pytree.tree_leaves(v)]
        if len(user) != len(flat):
            raise AnalysisError(f"forward takes {len(user)} arguments but the case gives {len(flat)}")
        by_name = {s.arg.name: s for s in sig.input_specs if hasattr(s.arg, "name")}
        values = iter(flat)
        floats = ints = 0                 # float / int arguments so far (each moved its own way: moved_numbers)
        init_tensors = [t for t in self.g.init if isinstance(t, torch.Tensor)]
        taken: dict[int, OpNode] = {}     # init tensor index -> the op input it becomes
        module: list[OpNode] = []         # the model's own weights (parameters first, in module order)
        lifted: list[tuple[str, str, torch.Tensor]] = []   # one-valued constant tensors (torch.as_tensor(x))
        live = live_nodes(self.ep)
        for n in self.ep.graph.nodes:
            if n.op != "placeholder":
                continue
            spec = by_name.get(n.name)
            if spec is None or spec.kind.name == "USER_INPUT":
                v, item = next(values)
                if item and not isinstance(v, torch.Tensor):
                    self.consts[n.name] = v   # an item of a sizes/dims argument: the graph is specialised on it
                elif isinstance(v, torch.Tensor):
                    self.g.inputs.append(OpNode(n.name, "input", [], {}, tuple(v.shape), _dtype_name(v.dtype)))
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    self.g.attrs.append(OpNode(n.name, "attr", [], {"value": float(v), "param": n.name}, None, "float32"))
                    self.attr_moved[n.name] = _perturbed(v, floats) if isinstance(v, float) else float(_moved_int(v, ints))
                    floats += isinstance(v, float)
                    ints += isinstance(v, int)
                    self.attr_values[n.name] = float(v)
                elif v is None or isinstance(v, (bool, str)):
                    self.consts[n.name] = v   # a flag or mode: torch.export specialised the graph on it
                else:
                    raise AnalysisError(f"forward argument {n.name} of type {type(v).__name__} is not a tensor or a number")
                self.known.add(n.name)
                continue
            if n.name not in live:
                continue       # read only by shape checks (torch.tensor(x.shape).prod().item()): no op input
            t = self.ep.state_dict.get(spec.target) if spec.target in self.ep.state_dict else self.ep.constants.get(spec.target)
            if isinstance(t, torch.Tensor) and not t.is_floating_point() and n.users and \
                    all(u.name in self.skip for u in n.users):
                continue       # a bool/int buffer only a recognised pattern reads (a triangle mask): not an op input
            if not isinstance(t, torch.Tensor):
                raise AnalysisError(f"the reference reads {spec.target} ({spec.kind.name.lower()}) that is not a tensor")
            k = _init_index(t, init_tensors, taken)
            if k is not None:   # a tensor given to __init__: the harness passes init tensors after the inputs
                taken[k] = OpNode(n.name, "input", [], {}, tuple(t.shape), _dtype_name(t.dtype))
                self.known.add(n.name)
                continue
            flat = t.detach().reshape(-1)
            if flat.numel() and bool(torch.all(flat == flat[0])) and spec.target not in self.drawn:
                self.consts[n.name] = float(flat[0])
                if spec.kind.name == "CONSTANT_TENSOR" and t.is_floating_point():
                    lifted.append((n.name, spec.target, t))
            elif t.is_floating_point() and spec.kind.name in ("PARAMETER", "BUFFER"):
                # the model's own weight: an op input the harness passes after the rest (module_tensors)
                module.append(OpNode(n.name, "input", [], {}, tuple(t.shape), _dtype_name(t.dtype)))
                self.known.add(n.name)
            else:
                raise AnalysisError(f"the reference reads the {spec.kind.name.lower().replace('_', ' ')} '{spec.target}' "
                                    f"of shape {list(t.shape)} (only floating-point weights of the module are op inputs)")
        self.g.forward = len(self.g.inputs)
        self.g.inputs += [taken[k] for k in sorted(taken)] + module
        for name, target, t in lifted:
            self._lifted_attr(name, target, t)

    def _lifted_attr(self, name: str, target: str, t: torch.Tensor) -> None:
        """``torch.as_tensor(alpha, dtype=x.dtype)`` of a forward float: torch.export lifts the value as a constant
        tensor. One that moved with the perturbed export and holds a forward float rounded to its dtype is that
        float, cast to the dtype (each case's value at run time, not the first case's)."""
        moved = self.other.constants.get(target) if self.other is not None else None
        if not isinstance(moved, torch.Tensor) or moved.shape != t.shape or bool(torch.equal(moved, t)):
            return
        for attr, v in self.attr_values.items():
            if float(torch.tensor(v, dtype=t.dtype)) == self.consts[name]:
                del self.consts[name]
                self.g.nodes.append(OpNode(name, "cast", [Ref(attr)], {}, tuple(t.shape), _dtype_name(t.dtype)))
                self.known.add(name)
                return

    def conv(self, a: Any, b: Any = None) -> Any:
        """An fx argument as the OpGraph takes it; ``b`` is the same argument in the perturbed export."""
        if isinstance(a, fx.Node):
            if a.name in self.consts:
                return self.consts[a.name]
            name = self.alias.get(a.name, a.name)
            if name not in self.known:
                raise AnalysisError(f"value {a.name} is not computed by a covered op")
            return Ref(name)
        if isinstance(a, (list, tuple)):
            bs = b if isinstance(b, (list, tuple)) and len(b) == len(a) else [None] * len(a)
            return type(a)(self.conv(x, y) for x, y in zip(a, bs))
        if isinstance(a, torch.dtype):
            return _dtype_name(a)
        if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and a != b and self.pointwise:
            for attr, v in self.attr_values.items():   # an int constant of a pointwise op that moved with an int one
                if v == a and self.attr_moved[attr] == b:
                    return Ref(attr)
        if isinstance(a, float) and isinstance(b, float) and a != b:
            for attr, v in self.attr_values.items():   # a constant that moved with a forward float argument
                if math.isclose(v, a, rel_tol=1e-12, abs_tol=0.0) and math.isclose(self.attr_moved[attr], b, rel_tol=1e-12):
                    return Ref(attr)
            derived = _derived(self.attr_values, self.attr_moved, a, b) if self.derived else None
            if derived is not None:          # ... or was computed from them (-beta, 1 - alpha, 1 / tau)
                return derived
        return a

    def nodes(self) -> None:
        other = [n for n in self.other.graph.nodes if n.op == "call_function"] if self.other else []
        mine = [n for n in self.ep.graph.nodes if n.op == "call_function"]
        if not self.other or not _same_path(self.ep, self.other):
            other = []                         # the perturbed export took another path: no attr matching
        users = {n.name: len(n.users) for n in self.ep.graph.nodes}
        self._scans(mine)
        live = live_nodes(self.ep)
        for k, n in enumerate(mine):
            base, overload = _name(n)
            if n.name not in live:
                continue        # it only updates module state (a batch norm's running statistics)
            if base == "_assert_tensor_metadata" or (users[n.name] == 0 and base.startswith("_assert")):
                continue
            if n.name in self.skip:
                continue
            if n.name in self.scan_kw:
                src = self.scan_src.get(n.name, n.args[0])
                self._add(n, base, [self.conv(src), int(n.args[1])], dict(self.scan_kw[n.name]),
                          shape_of=self.scan_src.get(n.name))   # an exclusive scan has its whole input's shape
                continue
            o = other[k] if other else None
            if n.target is operator.getitem:
                src = n.args[0]
                if _name(src)[0] in ("split_with_sizes", "split"):   # chunk / split: a window of the input
                    sizes, d = _split_sizes(src)
                    start = sum(sizes[:int(n.args[1])])
                    self._window(n, src.args[0], d, start, start + sizes[int(n.args[1])])
                    continue
                if _name(src)[0] in TUPLE_FIRST and n.args[1] == 0:
                    self.alias[n.name] = self.alias.get(src.name, src.name)
                    continue
                if _name(src)[0] in ("max", "min"):
                    self._add(n, "getitem", [Ref(src.name), int(n.args[1])], {})
                    continue
                raise AnalysisError(f"element {n.args[1]} of aten.{_name(src)[0]} is not covered by the templates")
            if base == "isinf":                # |x| == inf
                x = self.conv(n.args[0])
                shape = tuple(int(d) for d in n.args[0].meta["val"].shape)
                self.g.nodes.append(OpNode(f"{n.name}_abs", "abs", [x], {}, shape, _dtype_name(n.args[0].meta["val"].dtype)))
                self.known.add(f"{n.name}_abs")
                self._add(n, "eq", [Ref(f"{n.name}_abs"), float("inf")], {})
                continue
            self.pointwise = base in ("scalar_tensor", "full", "full_like") or (
                isinstance(n.target, torch._ops.OpOverload) and torch.Tag.pointwise in n.target.tags)
            if base == "scalar_tensor":
                self.consts[n.name] = self.conv(n.args[0], o.args[0] if o else None)
                continue
            if base == "empty" and n.users and all(_name(u)[0].startswith("rrelu_with_noise") for u in n.users):
                self.consts[n.name] = 0.0      # the noise buffer of an rrelu in evaluation mode: never read
                continue
            if (base == "full" and isinstance(n.args[1], fx.Node) and n.args[1].target in ITEMS
                    and n.args[1].args[0].meta["val"].dtype == n.meta["val"].dtype == torch.bool):
                # torch.full(dims, v.item()) of a one-element bool v (the export keeps a bool item as it is): v
                # broadcast to the result
                self._add(n, "view", [self.conv(n.args[1].args[0])], {})
                self.g.expanded.add(n.name)
                continue
            if base == "full" and (_numel_of(n) == 1 or tuple(self._shape_of(n)) in self._input_shapes()):
                # a one-value constant (binary_cross_entropy's -100 floor), or one of an input's shape
                # (torch.zeros(x.shape)): beside that input it broadcasts like the number
                self.consts[n.name] = self.conv(n.args[1], o.args[1] if o else None)
                continue
            if base == "full_like":   # zeros_like(x), full_like(x, v): its value, used as a number
                self.consts[n.name] = self.conv(n.args[1], o.args[1] if o else None)
                continue
            if base in ("split_with_sizes", "split"):
                continue                       # each getitem of it is a window (above)
            if (base == "_to_copy" and n.users and isinstance(n.args[0], fx.Node) and _windows_only(n)
                    and self.alias.get(n.args[0].name, n.args[0].name) in {i.name for i in self.g.inputs}):
                self.cast_of[n.name] = n       # a cast read only in windows (F.glu in half): each window cast
                continue
            if base in IDENTITY and isinstance(n.args[0], fx.Node) and n.args[0].name in self.cast_of:
                self.cast_of[n.name] = self.cast_of[n.args[0].name]   # a clone of such a cast: the same windows
                continue
            if base == "slice" and n.users and all(_name(u)[0] == "copy" and u.args[0] is n for u in n.users):
                continue                       # the destination of x[..., a:b] = v (slice_scatter below)
            if base == "copy" and self._copied(n):
                continue
            if base == "slice_scatter":
                self._scatter_pieces(n)
                continue
            if base == "slice":
                rest = list(n.args[1:]) + [None] * (5 - len(n.args))
                d, lo, hi, step = (0 if rest[0] is None else rest[0], rest[1] or 0, rest[2], rest[3] or 1)
                if step != 1:
                    raise AnalysisError(f"core op aten.slice with a step of {step} (of {self._shape_of(n.args[0])}) is "
                                        f"not covered by the templates")
                self._window(n, n.args[0], d, lo, hi)
                continue
            if base == "cat" and self._pieces(n):
                continue
            if base == "_local_scalar_dense" and isinstance(n.args[0], fx.Node) and _numel_of(n.args[0]) == 1:
                self.alias[n.name] = self.alias.get(n.args[0].name, n.args[0].name)   # t.item(): t's one value
                continue
            if base == "view_as_real" and isinstance(n.args[0], fx.Node) and n.args[0].op == "placeholder":
                continue                       # a complex input's pairs: read through its parts (below)
            if base == "select" and isinstance(n.args[0], fx.Node) and _name(n.args[0])[0] == "view_as_real":
                src = n.args[0].args[0]        # a complex input's real (0) or imaginary (1) part (complexparts.py)
                self._add(n, "part", [Ref(self.alias.get(src.name, src.name))], {"part": int(n.args[2]) % 2})
                continue
            if base == "complex":              # a complex result from its parts (complexparts.py)
                self._add(n, "complex", [self.conv(a) for a in n.args], {})
                continue
            if base == "select" and isinstance(n.args[0], fx.Node) and _numel_of(n.args[0]) == 1:
                self.alias[n.name] = self.alias.get(n.args[0].name, n.args[0].name)   # alpha[0] of a one-element alpha
                continue
            if base == "select":
                raise AnalysisError(f"core op aten.{base} (a slice of {self._shape_of(n.args[0])}) is not covered by the "
                                    f"templates")
            if base == "expand" and _materialised(n):
                raise AnalysisError(f"core op aten.expand copied into a tensor of its own (repeat_interleave, repeat: "
                                    f"input of shape {self._shape_of(n.args[0])}) is not covered by the templates")
            args = [self.conv(a, o.args[i] if o and i < len(o.args) else None) for i, a in enumerate(n.args)]
            kw = {key: self.conv(a, o.kwargs.get(key) if o else None) for key, a in n.kwargs.items()}
            if base in VIEWS and args and isinstance(args[0], float):
                self.consts[n.name] = args[0]    # a view of a module tensor of one value: still that number
                continue
            same = _unit_operand(n, base, args)
            if same is not None:                 # x * 1, x + 0 (a default affine's weight and bias): x itself
                self.alias[n.name] = self.alias.get(same.name, same.name)
                continue
            if base in LOGICAL and not all(_is_bool(a) for a in n.args if isinstance(a, fx.Node)):
                args = [self._truth(n, k, a, x) for k, (a, x) in enumerate(zip(n.args, args))]
            if base in BOOL_LOGIC and (base in LOGICAL or all(_is_bool(a) for a in n.args if isinstance(a, fx.Node))):
                op, args, kw = BOOL_LOGIC[base](args)
            elif base in ("nll_loss", "nll_loss_forward"):
                op, args, kw = self._nll_loss(n, base, args)
            elif base in BATCH_NORMS or base == "native_group_norm":
                op, args, kw = self._norm(n, base, args)
            elif (base in REDUCE or base == "logsumexp") and _over_ones(n.args[0], n.args[1] if len(n.args) > 1
                                                                     else n.kwargs.get("dim")):
                op, args, kw = "view", [args[0]], {}   # over dimensions of size 1: each value is its own sum, mean, max
            elif base in ("argmax", "argmin") and _whole_vector(n):
                # over all elements of a 1-D tensor: its one dimension (BLAS's i?amax over a vector)
                op, args, kw = base, [args[0]], {"dim": 0, "keepdim": bool(kw.get("keepdim", False))}
            else:
                try:
                    op, args, kw = _canonical(base, overload, args, kw)
                except AnalysisError as e:
                    if base in ("full", "empty", "arange"):   # no input: the shape it makes
                        raise AnalysisError(f"{e} (a tensor it makes of shape {self._shape_of(n)})") from None
                    raise AnalysisError(f"{e} (input of shape {self._shape_of(n.args[0])})") from None
            self._add(n, op, args, kw)
            if base == "expand":
                self.g.expanded.add(n.name)

    def _truth(self, n: fx.Node, k: int, a: Any, conv: Any) -> Any:
        """Operand ``k`` of a logical op as a bool: a non-bool tensor is ``a != 0`` (PyTorch's truth of a value)."""
        if not isinstance(a, fx.Node) or _is_bool(a):
            return conv
        name = f"{n.name}_truth{k}"
        shape = tuple(int(d) for d in a.meta["val"].shape)
        self.g.nodes.append(OpNode(name, "ne", [conv, 0.0], {}, shape, "bool"))
        self.known.add(name)
        return Ref(name)

    def _scans(self, mine: list[fx.Node]) -> None:
        """Scans written around a cumsum/cumprod: ``flip -> scan -> flip`` over the scan's dimension is a
        reversed scan; ``cat([zeros of length 1, scan(x[..., :n-1])])`` along it is an exclusive scan."""
        def dim_of(n: fx.Node, d: Any) -> int:
            rank = len(n.meta["val"].shape)
            return int(d) % rank
        for s in mine:
            if _name(s)[0] not in ("cumsum", "cumprod"):
                continue
            x, d = s.args[0], dim_of(s, s.args[1])
            kw: dict = {}
            if (isinstance(x, fx.Node) and _name(x)[0] == "flip" and len(x.users) == 1 and len(s.users) == 1
                    and [dim_of(x, v) for v in x.args[1]] == [d]):
                out = next(iter(s.users))
                if _name(out)[0] == "flip" and [dim_of(out, v) for v in out.args[1]] == [d]:
                    kw["reverse"] = True
                    self.skip.add(x.name)
                    self.scan_src[s.name] = x.args[0]
                    self.alias[out.name] = s.name
                    self.skip.add(out.name)
            if (not kw and isinstance(x, fx.Node) and _name(x)[0] == "slice" and len(s.users) == 1
                    and dim_of(x, x.args[1]) == d and len(x.args) > 3 and x.args[2] == 0):
                whole = x.args[0]
                n_full = int(whole.meta["val"].shape[d])
                cat = next(iter(s.users))
                if (x.args[3] in (n_full - 1, -1) and _name(cat)[0] == "cat" and len(cat.args[0]) == 2
                        and cat.args[0][1] is s and dim_of(cat, cat.args[1] if len(cat.args) > 1 else 0) == d):
                    z = cat.args[0][0]
                    zero = _name(z)[0] in ("full_like", "full", "zeros_like", "zeros") and \
                        (_name(z)[0].startswith("zeros") or float(z.args[1]) == 0.0)
                    if zero and int(z.meta["val"].shape[d]) == 1:
                        kw["exclusive"] = True
                        self.scan_src[s.name] = whole
                        self.alias[cat.name] = s.name
                        self.skip.update({x.name, cat.name})
                        self._dead_inputs(z)
            if kw:
                self.scan_kw[s.name] = kw

    def _input_shapes(self) -> list[tuple]:
        return [tuple(int(d) for d in i.shape or ()) for i in self.g.inputs]

    def _fill(self, o: fx.Node) -> fx.Node:
        """A result that is one value throughout (a ``fill`` op of the result's shape; the kernel reads no input)."""
        shape = tuple(int(d) for d in self._shape_of(o))
        if shape not in self._input_shapes():
            raise AnalysisError(f"a result of one value of shape {list(shape)}, no input's shape, is not covered "
                                "by the templates")
        value = self.consts[o.name]
        if not isinstance(value, (int, float, bool)):
            raise AnalysisError("a result of one value given by an attribute is not covered by the templates")
        self.g.nodes.append(OpNode(o.name, "fill", [float(value)], {}, shape, _dtype_name(o.meta["val"].dtype)))
        self.known.add(o.name)
        return o

    def _dead_inputs(self, n: fx.Node) -> None:
        """Skip ``n`` and the nodes only it uses (the zeros block of an exclusive scan and its shape queries)."""
        self.skip.add(n.name)
        for a in n.all_input_nodes:
            if a.op == "call_function" and all(u.name in self.skip for u in a.users):
                self._dead_inputs(a)

    def _norm(self, n: fx.Node, base: str, args: list) -> tuple[str, list, dict]:
        """Batch norms over one sample (instance norm is one, on ``[1, N*C, *spatial]``) and group norms
        are layer norms over the trailing dimensions (a group norm's rows are its groups)."""
        shape = self._shape_of(n.args[0])
        if base == "native_group_norm":    # (x, weight, bias, N, C, HxW, groups, eps)
            w, b, groups, eps = args[1], args[2], int(args[6]), args[7]
            if isinstance(w, Ref) or isinstance(b, Ref):
                raise AnalysisError(f"core op aten.native_group_norm with per-channel weight or bias (input of shape "
                                    f"{shape}) is not covered by the templates")
            return "layer_norm", [args[0], shape[1:], w, b, eps], {"groups": groups}
        training = args[5] if base in ("_native_batch_norm_legit_functional", "native_batch_norm") or \
            (base == "_native_batch_norm_legit" and len(args) == 8) else (args[3] if base == "_native_batch_norm_legit" else False)
        eps = args[-1]
        if isinstance(args[1], Ref) or isinstance(args[2], Ref):
            raise AnalysisError(f"core op aten.{base} with a per-channel weight or bias (input of shape {shape}) is "
                                f"not covered by the templates (a module's default ones and zeros are)")
        if not training or not shape:
            raise AnalysisError(f"core op aten.{base} (batch statistics over an inner dimension, input of shape "
                                f"{shape}) is not covered by the templates")
        if shape[0] != 1 and len(shape) >= 2:
            # statistics per channel over the samples and the dimensions after the channels (bnplan.py)
            return "batch_norm", [args[0], args[1], args[2], eps], {}
        return "layer_norm", [args[0], shape[2:], args[1], args[2], eps], {}

    def _nll_loss(self, n: fx.Node, base: str, args: list) -> tuple[str, list, dict]:
        """``nll_loss(log_probs, target, weight=None, reduction=mean, ignore_index=-100)`` (and its
        ``nll_loss_forward`` form): ``nll_loss(log_softmax(x, 1), target)`` with no weight and the default
        ignore index is ``cross_entropy(x, target)``; any other is the ``nll_loss`` composite (a per-row pick
        of the target's log-probability, weighted, ignored rows left out of sum and mean)."""
        args = list(args) + [None, 1, -100][len(args) - 2:]          # the schema's defaults
        weight, red, ignore = args[2], REDUCTION_NAMES.get(args[3], args[3]), int(args[4])
        logp = n.args[0]
        if (isinstance(logp, fx.Node) and _name(logp)[0] == "_log_softmax" and weight is None and ignore == -100
                and len(logp.users) == 1):
            self.g.nodes = [m for m in self.g.nodes if m.name != logp.name]
            return "cross_entropy", [self.conv(logp.args[0]), args[1]], {"reduction": red}
        if len(self._shape_of(logp)) != 2:
            raise AnalysisError(f"core op aten.{base} over input of shape {self._shape_of(logp)} is not covered by the "
                                f"templates (log-probabilities [N, C] and class indices [N] are)")
        return "nll_loss", [args[0], args[1], weight], {"reduction": red, "ignore_index": ignore}

    def _shape_of(self, a: Any) -> list:
        v = a.meta.get("val") if isinstance(a, fx.Node) else None
        return list(v.shape) if isinstance(v, torch.Tensor) else []

    def _pieces(self, n: fx.Node) -> bool:
        """``torch.cat(pieces, -1)`` of equal pieces as the reference's output (SwiGLU's gradient): a ``cat`` node
        the row template writes a window of each output row per piece; False for any other cat."""
        pieces, dim = n.args[0], n.args[1] if len(n.args) > 1 else n.kwargs.get("dim", 0)
        v = n.meta.get("val")
        if not isinstance(v, torch.Tensor) or len(pieces) < 2:
            return False
        d = int(dim) % v.dim()
        kw = {} if d == v.dim() - 1 else {"dim": d}     # along an earlier dimension: collapse_windows or refused
        shapes = {tuple(p.meta["val"].shape) for p in pieces if isinstance(p, fx.Node)}
        if len(shapes) != 1 or not all(isinstance(p, fx.Node) for p in pieces):
            return False
        args = [self.conv(p) for p in pieces]
        users = [u for u in n.users if not _name(u)[0].startswith("_assert")]
        if len(users) == 1 and _name(users[0])[0] == "_to_copy" and not users[0].kwargs.keys() - {"dtype"}:
            out = users[0]                 # cat(...).to(dtype): each piece cast, then the pieces side by side
            dt = _dtype_name(out.meta["val"].dtype)
            for k, a in enumerate(args):
                name = f"{out.name}_piece{k}"
                self.g.nodes.append(OpNode(name, "cast", [a], {}, shapes.copy().pop(), dt))
                self.known.add(name)
                args[k] = Ref(name)
            self.skip.add(out.name)
            self._add(out, "cat", args, dict(kw))
            self.alias[n.name] = out.name
            return True
        self._add(n, "cat", args, dict(kw))
        return True

    def _copied(self, n: fx.Node) -> bool:
        """``aten.copy(dst, src)`` of an assignment ``x[..., a:b] = v``: the values of ``v`` (cast to the
        destination's dtype) in the destination's shape; False when the shapes differ (a broadcast copy)."""
        dst, src = n.args[0], n.args[1]
        if not isinstance(src, fx.Node) or tuple(src.meta["val"].shape) != tuple(dst.meta["val"].shape):
            return False
        if src.meta["val"].dtype == dst.meta["val"].dtype:
            self.alias[n.name] = self.alias.get(src.name, src.name)
        else:
            self._add(n, "cast", [self.conv(src)], {})
        return True

    def _scatter_pieces(self, n: fx.Node) -> None:
        """``y = x.clone(); y[..., a:b] = v`` (``aten.slice_scatter`` along the last dimension of a forward input):
        the rows of ``x`` with columns a..b replaced, i.e. ``torch.cat`` of the window before, ``v`` and the
        window after: the row template's concatenated output (pieces of one width)."""
        base, src = n.args[0], n.args[1]
        rest = list(n.args[2:]) + [None] * (6 - len(n.args))
        dim, start, end, step = (rest[0] or 0), (rest[1] or 0), rest[2], (rest[3] or 1)
        shape = [int(v) for v in base.meta["val"].shape]
        d = int(dim) % len(shape)
        base = _through_clones(base)           # y = x.clone(): x's rows
        cast = self.cast_of.get(base.name)     # y = x.to(dtype).clone(): windows of x, each cast
        x = self.alias.get(base.name, base.name) if cast is None else self.alias.get(cast.args[0].name, cast.args[0].name)
        if d != len(shape) - 1 or step != 1 or x not in {i.name for i in self.g.inputs}:
            raise AnalysisError(f"core op aten.slice_scatter along dim {d} (step {step}) of a tensor of shape {shape} "
                                f"is not covered by the templates (an assignment to columns of a forward input is)")
        cols = shape[-1]
        lo = max(0, min(cols, int(start) + cols if int(start) < 0 else int(start)))
        hi = cols if end is None else int(end)
        hi = max(lo, min(cols, hi + cols if hi < 0 else hi))
        widths = [w for w in (lo, hi - lo, cols - hi) if w]
        if len(set(widths)) != 1:
            raise AnalysisError(f"an assignment to columns {lo}..{hi} of rows of {cols}: pieces of widths {widths} (the "
                                f"templates write pieces of one width side by side)")
        pieces = []
        for k, (a, b) in enumerate(((0, lo), (hi, cols))):
            if b > a:
                name = f"{n.name}_keep{k}"
                src_dt = cast.args[0].meta["val"].dtype if cast is not None else base.meta["val"].dtype
                self.g.nodes.append(OpNode(name, "slice", [Ref(x)], {"window": [a, b]}, tuple(shape[:-1] + [b - a]),
                                           _dtype_name(src_dt)))
                if cast is not None:
                    self.g.nodes.append(OpNode(f"{name}_cast", "cast", [Ref(name)], {}, tuple(shape[:-1] + [b - a]),
                                               _dtype_name(base.meta["val"].dtype)))
                    self.known.add(name)
                    name = f"{name}_cast"
                self.known.add(name)
                pieces.append(Ref(name))
        pieces.insert(1 if lo else 0, self.conv(src))
        self._add(n, "cat", pieces, {})

    def _window(self, n: fx.Node, x: fx.Node, dim: int, start: int, end: Any) -> None:
        """``x[..., start:end]``: a window of a forward input's rows (the row template copies each window in on
        its own); the whole of ``x`` is ``x`` itself."""
        shape = [int(v) for v in x.meta["val"].shape]
        d = int(dim) % len(shape)
        size = shape[d]
        lo = max(0, min(size, int(start) + size if int(start) < 0 else int(start)))
        hi = size if end is None else int(end)
        hi = max(lo, min(size, hi + size if hi < 0 else hi))
        if lo == 0 and hi == size:
            self.alias[n.name] = self.alias.get(x.name, x.name)
            return
        x = _through_clones(x)                 # y = x.clone(); y[..., a:b]: a window of x
        cast = self.cast_of.get(x.name)
        if cast is not None:
            x = cast.args[0]
        src = self.alias.get(x.name, x.name)
        if src not in {i.name for i in self.g.inputs}:
            raise AnalysisError(f"core op aten.slice along dim {d} of a computed value of shape {shape} is not covered by "
                                f"the templates (windows of a forward input are)")
        # (a list: sizes differ between cases); a window along an earlier dimension is made a window of the last by
        # collapse_windows, or refused there
        kw: dict[str, Any] = {"window": [lo, hi]} if d == len(shape) - 1 else {"window": [lo, hi], "dim": d}
        if cast is None:
            self._add(n, "slice", [Ref(src)], kw)
            return
        win = OpNode(f"{n.name}_window", "slice", [Ref(src)], kw,
                     tuple(int(v) for v in n.meta["val"].shape), _dtype_name(x.meta["val"].dtype))
        self.g.nodes.append(win)
        self.known.add(win.name)
        self._add(n, "cast", [Ref(win.name)], {})

    def _add(self, n: fx.Node, op: str, args: list, kw: dict, shape_of: fx.Node | None = None) -> None:
        v = n.meta.get("val")
        if shape_of is not None:
            v = torch.empty(shape_of.meta["val"].shape, dtype=v.dtype, device="meta")
        if _name(n)[0] in TUPLE_FIRST and isinstance(v, (tuple, list)):
            v = v[0]                       # the op's result; the rest are saved statistics
        if isinstance(v, torch.Tensor):
            shape, dt = tuple(int(d) for d in v.shape), _dtype_name(v.dtype)
        elif isinstance(v, (tuple, list)):
            shape, dt = None, None
        else:
            raise AnalysisError(f"{op} ({n.name}) does not produce a tensor")
        if op == "layer_norm":  # parameters of one value: 1 / 0 are no weight / no bias; others are scalars
            if args[2] == 1.0:
                args[2] = None
            if args[3] == 0.0:
                args[3] = None
        self.g.nodes.append(OpNode(n.name, op, args, kw, shape, dt))
        self.known.add(n.name)

    def outputs(self) -> None:
        out = next(n for n in self.ep.graph.nodes if n.op == "output").args[0]
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        kinds = [s.kind.name for s in self.ep.graph_signature.output_specs]
        if len(kinds) == len(outs):        # buffer mutations (a batch norm's running stats) are not results
            outs = [o for o, k in zip(outs, kinds) if k == "USER_OUTPUT"]
        for o in outs:
            if isinstance(o, fx.Node) and o.name in self.consts and _numel_of(o) > 0:
                o = self._fill(o)          # zeros_like(x), torch.full(x.shape, v): a result of one value
            name = self.alias.get(o.name, o.name) if isinstance(o, fx.Node) else None
            if name is None or name not in self.known or not any(name == m.name for m in (*self.g.nodes, *self.g.inputs)):
                raise AnalysisError("the reference must return a tensor or a tuple of tensors computed from its inputs")
            if any(name == m.name for m in self.g.inputs):   # an input returned as it is: a copy
                node = self.g.node(name)
                copy_name = f"{name}_copy"
                self.g.nodes.append(OpNode(copy_name, "identity", [Ref(name)], {}, node.shape, node.dtype))
                name = copy_name
            self.g.outputs.append(name)


ROW_OPS = {"sum", "mean", "amax", "amin", "softmax", "log_softmax", "logsumexp"}


def collapse_rows(g: OpGraph) -> None:
    """Reductions and norms over the last k > 1 dimensions (``nn.LayerNorm((C, H, W))``, an instance norm,
    ``x.mean((-2, -1), keepdim=True)``, a group norm) become row programs: the graph's shapes are rewritten
    with those dimensions as one row (split into the group norm's groups), and ``g.row_dims``/``row_div``
    tell the host how to compute the row length from the runtime shape. Contiguous memory makes the rows
    exactly the elements the reference reduces."""
    if not g.inputs:
        return
    full = max(g.inputs, key=lambda n: _numel(n.shape)).shape or ()
    r = len(full)
    ks: set[int] = set()
    div = 1
    for n in g.nodes:
        if n.op == "layer_norm":
            ks.add(len(n.args[1]))
            div = max(div, int(n.kwargs.get("groups", 1)))
        elif n.op in ROW_OPS and isinstance(n.kwargs.get("dim"), (list, int)) and not isinstance(n.kwargs["dim"], bool):
            rank = len(g.node(n.args[0].name).shape or ()) if isinstance(n.args[0], Ref) else r
            dim = n.kwargs["dim"]
            if rank == 0:
                continue
            dims = sorted({int(d) % rank for d in (dim if isinstance(dim, list) else [dim])})
            if rank != r or dims != list(range(r - len(dims), r)):
                multi = [m for m in g.nodes if m.op == "layer_norm" and (len(m.args[1]) > 1 or m.kwargs.get("groups", 1) > 1)]
                if multi:           # a group/instance norm's rows are not this reduction's: two kernel structures
                    raise AnalysisError(f"a norm over several trailing dimensions and a {n.op} over dimension(s) "
                                        f"{dims} in one reference are not covered by the templates")
                return              # not trailing: left to the lowering, which says what it covers
            ks.add(len(dims))
    if not ks or ks == {1} and div == 1:
        return
    if len(ks) != 1:
        raise AnalysisError("reductions over different sets of trailing dimensions in one reference")
    k = ks.pop()
    tail = tuple(full[-k:])
    cols = _numel(tail) // div

    def rows(shape: Any) -> Any:
        if shape is None or len(shape) < k:
            return shape
        lead = tuple(shape[:-k])
        if tuple(shape[-k:]) == tail:
            if div > 1:
                if not lead:
                    raise AnalysisError("a group norm's per-channel tensor is not covered by the templates (a float32 group "
                                "norm's own weight and bias are: a second stage applies them)")
                lead = lead[:-1] + (lead[-1] * div,)
            return lead + (cols,)
        if len(shape) == r and all(d == 1 for d in shape[-k:]):     # a kept-dims reduction result
            return (lead[:-1] + (lead[-1] * div,) if div > 1 and lead else lead) + (1,)
        if len(shape) < r and div == 1 and all(d == 1 for d in shape[-k:]):   # one value per row, broadcast ([C, 1, 1])
            return lead + (1,)
        if div > 1 and len(shape) == r and any(d != 1 for d in shape[-k:]):
            # a [1, C, 1, 1] scale after a group norm varies inside a group's row: not one value per row
            raise AnalysisError("a group norm's per-channel tensor is not covered by the templates (a float32 group "
                                "norm's own weight and bias are: a second stage applies them)")
        return shape
    for n in (*g.inputs, *g.nodes):
        n.shape = rows(n.shape)
        if n.op == "layer_norm":
            n.args[1] = [cols]
            n.kwargs.pop("groups", None)
        elif n.op in ROW_OPS and isinstance(n.kwargs.get("dim"), list):
            n.kwargs["dim"] = -1
    g.row_dims, g.row_div = k, div


def collapse_windows(g: OpGraph) -> None:
    """Windows along a dimension d before the last (``x.chunk(2, dim=1)``, a GLU over channels) become windows of
    the last: every tensor's dimensions from d on are one row (``g.row_dims``), so the window [lo, hi) of x's
    dimension d is the run [lo * inner, hi * inner) of each row (inner: the size of x's dimensions after d). A
    concatenation of equal pieces along d (a GLU's gradient) is then a concatenation of the rows' runs. An
    elementwise graph only (every tensor of the pieces' rank and shape but the windowed inputs and the
    concatenation, or one value)."""
    wins = [n for n in g.nodes if n.op in ("slice", "cat") and "dim" in n.kwargs]
    if not wins:
        return
    first = wins[0]
    what = (f"core op aten.{first.op} along dim {first.kwargs['dim']} of " +
            (f"a forward input of shape {list(g.node(first.args[0].name).shape or [])}" if first.op == "slice" else
             f"pieces of shape {list(g.node(first.args[0].name).shape or [])}"))
    dims = {int(n.kwargs["dim"]) for n in wins}
    if len(dims) != 1 or any(n.op in ("slice", "cat") and "dim" not in n.kwargs for n in g.nodes):
        raise AnalysisError(f"{what} together with windows along other dimensions is not covered by the templates")
    d = dims.pop()
    out = g.node(first.name).shape if first.op == "slice" else g.node(first.args[0].name).shape
    r = len(out)
    srcs = {n.args[0].name for n in wins if n.op == "slice"} | {n.name for n in wins if n.op == "cat"}
    for n in (*g.inputs, *g.nodes):
        if n.op in ROW_OPS or n.op in ("layer_norm", "rms_norm", "cumsum", "cumprod", "argmax", "argmin"):
            raise AnalysisError(f"{what} together with core op aten.{n.op} is not covered by the templates (a window "
                                f"along an earlier dimension is covered in elementwise graphs)")
        shape = tuple(n.shape or ())
        if _numel(shape) == 1 or n.name in srcs:
            continue
        if shape != tuple(out):
            raise AnalysisError(f"{what} together with a tensor of shape {list(shape)} (pieces of shape {list(out)}) is "
                                f"not covered by the templates (a window along an earlier dimension is covered when every "
                                f"other tensor has the pieces' shape)")
    inners = {n.name: _numel(g.node(n.args[0].name).shape[d + 1:]) for n in wins if n.op == "slice"}
    for n in (*g.inputs, *g.nodes):
        shape = tuple(n.shape or ())
        if len(shape) != r:
            continue
        if n.op == "slice":
            inner = inners[n.name]
            lo, hi = n.kwargs["window"]
            n.kwargs = {"window": [lo * inner, hi * inner]}
        elif n.op == "cat":
            n.kwargs = {k: v for k, v in n.kwargs.items() if k != "dim"}
        n.shape = shape[:d] + (_numel(shape[d:]),)
    g.row_dims = r - d


def _through_clones(n: fx.Node) -> fx.Node:
    """``n`` with the copies in front of it skipped (``x.clone()``, ``.contiguous()``: the same values)."""
    while _name(n)[0] in IDENTITY and n.args and isinstance(n.args[0], fx.Node):
        n = n.args[0]
    return n


def _windows_only(n: fx.Node) -> bool:
    """Every use of ``n`` is a window of its last dimension (a slice or split), directly or through a clone
    (``y = x.to(dtype).clone(); y[..., a:] = v``: the clone is the base of a slice_scatter, its slices the
    destinations of copies)."""
    for u in n.users:
        name = _name(u)[0]
        if name in ("slice", "split_with_sizes", "split") or (name == "slice_scatter" and u.args[0] is n):
            continue
        if name in IDENTITY and u.users and _windows_only(u):
            continue
        return False
    return True


EXACT_IN_DOUBLE = {"float16", "bfloat16", "float32", "int8", "uint8", "int16", "int32", "bool"}


def fold_double_round_trips(g: OpGraph) -> None:
    """``x`` cast to float64 and back to its own dtype (through reshapes) is ``x``: every value of these dtypes is a
    double exactly (``torch.full(dims, v.item(), dtype=v.dtype)``: the item is a Python float on the way). The
    float64 cast and the reshapes after it take ``x``'s dtype; the cast back becomes a reshape."""
    by_name = {n.name: n for n in (*g.inputs, *g.nodes)}
    users: dict[str, list[OpNode]] = {}
    for n in g.nodes:
        for r in refs(n):
            users.setdefault(r.name, []).append(n)
    for c in g.nodes:
        if c.op != "cast" or c.dtype != "float64" or not c.args or not isinstance(c.args[0], Ref):
            continue
        src = by_name.get(c.args[0].name)
        if src is None or src.dtype not in EXACT_IN_DOUBLE:
            continue
        chain, backs, todo = [c], [], [c]
        while todo:
            for u in users.get(todo.pop().name, []):
                if u.op == "view" and u.dtype == "float64" and u.name not in g.outputs:
                    chain.append(u)
                    todo.append(u)
                elif u.op == "cast" and u.dtype == src.dtype:
                    backs.append(u)
                else:
                    backs = None
                    break
            if backs is None:
                break
        if not backs or any(n.name in g.outputs for n in chain):
            continue
        for n in chain:
            n.dtype = src.dtype
        c.op = "view"
        for b in backs:
            b.op = "view"


def drop_dead(g: OpGraph) -> None:
    """Drop the graph's nodes no output depends on (the clone an assignment ``y = x.clone(); y[..., a:b] = v``
    starts from, once the assignment reads ``x``'s windows instead)."""
    need = set(g.outputs)
    for n in reversed(g.nodes):
        if n.name in need:
            need.update(r.name for r in refs(n))
    g.nodes = [n for n in g.nodes if n.name in need]


def live_nodes(ep: torch.export.ExportedProgram) -> set[str]:
    """Names of the nodes the reference's results depend on (not those that only update module state: a batch
    norm's running statistics and its batch counter)."""
    out = next(n for n in ep.graph.nodes if n.op == "output").args[0]
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    kinds = [s.kind.name for s in ep.graph_signature.output_specs]
    if len(kinds) == len(outs):
        outs = [o for o, k in zip(outs, kinds) if k == "USER_OUTPUT"]
    live: set[str] = set()
    todo = [o for o in outs if isinstance(o, fx.Node)]
    while todo:
        n = todo.pop()
        if n.name not in live:
            live.add(n.name)
            todo += n.all_input_nodes
    return live


def _materialised(n: fx.Node) -> bool:
    """An expand whose copies become data (cloned, reshaped, returned) rather than a broadcast operand: the
    templates read an expand as a view, which holds only for a broadcasting consumer."""
    return any(u.op == "output" or (u.op == "call_function" and _name(u)[0] in
                                    {"clone", "contiguous", "view", "_unsafe_view", "reshape", "flatten"})
               for u in n.users)


def _numel(shape: Any) -> int:
    k = 1
    for d in shape or ():
        k *= int(d)
    return k


def analyse_canonical_values(model: nn.Module, inputs: list[Any], init: list[Any] | None = None,
                             init_attrs: list[tuple[int, str]] = ()) -> OpGraph:
    """``analyse_canonical`` with numbers computed from the forward's floats kept as this case's values (a
    template that takes no runtime expression there still plans a case alone, as before ScaledAttr)."""
    return analyse_canonical(model, inputs, init, init_attrs, derived=False)


def analyse_canonical(model: nn.Module, inputs: list[Any], init: list[Any] | None = None,
                      init_attrs: list[tuple[int, str]] = (), derived: bool = True) -> OpGraph:
    """Op graph of ``model(*inputs)`` read from its core-ATen export (see the module docstring). ``init_attrs``:
    (index in ``init``, name) of floats the model holds that the op takes as attributes after the forward's (the
    binding passes them): read like forward floats, through an export of a model built with them perturbed."""
    ep = _export(model, inputs)
    floats = [isinstance(v, float) for v in inputs]
    ints = [isinstance(v, int) and not isinstance(v, bool) for v in inputs]
    other = None
    if any(floats) or any(ints) or init_attrs:
        held = {k: _perturbed(float(init[k]), sum(floats) + j) for j, (k, _) in enumerate(init_attrs)}
        moved_init = [held.get(k, v) for k, v in enumerate(init or [])]
        # ints moved too where the export still takes the same path (an int that is a size or a dimension
        # changes it or fails: then the floats alone)
        read = _pointwise_ints(ep)
        tries = [moved_numbers(list(inputs))] if any(i and v in read for i, v in zip(ints, inputs)) else []
        for moved in tries + ([moved_floats(list(inputs))] if any(floats) or init_attrs else []):
            try:
                remake = getattr(model, "remake", None) or type(model)   # (a stage's module: built by its namespace)
                other = _export(remake(*copy.deepcopy(moved_init)) if init_attrs else model, moved)
            except Exception:
                other = None
            if other is not None and _same_path(ep, other):
                break
            other = None
    r = _Reader(ep, other, inputs, init or [], drawn_at_random(model, init or []))
    r.derived = derived
    r.placeholders()
    for k, name in init_attrs:   # after the forward's attributes, in the binding's order
        r.g.attrs.append(OpNode(f"init_{name}", "attr", [], {"value": float(init[k]), "param": name, "init": True},
                                None, "float32"))
        r.attr_values[f"init_{name}"] = float(init[k])
        r.attr_moved[f"init_{name}"] = held[k]
        r.known.add(f"init_{name}")
    r.nodes()
    r.outputs()
    drop_dead(r.g)
    fold_double_round_trips(r.g)
    collapse_windows(r.g)
    collapse_rows(r.g)
    one_element_rows(r.g)
    return r.g


Analyser = Callable[[nn.Module, list, list], OpGraph]


def _numel_of(n: fx.Node) -> int:
    """Elements of a traced node's value (-1 when it has no tensor value)."""
    v = n.meta.get("val")
    return int(v.numel()) if isinstance(v, torch.Tensor) else -1
