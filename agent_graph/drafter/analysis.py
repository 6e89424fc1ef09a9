"""Reference analysis: a PyTorch ``Model`` -> a small op graph with shapes, dtypes and attrs.

The model is traced with ``torch.fx`` and run once per shape case on the CPU (an fx Interpreter
records every node's concrete value). Non-tensor values computed inside ``forward`` (``x.shape[-1]``,
``x.dtype``, ...) become constants of the case; the forward's own non-tensor arguments stay symbolic
(they are the op's runtime attrs). A graph is the same for every case, only shapes and dtypes change.
"""
from __future__ import annotations

import copy
import inspect
import operator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx as fx
import torch.nn as nn
import torch.nn.functional as F

from agent_graph.drafter.vecops import MATH_LIBRARY


class AnalysisError(Exception):
    """The reference cannot be turned into an op graph (message names the op or construct)."""


@dataclass
class Ref:
    """A reference to another node of the graph (tensor or runtime attr)."""

    name: str


@dataclass(frozen=True)
class RowLength:
    """A number that is each case's row length (``x / x.shape[-1]``, ``float(torch.prod(torch.tensor(
    gamma.shape)))`` over the normalised dimensions), or ``numer`` over it (a norm gradient's ``2.0 / D``): from the
    kernel's runtime row length, so one kernel serves rows of every length (``row_lengths``)."""

    numer: float | None = None


@dataclass(frozen=True)
class ScaledAttr:
    """A number computed from forward float arguments (``-beta`` in ``x / (1 + exp(-beta * x))``, ``1 - alpha``,
    ``1 / tau``, ``input_scale * alpha * scale``): ``scale * prod(attr ** power) + offset`` over ``powers``
    ((attr, +1 | -1) pairs); the kernel computes it from the runtime attributes, so cases with other values of the
    arguments share the kernel."""

    powers: tuple[tuple[str, int], ...]
    scale: float = 1.0
    offset: float = 0.0


ARITHMETIC = ("add", "sub", "rsub", "mul", "div")
"""Ops whose number arguments may be a row length."""


LENGTH_NUMERATORS = (1.0, 2.0, -1.0, -2.0)
"""``q`` of a number ``q / D`` (D: the row length) written as ``RowLength(q)``: a mean's ``1.0 / D``, a variance
gradient's ``2.0 / D`` and ``-2.0 / D``."""


def row_lengths(g: "OpGraph") -> "OpGraph | None":
    """``g`` with every number an arithmetic op takes that equals the row length (the main input's last
    ``row_dims`` dimensions) as ``RowLength()``, or ``q`` over it (``q`` in ``LENGTH_NUMERATORS``) as
    ``RowLength(q)``; None when no number is."""
    if not g.inputs or g.row_div != 1:
        return None
    full = max((tuple(n.shape or ()) for n in g.inputs), key=lambda s: (len(s), _numel(s)))
    if len(full) < g.row_dims:
        return None
    length = _numel(full[len(full) - g.row_dims:])
    out = copy.deepcopy(g)
    hit = False
    for n in out.nodes:
        if n.op not in ARITHMETIC:
            continue
        for k, a in enumerate(n.args):
            if not isinstance(a, (int, float)) or isinstance(a, bool) or length < 2:
                continue
            if float(a) == float(length):
                n.args[k] = RowLength()
                hit = True
            elif isinstance(a, float):
                q = next((q for q in LENGTH_NUMERATORS if abs(a * length - q) <= 1e-12 * length), None)
                if q is not None:
                    n.args[k] = RowLength(q)
                    hit = True
    return out if hit else None


@dataclass
class OpNode:
    name: str
    op: str                      # canonical op name ("add", "softmax", "sum", "cast", ...)
    args: list[Any]              # Ref | python constant (float, int, bool, tuple, None)
    kwargs: dict[str, Any]
    shape: tuple[int, ...] | None = None
    dtype: str | None = None     # "float16", "bfloat16", "float32", "int64", ...


