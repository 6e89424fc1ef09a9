"""Batch norm with batch statistics (template ``batch_norm``): ``nn.BatchNorm1d/2d/3d`` in training mode,
``F.batch_norm(x, None, None, training=True)``, over samples of any count.

The canonical reader turns the core op (``_native_batch_norm_legit*``) of a batch over several samples into a
``batch_norm`` node ``(x, weight, bias, eps)`` whose weight and bias are numbers (a module's default ones and
zeros, or None); per-channel weights are refused there. The form taken here is that node on the reference's one
input, then an elementwise chain of numbers and unary ops on its result (a ReLU, a GELU, a scale), in float32
when there is such a chain (PyTorch rounds a 16-bit norm's result before the next op).

The kernel (templates ``bn_*.tmpl``) views x as [N, C, S]: a core per channel group, a pass for the mean, one
for the biased variance (deviations from that mean, as PyTorch computes it), one writing the result. The running
statistics a module updates are state, not the op's output, and are not written.
"""
from __future__ import annotations

from typing import Any

from agent_graph.drafter.analysis import OpGraph, Ref
from agent_graph.drafter.codegen import _macro, opdef_params
from agent_graph.drafter.colplan import col_epilogue, scratch_count, scratch_rows
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from agent_graph.drafter.operands import InputKind, OutputKind
from bench_bridge.api import snake_case

_PASS = ("identity", "view", "cast")


def has_batch_norm(g: OpGraph) -> bool:
    return any(n.op == "batch_norm" for n in g.nodes)


def _number(v: Any, default: float) -> float | None:
    if v is None:
        return default
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def bn_form(graphs: list[OpGraph]) -> dict | str:
    """The template's parameters (eps, weight, bias, the chain after the norm) shared by every case; a reason
    when the graph is a batch norm in a form the template does not take."""
    found = None
    for g in graphs:
        nodes = [n for n in g.nodes if n.op not in _PASS]
        names = {n.name: n for n in g.nodes}
        bn = next(n for n in nodes if n.op == "batch_norm")
        shape = list(g.inputs[0].shape or ()) if g.inputs else []
        where = f"a batch norm with batch statistics (input of shape {shape})"
        if len(g.inputs) != 1:
            return f"{where} beside other tensors is not covered by the templates"
        head = nodes[:nodes.index(bn)]
        source = bn.args[0]
        while isinstance(source, Ref) and source.name in names and names[source.name].op in _PASS:
            source = names[source.name].args[0]
        if not isinstance(source, Ref) or source.name != (head[-1].name if head else g.inputs[0].name):
            return f"{where} of a value other than the ops before it is not covered by the templates"
        prologue = col_epilogue(head, g.inputs[0].name, g, var="row", where="before the norm") if head else []
        if isinstance(prologue, str):
            return f"{where}: {prologue}"
        if len(g.outputs) != 1:
            return f"{where} with several outputs is not covered by the templates"
        w, b, eps = _number(bn.args[1], 1.0), _number(bn.args[2], 0.0), _number(bn.args[3], 1e-5)
        if w is None or b is None or eps is None:
            return f"{where} with a per-channel weight or bias is not covered by the templates"
        after = nodes[nodes.index(bn) + 1:]
        chain = col_epilogue(after, bn.name, g, var="row", where="after the norm") if after else []
        if isinstance(chain, str):
            return f"{where}: {chain}"
        if bn.dtype == "bfloat16":
            # PyTorch's CPU batch norm rounds bfloat16 statistics in a way this template does not reproduce
            return f"{where} of a bfloat16 tensor is not covered yet (float16 and float32 are)"
        if (chain or prologue) and bn.dtype == "float16":
            return f"{where} with other ops is covered for float32 values only"
        cur = {"eps": eps, "weight": w, "bias": b, "chain": chain, "prologue": prologue}
        if found is not None and found != cur:
            return f"{where}: the shape cases trace to different norms"
        found = cur
    return found


def bn_params(op_type: str, in_name: str, out_name: str, graphs: list[OpGraph], form: dict, summary: str
              ) -> KernelParams | str:
    combos: list[tuple[str, str]] = []
    for g in graphs:
        c = (g.inputs[0].dtype, g.node(g.outputs[0]).dtype)
        if any(d not in ("float16", "bfloat16", "float32") for d in c):
            return f"dtype {next(d for d in c if d not in ('float16', 'bfloat16', 'float32'))} is not covered by the templates"
        if c not in combos:
            combos.append(c)
    return KernelParams(op_type=op_type, template="batch_norm",
                        inputs=[TensorParam(in_name, InputKind.FULL, [c[0] for c in combos])],
                        outputs=[TensorParam(out_name, OutputKind.COL, [c[1] for c in combos])], summary=summary,
                        extra=dict(form))


def render_bn(kp: KernelParams) -> dict[str, str]:
    """The three files of the batch norm template."""
    snake = snake_case(kp.op_type)
    x, y = kp.inputs[0], kp.outputs[0]
    chain, prologue = kp.extra.get("chain") or [], kp.extra.get("prologue") or []
    nrows = max(scratch_count(chain), scratch_count(prologue))

    def block(lines: list[str], what: str) -> str:
        return (f"                    // the ops {what} the norm\n" +
                "".join(f"                    {st}\n" for st in scratch_rows(lines)) +
                "".join(f"                    {st}\n" for st in lines)) if lines else ""
    kernel = load("bn_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", in_macro=_macro(x.name),
        out_macro=_macro(y.name), kernel_name=snake, in_name=x.name, out_name=y.name,
        eps=f"{kp.extra['eps']!r}f", weight=f"{kp.extra['weight']!r}f", bias=f"{kp.extra['bias']!r}f",
        wait_pipe=load("wait_pipe.tmpl").template, float_helpers=load("float_helpers.tmpl").template,
        chain=block(chain, "after"), prologue=block(prologue, "before"), chain_init=f"        pipe_.InitBuffer(scr_, {nrows} * tile_ * sizeof(float));   // the chain's scratch rows\n"
        if nrows else "", chain_members=", scr_" if nrows else "")
    host = load("bn_host.cpp.tmpl").substitute(op_type=kp.op_type, summary=kp.summary, op_snake=snake,
                                               params="\n".join(opdef_params(kp)))
    tiling = load("bn_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}
