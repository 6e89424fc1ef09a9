"""Python numbers computed from a one-element input the reference reads with ``.item()``: the host's, in double.

An optimizer's step count is a one-element tensor; the reference reads it as a Python number and computes from it in
Python (``t = step.item() + 1``, ``1 - beta2 ** t``, ``lr / (1 - beta1 ** t)``), in double, before a tensor op takes
the result as one float. The front end (``canonical._items_as_tensors``) keeps that arithmetic as float64 0-d tensor
ops. A kernel computing them in float differs: ``1 - 0.99f ** 2`` is 2e-6 (relative) from ``float(1 - 0.99 ** 2)``,
and a bfloat16 result rounds to the other side for some elements. So the TilingFunc computes them, in double, from
the attributes as written (``AsWritten``) and the input's value (the input is declared ``ValueDepend``: the framework
copies it to the host before tiling), and hands the kernel each number a tensor op reads, rounded to float once.
"""
from __future__ import annotations

from agent_graph.drafter.analysis import OpGraph, Ref, ScaledAttr
from agent_graph.drafter.templates import HostNumber

HOST_OPS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
HOST_UNARY = {"reciprocal": "(1.0 / {a})", "cast": "{a}", "view": "{a}"}
READABLE = ("int32", "int64", "float32")
"""The dtypes of a one-element input the host reads as a number (``InputNumber``)."""


def _numel(shape: tuple | None) -> int:
    n = 1
    for d in shape or ():
        n *= d
    return n


def host_numbers(g: OpGraph) -> tuple[set[str], dict[str, HostNumber]]:
    """The graph's nodes the host computes (Python double arithmetic on numbers read from one-element inputs and
    on the float attributes) and, for each of them a kernel op reads, the number the host hands over. Empty when
    the graph has none (no float64 number) or one of them is a result."""
    inputs = {n.name: i for i, n in enumerate(g.inputs) if _numel(n.shape) == 1 and n.dtype in READABLE}
    attrs = {a.name: j for j, a in enumerate(g.attrs)}
    names = [a.kwargs.get("param", a.name) for a in g.attrs]
    cand: dict[str, tuple[str, str]] = {}      # node -> (C++ double expression, the expression as the reference writes it)

    def leaf(a: object) -> tuple[str, str] | None:
        if isinstance(a, Ref):
            if a.name in cand:
                return cand[a.name]
            if a.name in attrs:
                return f"AsWritten(tiling.get_attr{attrs[a.name]}())", names[attrs[a.name]]
            return None
        if isinstance(a, ScaledAttr):
            if any(n not in attrs for n, _ in a.powers):
                return None
            cxx = " * ".join([repr(float(a.scale))] + [f"AsWritten(tiling.get_attr{attrs[n]}())" if p > 0 else
                                                       f"(1.0 / AsWritten(tiling.get_attr{attrs[n]}()))" for n, p in a.powers])
            return f"({cxx} + {float(a.offset)!r})", "(" + " * ".join(
                [f"{a.scale:g}"] + [names[attrs[n]] if p > 0 else f"1 / {names[attrs[n]]}" for n, p in a.powers]) + f" + {a.offset:g})"
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            return repr(float(a)), f"{a:g}" if isinstance(a, float) else str(a)
        return None

    for node in g.nodes:
        if node.shape not in ((), None) or node.kwargs and node.op != "cast":
            continue
        if node.op == "view" and len(node.args) == 1 and isinstance(node.args[0], Ref) and node.args[0].name in inputs:
            i = inputs[node.args[0].name]
            cand[node.name] = f"InputNumber(context, {i})", f"{node.args[0].name}.item()"
            continue
        if node.dtype not in ("float64", "int64"):
            continue
        parts = [leaf(a) for a in node.args]
        if any(p is None for p in parts):
            continue
        if node.op in HOST_OPS and len(parts) == 2:
            sym = HOST_OPS[node.op]
            text = f"{parts[0][1]} {sym} {parts[1][1]}"
            if node.op == "add" and parts[0][1].startswith("-"):       # -a + 1 (the export's 1 - a)
                text = f"{parts[1][1]} - {parts[0][1][1:]}"
            cand[node.name] = f"({parts[0][0]} {sym} {parts[1][0]})", f"({text})"
        elif node.op == "pow" and len(parts) == 2:
            cand[node.name] = f"std::pow({parts[0][0]}, {parts[1][0]})", f"{parts[0][1]} ** {parts[1][1]}"
        elif node.op == "neg" and len(parts) == 1:
            a = parts[0][1]
            cand[node.name] = f"(-{parts[0][0]})", "-" + (a if a.startswith("(") or " " not in a else f"({a})")
        elif node.op in HOST_UNARY and len(parts) == 1 and (node.op != "cast" or node.dtype == "float64"):
            cand[node.name] = HOST_UNARY[node.op].format(a=parts[0][0]), HOST_UNARY[node.op].format(a=parts[0][1]).replace("1.0 /", "1 /")
    # only what leads to double arithmetic is the host's: a number read and used as it is (or only widened, which
    # is exact) stays the kernel's
    wide = {n.name for n in g.nodes if n.name in cand and n.dtype == "float64" and n.op not in ("cast", "view")}
    host = set(wide)
    for node in reversed(g.nodes):
        if node.name in host:
            host |= {a.name for a in node.args if isinstance(a, Ref) and a.name in cand}
    if not wide or host & set(g.outputs):
        return set(), {}
    read = {a.name for n in g.nodes if n.name not in host for a in (*n.args, *n.kwargs.values()) if isinstance(a, Ref)}
    handed = {name: HostNumber(cand[name][0], cand[name][1],
                               tuple(sorted({i for inp, i in inputs.items() if f"InputNumber(context, {i})" in cand[name][0]})))
              for name in sorted(host & read, key=[n.name for n in g.nodes].index)}
    return host, handed