@dataclass
class OpGraph:
    inputs: list[OpNode] = field(default_factory=list)   # tensor inputs, in forward order
    attrs: list[OpNode] = field(default_factory=list)    # non-tensor forward args, in order
    nodes: list[OpNode] = field(default_factory=list)    # compute nodes in order
    outputs: list[str] = field(default_factory=list)
    init: list[Any] = field(default_factory=list)
    row_dims: int = 1      # a row is the last row_dims dimensions of the main input ...
    row_div: int = 1       # ... split into row_div rows (groups): shapes below are already in rows
    forward: int | None = None   # inputs[:forward] are the forward's tensors; init tensors and the module's
                                 # weights follow (None: all of them are)
    expanded: set[str] = field(default_factory=set)   # view nodes that broadcast their input (aten.expand)

    def node(self, name: str) -> OpNode:
        for n in (*self.inputs, *self.attrs, *self.nodes):
            if n.name == name:
                return n
        raise KeyError(name)

    def signature(self) -> list[tuple]:
        """What must agree between shape cases: ops, argument structure, ranks (not sizes)."""
        def norm(a: Any) -> Any:
            if isinstance(a, Ref):
                return ("ref", a.name)
            if isinstance(a, (list, tuple)):
                if a and all(isinstance(x, int) and not isinstance(x, bool) for x in a):
                    return "shape"  # sizes differ between cases
                return tuple(norm(x) for x in a)
            if isinstance(a, str) and a in DTYPE_NAMES:
                return "dtype"
            return a
        sig = [("in", n.name) for n in self.inputs]
        sig += [(n.name, n.op, tuple(norm(a) for a in n.args), tuple(sorted((k, norm(v)) for k, v in n.kwargs.items())))
                for n in self.nodes]
        return sig + [("out", tuple(self.outputs)), ("rows", self.row_dims, self.row_div)]


