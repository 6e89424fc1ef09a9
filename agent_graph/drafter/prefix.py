"""Cases whose reference reads a prefix of an input, as long as a count the binding passes: one kernel for all.

BLAS-style NPUKernelBench tasks (Isamax, Isamin: ``argmax(abs(x[:n])) + 1``) hold a count ``n`` the binding passes
as an attribute, and most cases pass the whole input (``n`` is its length: the slice is no op and the export drops
it) while one passes a shorter prefix (``x[:25]`` of 50 elements): the cases trace to two op graphs. The prefix is
the first ``n`` elements of the input's buffer, so the cases are planned on the input cut to its prefix, where the
reference computes the same, and the project's host sees the call through ``PrefixContext``
(``templates/prefix_context.tmpl``): the input's first dimension is the attribute's value. The kernel reads nothing
but its tiling. Taken only when the reference agrees on every case (same results on the cut input).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import torch

from agent_graph.drafter import collapse, variants
from agent_graph.drafter.ownplan import forward_arguments
from agent_graph.drafter.templates import load


@dataclass
class Prefix:
    """Forward tensor ``input`` is read up to the value of the call's scalar ``attr`` (its index among the scalars the
    binding passes, ``names``); ``cases``: the cases with that input cut."""

    input: int
    attr: int
    names: list[str]
    values: list[Any]        # case 0's scalars (the declared defaults)
    cases: list


def prefix_of(cases: list, mod: Any) -> Prefix | None:
    """The cut under which the reference computes the same on every case, or None (the forward takes numbers of
    its own, the binding passes no int count, no case passes a shorter prefix, or the reference disagrees)."""
    extras = []
    for init, ins in cases:
        if any(isinstance(v, variants.SCALAR) for _, v in forward_arguments(mod, ins)):
            return None
        found = variants._binding_scalars(mod, ins, init, [])
        if not found:
            return None
        extras.append(found)
    names = [n for n, _, _ in extras[0]]
    if any([n for n, _, _ in e] != names for e in extras):
        return None
    slots = [[k for k, t in enumerate(ins) if isinstance(t, torch.Tensor)] for _, ins in cases]
    if len({len(s) for s in slots}) != 1:
        return None
    for a in range(len(names)):
        counts = [e[a][1] for e in extras]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in counts):
            continue
        for i in range(len(slots[0])):
            xs = [ins[s[i]] for (_, ins), s in zip(cases, slots)]
            if not all(x.dim() >= 1 and 0 < v <= x.shape[0] for x, v in zip(xs, counts)) or \
                    all(v == x.shape[0] for x, v in zip(xs, counts)):
                continue
            cut = [(init, [t[:v].contiguous() if k == s[i] else t for k, t in enumerate(ins)])
                   for (init, ins), s, v in zip(cases, slots, counts)]
            if all(_same(mod, init, ins, c) for (init, ins), (_, c) in zip(cases, cut)):
                return Prefix(i, a, names, [v for _, v, _ in extras[0]], cut)
    return None


def _same(mod: Any, init: list, ins: list, cut: list) -> bool:
    try:
        with torch.no_grad():
            want = collapse._results(mod.Model(*copy.deepcopy(init))(*copy.deepcopy(ins)))
            got = collapse._results(mod.Model(*copy.deepcopy(init))(*copy.deepcopy(cut)))
    except Exception:
        return False
    return len(want) == len(got) and all(
        isinstance(w, torch.Tensor) and isinstance(g, torch.Tensor) and w.dtype == g.dtype and w.shape == g.shape
        and torch.equal(w, g) for w, g in zip(want, got))


def over_prefix(plan: Any, pre: Prefix, cases: list) -> Any:
    """``plan`` (made on the cut cases) as the project for ``cases``: its OpDef declares the call's scalars, its host
    reads the call through ``PrefixContext``; its case metadata has the cases' own shapes. ValueError when the host
    has another form or declares attributes of its own."""
    host_path = next(p for p in plan.files if p.startswith("op_host/") and p.endswith(".cpp"))
    text = plan.files[host_path]
    o = variants._OPS.search(text)
    if o is None or variants._ATTR.search(o.group(1)):
        raise ValueError("the host declares attributes of its own")
    ios = list(variants._IO.finditer(o.group(1)))
    inputs = [m for m in ios if m.group(1) == "Input"]
    if not ios or pre.input >= len(inputs):
        raise ValueError("the host file has another form")
    decls = [variants._attr_decl(n, v, "passed by the call" + ("; the length of the input read" if k == pre.attr else ""))
             for k, (n, v) in enumerate(zip(pre.names, pre.values))]
    opdef = o.group(1)[:ios[-1].end()] + "\n" + "\n".join(decls) + o.group(1)[ios[-1].end():]
    text = text[:o.start(1)] + opdef + text[o.end(1):]
    input_name = inputs[pre.input].group(2)
    view = load("prefix_context.tmpl").substitute(input=pre.input, input_name=input_name, attr=pre.attr,
                                                 attr_name=pre.names[pre.attr], inputs=len(inputs))
    plan.files[host_path] = collapse.on_view(text, view, "PrefixContext", f"{pre.names[pre.attr]} elements of {input_name}")
    return collapse.with_own_cases(plan, cases, f" (input {input_name} read up to {pre.names[pre.attr]})")
