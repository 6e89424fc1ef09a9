"""What a template with a planner of its own (pool, index, gather, resize) hands back to ``planner.plan``: the
filled parameters and rendered files, or a refusal (``reason``). The planner turns it into its ``Plan`` or
``Unsupported`` (this module imports nothing of the planner, so the planner can import these modules)."""
from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from agent_graph.drafter.analysis import AnalysisError, OpGraph
from agent_graph.drafter.codegen import GE
from agent_graph.drafter.templates import KernelParams, TensorParam


class Beside(AnalysisError):
    """The reference holds ops the template does not take beside its own (a convolution before a pooling): the
    reference goes on to the other planners (a fused template may take it; else they refuse naming an op)."""


@dataclass
class OwnPlan:
    category: str                        # pooling | indexing | resize
    reason: str = ""                     # one sentence naming the op or form when refused
    template: str = ""
    params: KernelParams | None = None
    graphs: list[OpGraph] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    case_meta: list[dict] = field(default_factory=list)


def case_meta(graphs: list[OpGraph], mod: Any = None, cases: list | None = None) -> list[dict]:
    """Per case: the input shapes/dtypes, init arguments and (given the module and the cases) the forward's
    arguments after its tensors (a spec appends ``args`` to its inputs: ``tril(x, diagonal)`` re-run from the
    written kgen-task.toml needs its diagonal)."""
    metas = [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in g.inputs], "args": [], "init": g.init}
             for g in graphs]
    for m, (_, ins) in zip(metas, cases if mod is not None and cases else []):
        tensor = [_tensor_arg(a) for a in ins]
        args = [v for _, v in forward_arguments(mod, ins)]
        if tensor == sorted(tensor, reverse=True) and sum(tensor) == len(m["inputs"]) and all(_plain(v) for v in args):
            m["args"] = args
        elif forward_call(ins, len(m["inputs"])):
            m["call"] = forward_call(ins, len(m["inputs"]))
    return metas


def forward_call(ins: list, n_inputs: int) -> list[dict] | None:
    """A case's forward arguments in order when numbers or Nones stand between its ``n_inputs`` tensors
    (``layer_norm(x, normalized_shape, None, bias)``): ``{"tensor": k}`` (the op's k-th input), ``{"value": v}``,
    ``{"absent": True}``; None when the tensors come first (a spec's ``inputs`` then ``args`` say it)."""
    tensor = [_tensor_arg(a) for a in ins]
    if (tensor == sorted(tensor, reverse=True) and not any(a is None for a in ins)) or sum(tensor) != n_inputs or \
            not all(t or a is None or _plain(a) for t, a in zip(tensor, ins)) or \
            not all(isinstance(a, torch.Tensor) for t, a in zip(tensor, ins) if t):
        return None
    it = iter(range(n_inputs))
    # a tensor's own shape (the op's input may be the reference's rows: [2, 3, 8, 16] normalised over [8, 16])
    return [{"tensor": next(it), "shape": list(a.shape)} if t else {"absent": True} if a is None else {"value": a}
            for t, a in zip(tensor, ins)]


def _tensor_arg(a: Any) -> bool:
    """A tensor or a non-empty list of tensors (an op input, not an attribute)."""
    return isinstance(a, torch.Tensor) or (isinstance(a, (list, tuple)) and bool(a) and
                                           all(isinstance(t, torch.Tensor) for t in a))


def _plain(v: Any) -> bool:
    """A value a kgen-spec's ``args`` can hold (TOML: a number, flag, string or list of numbers)."""
    if isinstance(v, list):
        return all(isinstance(x, (int, float)) for x in v)
    return isinstance(v, (bool, int, float, str))