DTYPE_NAMES = {"float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "bool"}

# ---- canonical names -------------------------------------------------------------------------

_FUNCS: dict[Any, str] = {
    operator.add: "add", operator.sub: "sub", operator.mul: "mul", operator.truediv: "div", operator.neg: "neg",
    operator.pow: "pow", torch.add: "add", torch.sub: "sub", torch.subtract: "sub", torch.mul: "mul",
    torch.multiply: "mul", torch.div: "div", torch.true_divide: "div", torch.neg: "neg", torch.pow: "pow",
    torch.relu: "relu", F.relu: "relu", torch.sigmoid: "sigmoid", F.sigmoid: "sigmoid", torch.tanh: "tanh", F.tanh: "tanh",
    torch.exp: "exp", torch.log: "log", torch.sqrt: "sqrt", torch.rsqrt: "rsqrt", torch.abs: "abs", torch.square: "square",
    torch.reciprocal: "reciprocal", torch.erf: "erf", torch.sin: "sin", torch.cos: "cos", torch.floor: "floor",
    torch.ceil: "ceil", torch.sign: "sign", torch.maximum: "maximum", torch.minimum: "minimum", torch.clamp: "clamp",
    torch.clip: "clamp", torch.addcmul: "addcmul", torch.addcdiv: "addcdiv", torch.lerp: "lerp", torch.log1p: "log1p",
    torch.expm1: "expm1", torch.acos: "acos", torch.asin: "asin", torch.atan: "atan", torch.tan: "tan",
    torch.cosh: "cosh", torch.sinh: "sinh", torch.erfc: "erfc", torch.log2: "log2", torch.log10: "log10",
    torch.asinh: "asinh", torch.acosh: "acosh", torch.atanh: "atanh", torch.arccos: "acos", torch.arcsin: "asin",
    torch.arctan: "atan",
    F.gelu: "gelu", F.silu: "silu", F.leaky_relu: "leaky_relu", F.elu: "elu", F.softplus: "softplus",
    F.hardtanh: "hardtanh", F.hardsigmoid: "hardsigmoid", F.hardswish: "hardswish", F.mish: "mish",
    F.logsigmoid: "logsigmoid", F.relu6: "relu6", F.selu: "selu",
    torch.sum: "sum", torch.mean: "mean", torch.amax: "amax", torch.amin: "amin", torch.max: "max", torch.min: "min",
    torch.argmax: "argmax", torch.argmin: "argmin", torch.cumsum: "cumsum", torch.cumprod: "cumprod", torch.logsumexp: "logsumexp",
    torch.softmax: "softmax", F.softmax: "softmax", torch.log_softmax: "log_softmax", F.log_softmax: "log_softmax",
    F.layer_norm: "layer_norm", F.normalize: "normalize", F.mse_loss: "mse_loss", F.l1_loss: "l1_loss",
    F.cross_entropy: "cross_entropy", F.smooth_l1_loss: "smooth_l1_loss",
    operator.gt: "gt", operator.lt: "lt", operator.ge: "ge", operator.le: "le", operator.eq: "eq", operator.ne: "ne",
    torch.gt: "gt", torch.lt: "lt", torch.ge: "ge", torch.le: "le", torch.eq: "eq", torch.ne: "ne",
    torch.greater: "gt", torch.less: "lt", torch.greater_equal: "ge", torch.less_equal: "le", torch.not_equal: "ne",
    torch.where: "where",
}
if hasattr(F, "rms_norm"):
    _FUNCS[F.rms_norm] = "rms_norm"

_METHODS = {
    "add": "add", "sub": "sub", "mul": "mul", "div": "div", "neg": "neg", "pow": "pow", "relu": "relu",
    "sigmoid": "sigmoid", "tanh": "tanh", "exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt", "abs": "abs",
    "square": "square", "reciprocal": "reciprocal", "erf": "erf", "sin": "sin", "cos": "cos", "clamp": "clamp",
    "clip": "clamp", "log1p": "log1p", "sum": "sum", "mean": "mean", "amax": "amax", "amin": "amin", "max": "max",
    "min": "min", "argmax": "argmax", "argmin": "argmin", "cumsum": "cumsum", "cumprod": "cumprod", "softmax": "softmax",
    "log_softmax": "log_softmax", "logsumexp": "logsumexp", "float": "cast", "half": "cast", "bfloat16": "cast",
    "to": "cast", "type": "cast", "contiguous": "identity", "clone": "identity", "view": "view", "reshape": "view",
    "maximum": "maximum", "minimum": "minimum", "lerp": "lerp", "addcmul": "addcmul", "sign": "sign",
    "floor": "floor", "ceil": "ceil", "expm1": "expm1", "squeeze": "view", "unsqueeze": "view", "flatten": "view",
    "gt": "gt", "lt": "lt", "ge": "ge", "le": "le", "eq": "eq", "ne": "ne", "where": "where",
    **{name: name for name in MATH_LIBRARY},
    "arccos": "acos", "arcsin": "asin", "arctan": "atan",
}

_MODULES: dict[type, str] = {
    nn.ReLU: "relu", nn.Sigmoid: "sigmoid", nn.Tanh: "tanh", nn.GELU: "gelu", nn.SiLU: "silu", nn.LeakyReLU: "leaky_relu",
    nn.ELU: "elu", nn.Softplus: "softplus", nn.Hardtanh: "hardtanh", nn.Hardsigmoid: "hardsigmoid",
    nn.Hardswish: "hardswish", nn.Mish: "mish", nn.Softmax: "softmax", nn.LogSoftmax: "log_softmax",
    nn.Identity: "identity", nn.MSELoss: "mse_loss", nn.L1Loss: "l1_loss", nn.CrossEntropyLoss: "cross_entropy",
    nn.ReLU6: "relu6", nn.LogSigmoid: "logsigmoid", nn.LayerNorm: "layer_norm",
}


def _dtype_name(dt: torch.dtype) -> str:
    return str(dt).replace("torch.", "")


def _module_args(mod: nn.Module, kind: str, node_args: list) -> tuple[list, dict]:
    """Turn a module call into the functional call's arguments (module settings become kwargs)."""
    kw: dict[str, Any] = {}
    if kind in ("softmax", "log_softmax"):
        kw["dim"] = mod.dim
    elif kind == "leaky_relu":
        kw["negative_slope"] = mod.negative_slope
    elif kind == "elu":
        kw["alpha"] = mod.alpha
    elif kind == "softplus":
        kw["beta"], kw["threshold"] = mod.beta, mod.threshold
    elif kind == "hardtanh":
        kw["min_val"], kw["max_val"] = mod.min_val, mod.max_val
    elif kind == "gelu":
        kw["approximate"] = mod.approximate
    elif kind in ("mse_loss", "l1_loss"):
        kw["reduction"] = mod.reduction
    elif kind == "cross_entropy":   # every setting: the template refuses the ones it does not compute
        kw.update(reduction=mod.reduction, label_smoothing=mod.label_smoothing, ignore_index=mod.ignore_index,
                  weight=mod.weight)
    elif kind == "layer_norm":
        if mod.weight is not None and not (torch.all(mod.weight == 1) and torch.all(mod.bias == 0)):
            raise AnalysisError("nn.LayerNorm with trained parameters (parameters are not op inputs): pass weight "
                                "and bias as forward inputs and call F.layer_norm")
        return [node_args[0], tuple(mod.normalized_shape)], {"eps": mod.eps}
    return list(node_args), kw


class _Recorder(fx.Interpreter):
    def __init__(self, gm: fx.GraphModule):
        super().__init__(gm)
        self.values: dict[str, Any] = {}

    def run_node(self, n: fx.Node) -> Any:
        v = super().run_node(n)
        self.values[n.name] = v
        return v


def _trace(model: nn.Module, inputs: list[Any]) -> tuple[fx.GraphModule, dict[str, float]]:
    """The fx graph; when control flow on a number argument (a validity check) stops tracing, the
    number arguments are traced as constants and recorded, to be turned back into attrs."""
    try:
        return fx.symbolic_trace(model), {}
    except Exception as e:  # data-dependent control flow and the like
        first = e
    names = list(inspect.signature(model.forward).parameters)
    numbers = {n: v for n, v in zip(names, inputs) if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if numbers:
        try:
            return fx.symbolic_trace(model, concrete_args=dict(numbers)), {n: float(v) for n, v in numbers.items()}
        except Exception:
            pass
    raise AnalysisError(f"the reference cannot be traced with torch.fx ({type(first).__name__}: "
                        f"{str(first).splitlines()[0][:160]})") from first


def one_element_rows(g: OpGraph) -> None:
    """A reference whose tensor inputs are all 0-d (shape ``[]``: NPUKernelBench lists such cases) computes on
    one element: the kernel sees it as shape ``[1]`` (the same bytes; the output keeps the reference's shape)."""
    if not g.inputs or any(n.shape for n in g.inputs):
        return
    for n in [*g.inputs, *g.nodes]:
        if n.shape is not None and not n.shape:
            n.shape = (1,)


def analyse(model: nn.Module, inputs: list[Any], init: list[Any] | None = None) -> OpGraph:
    """Op graph of ``model(*inputs)`` (tensors and forward scalars), shapes and dtypes of this case."""
    gm, specialised = _trace(model, inputs)
    rec = _Recorder(gm)
    with torch.no_grad():
        traced = rec.run(*copy.deepcopy(inputs))
        eager = model(*copy.deepcopy(inputs))
    if not _same(traced, eager):
        # symbolic tracing follows one path through Python code on a forward argument (a dict lookup
        # that falls to its default, a branch): the graph it recorded computes something else
        raise AnalysisError("the torch.fx trace does not compute what the reference computes on this case "
                            "(Python code on a forward argument took another path)")
    vals = rec.values
    g = OpGraph(init=list(init or []))
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(inputs):
        raise AnalysisError(f"forward takes {len(placeholders)} arguments but the case gives {len(inputs)}")
    symbolic: set[str] = set()
    for n, v in zip(placeholders, inputs):
        if isinstance(v, torch.Tensor):
            g.inputs.append(OpNode(n.name, "input", [], {}, tuple(v.shape), _dtype_name(v.dtype)))
            symbolic.add(n.name)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            g.attrs.append(OpNode(n.name, "attr", [], {"value": float(v), "param": str(n.target).rsplit("_", 1)[0]
                                                       if specialised and str(n.target) not in specialised else str(n.target)},
                                  None, "float32"))
            symbolic.add(n.name)
        else:
            raise AnalysisError(f"forward argument {n.name} of type {type(v).__name__} is not a tensor or a number")

    def conv(a: Any) -> Any:
        if isinstance(a, fx.Node):
            if a.name in symbolic:
                return Ref(a.name)
            v = vals.get(a.name)
            if isinstance(v, torch.dtype):
                return _dtype_name(v)
            if isinstance(v, torch.Size):
                return tuple(int(x) for x in v)
            if isinstance(v, (int, float, bool, str, tuple, list)) or v is None:
                return v
            raise AnalysisError(f"value {a.name} of type {type(v).__name__} is not supported")
        if isinstance(a, (list, tuple)):
            return type(a)(conv(x) for x in a)
        if isinstance(a, torch.dtype):
            return _dtype_name(a)
        if specialised and isinstance(a, (int, float)) and not isinstance(a, bool):
            for attr in g.attrs:  # a number argument traced as a constant: back to the runtime attr
                if attr.kwargs["value"] == float(a):
                    return Ref(attr.name)
        return a

    for n in gm.graph.nodes:
        if n.op in ("placeholder", "output"):
            continue
        v = vals.get(n.name)
        if n.op == "get_attr":
            raise AnalysisError(f"the reference reads the module attribute '{n.target}' (parameters and buffers are "
                                f"not op inputs): pass it as a forward input")
        if n.op == "call_function" and n.target in (getattr, operator.getitem) and not isinstance(v, torch.Tensor):
            continue  # x.shape, x.dtype, x.shape[-1]: constants of the case
        if n.op == "call_method" and n.target in ("size", "dim") and not isinstance(v, torch.Tensor):
            continue
        if n.op == "call_function" and (n.target is torch._assert or (specialised and not isinstance(v, (torch.Tensor, tuple, list)))):
            continue  # the guards of a specialised number argument
        if n.op == "call_function" and n.target is operator.getitem and isinstance(v, torch.Tensor):
            src = vals.get(n.args[0].name) if isinstance(n.args[0], fx.Node) else None
            if isinstance(src, (tuple, list)):  # torch.max(x, dim) -> (values, indices)
                kind, args, kw = "getitem", [Ref(n.args[0].name), int(n.args[1])], {}
            else:
                raise AnalysisError(f"indexing or slicing a tensor ({n.name}) is not covered by the templates")
        elif n.op == "call_function":
            kind = _FUNCS.get(n.target)
            if kind is None:
                raise AnalysisError(f"operator {getattr(n.target, '__name__', n.target)} is not covered by the templates")
            args, kw = [conv(a) for a in n.args], {k: conv(a) for k, a in n.kwargs.items()}
        elif n.op == "call_method":
            kind = _METHODS.get(n.target)
            if kind is None:
                raise AnalysisError(f"tensor method .{n.target}() is not covered by the templates")
            args, kw = [conv(a) for a in n.args], {k: conv(a) for k, a in n.kwargs.items()}
        elif n.op == "call_module":
            mod = gm.get_submodule(n.target)
            kind = _MODULES.get(type(mod))
            if kind is None:
                raise AnalysisError(f"module {type(mod).__name__} is not covered by the templates")
            args, kw = _module_args(mod, kind, [conv(a) for a in n.args])
            kw.update({k: conv(a) for k, a in n.kwargs.items()})
        else:
            raise AnalysisError(f"fx node kind {n.op} is not supported")
        if isinstance(v, torch.Tensor):
            shape, dt = tuple(v.shape), _dtype_name(v.dtype)
        elif isinstance(v, (tuple, list)) and v and all(isinstance(x, torch.Tensor) for x in v):
            shape, dt = None, None
        else:
            raise AnalysisError(f"{kind} ({n.name}) does not produce a tensor")
        dim = kw.get("dim", args[1] if len(args) > 1 else None)
        if kind in DIM_OPS and isinstance(dim, Ref) and any(a.name == dim.name for a in g.attrs):
            # x.sum(d) with d a forward argument: this front end would read a reduction over everything
            raise AnalysisError(f"{kind} over a dimension given as the forward argument '{dim.name}'")
        g.nodes.append(OpNode(n.name, kind, args, kw, shape, dt))
        symbolic.add(n.name)
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    for o in outs:
        if not isinstance(o, fx.Node) or o.name not in symbolic or not isinstance(vals.get(o.name), torch.Tensor):
            raise AnalysisError("the reference must return a tensor or a tuple of tensors")
        g.outputs.append(o.name)
    one_element_rows(g)
    return g


def _same(a: Any, b: Any) -> bool:
    """The traced graph's result equals the eager result: same structure, shapes, dtypes and values."""
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(a, b) or torch.allclose(
            a.double(), b.double(), rtol=1e-6, atol=1e-6, equal_nan=True)) if a.dtype != torch.bool else bool(torch.equal(a, b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b)


# ---- categories ------------------------------------------------------------------------------

DIM_OPS = {"sum", "mean", "amax", "amin", "max", "min", "prod", "argmax", "argmin", "softmax", "log_softmax", "cumsum",
           "cumprod", "logsumexp", "var", "std", "norm", "any", "all", "normalize"}   # their second argument is a dimension
ELEMENTWISE = {"add", "sub", "mul", "div", "neg", "pow", "relu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "abs",
               "square", "reciprocal", "erf", "sin", "cos", "floor", "ceil", "sign", "maximum", "minimum", "clamp",
               "addcmul", "addcdiv", "lerp", "log1p", "expm1", "gelu", "silu", "leaky_relu", "elu", "softplus", "hardtanh",
               "hardsigmoid", "hardswish", "mish", "mish_backward", "logsigmoid", "relu6", "selu", "cast", "identity",
               "view", *MATH_LIBRARY}
REDUCTIONS = {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "logsumexp", "getitem", "prod"}
NORMALISATIONS = {"softmax", "log_softmax", "layer_norm", "rms_norm", "normalize"}
LOSSES = {"mse_loss", "l1_loss", "cross_entropy", "smooth_l1_loss"}
SCANS = {"cumsum", "cumprod"}


def classify(g: OpGraph) -> str:
    """One category for the whole graph: the most specific kind of op it holds."""
    ops = {n.op for n in g.nodes}
    if ops & LOSSES:
        return "loss"
    if ops & SCANS:
        return "scan"
    if ops & NORMALISATIONS:
        return "normalization"
    if ops & REDUCTIONS:
        # a reduction whose result is broadcast back over the row (x * rsqrt(mean(x^2))) is a normalisation
        outs = [g.node(o) for o in g.outputs]
        full = max((len(i.shape or ()) and _numel(i.shape) for i in g.inputs), default=0)
        if any(o.shape is not None and _numel(o.shape) == full and full > 1 for o in outs):
            return "normalization"
        if any(o.shape is not None and len(o.shape) == 0 for o in outs):
            return "loss"
        return "reduction"
    return "elementwise"


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n