def read_cases(cases: list, mod: Any, reader: Callable[[Any, list], Any], category: str) -> list | OwnPlan | None:
    """``reader(model, forward inputs)`` on every case: its results in case order; a refusal when it raises
    ``AnalysisError``; None when a case holds none of the reader's ops or others beside them (``Beside``: the
    reference goes to the other templates)."""
    read = []
    for init, ins in cases:
        try:
            r = reader(mod.Model(*copy.deepcopy(init)), ins)
        except Beside:
            return None
        except AnalysisError as e:
            return OwnPlan(category, str(e))
        if r is None:
            return None
        read.append(r)
    return read


def forward_arguments(mod: Any, ins: list) -> list[tuple[str, Any]]:
    """The forward's non-tensor arguments in order (name, value; a tuple as a list): the harness passes them as the
    op's attributes, in this order."""
    try:
        names = [p for p in inspect.signature(mod.Model.forward).parameters][1:]
    except (TypeError, ValueError):
        names = []
    out = []
    for i, a in enumerate(ins):
        if _tensor_arg(a):
            continue
        out.append((names[i] if i < len(names) else f"arg{i}", list(a) if isinstance(a, tuple) else a))
    return out


def opdef_params(inputs: list[TensorParam], outputs: list[TensorParam], value_depend: set[str] = frozenset()) -> str:
    """The OpDef's Input/Output lines: one dtype per dtype combination, ND format; ``value_depend``: inputs the host
    reads (declared ValueDepend: the framework copies them to the host before tiling)."""
    lines = []
    for kind, p in [("Input", p) for p in inputs] + [("Output", p) for p in outputs]:
        dts = ", ".join(GE[d] for d in p.dtypes)
        fmts = ", ".join("ge::FORMAT_ND" for _ in p.dtypes)
        depend = ".ValueDepend(REQUIRED)" if kind == "Input" and p.name in value_depend else ""
        lines.append(f'        this->{kind}("{p.name}").ParamType(REQUIRED).DataType({{{dts}}}).Format({{{fmts}}}){depend};')
    return "\n".join(lines)


# ---- reading an exported graph (the planners that read core ATen themselves: putrows, scatter) -------

def aten_base(n: torch.fx.Node) -> str:
    """The ATen op's base name ("index_put" for aten.index_put_.default), else the target as text."""
    return n.target.__name__.split(".")[0] if hasattr(n.target, "_schema") else str(n.target)


def fx_shape(a: Any) -> list[int]:
    """The shape of a node's example value; [] for a non-tensor."""
    return list(a.meta["val"].shape) if isinstance(a, torch.fx.Node) and isinstance(a.meta.get("val"), torch.Tensor) else []


def view_root(n: Any, views: set[str]) -> Any:
    """The node a chain of shape-keeping views (``views``: their base names) starts from."""
    while isinstance(n, torch.fx.Node) and n.op == "call_function" and aten_base(n) in views and fx_shape(n) == fx_shape(n.args[0]):
        n = n.args[0]
    return n


def update_inputs(ep: Any, x: Any, index: Any, values: Any, what: str, template: str, shape: list[int],
                  dtypes_ok: tuple[str, ...]) -> dict:
    """Positions and dtypes of the three forward inputs of a row update (x, an int32/int64 index, values of x's
    dtype): ``x_input`` / ``index_input`` / ``values_input``, ``dtypes``, ``shapes``; an AnalysisError naming
    ``what`` and ``template`` otherwise."""
    users = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    if len(users) != 3 or {x, index, values} != set(users):
        raise AnalysisError(f"{what} whose x (shape {shape}), indices or values are not the forward inputs is not "
                            f"covered by the {template} template")
    dtypes = [str(u.meta["val"].dtype).replace("torch.", "") for u in users]
    xd, idd = dtypes[users.index(x)], dtypes[users.index(index)]
    if xd not in dtypes_ok or idd not in ("int32", "int64") or dtypes[users.index(values)] != xd:
        raise AnalysisError(f"{what} of {xd} x (shape {shape}) with {idd} indices is not covered by the {template} "
                            f"template")
    return {"x_input": users.index(x), "index_input": users.index(index), "values_input": users.index(values),
            "dtypes": dtypes, "shapes": [fx_shape(u) for u in users]}
