"""Shape cases of several ranks as rows: one kernel for [N, D], [B, S, D] and [1, 2, D] alike.

NPUKernelBench-kind tasks mix ranks from case to case. A reference that treats its leading dimensions alike
(elementwise ops, reductions over the row, reductions over every leading dimension: a norm's gradient summing
dgamma over all rows) computes on [B*S, D] what it computes on [B, S, D], but its graphs differ per rank (a sum over
dimensions (0, 1) here, over (0,) there; a dimension of 1 in one case only), so the planners see several kernel
structures. When they refuse the cases as they are, the cases are planned collapsed:

* of rank R (the highest rank of the case's tensors), a tensor is [product of its first R - t dimensions, product
  of its last t] (t: the dimensions of one row, usually 1); a tensor of rank t is one run; any other as it is;
* the collapse is taken only when the reference itself agrees: run on the collapsed inputs of every case, it
  returns the same values in the collapsed shapes of its results (a reference that reads a rank, or reduces over
  some leading dimensions only, does not);
* the project's host sees the call through ``RowsContext`` (``templates/rows_context.tmpl``), which applies the same
  rule to the call's shapes before the planned TilingFunc reads them; the kernels read nothing but their tiling.
"""
from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass
from typing import Any

import torch

from agent_graph.drafter.templates import load
from bench_bridge.api import module_tensor_items

_TOP = re.compile(r"static ge::graphStatus (\w+)\(gert::TilingContext\* context\)")
_NAMESPACE = "namespace optiling {\n"
_END = "}  // namespace optiling"


@dataclass
class Rows:
    """The collapse that serves every case: ``trailing`` dimensions form one row, or as many as forward tensor
    ``of_input`` has in each case (a norm's gradient over ``normalized_shape``: gamma's rank); ``cases``: the
    collapsed cases."""

    trailing: int
    cases: list
    of_input: int | None = None

    def what(self) -> str:
        return f"as many as input {self.of_input} has" if self.of_input is not None else str(self.trailing)


def row_shape(shape: list[int] | torch.Size, rank: int, trailing: int) -> list[int]:
    """A tensor's shape under the collapse (the rule ``RowsContext`` applies in the host)."""
    shape = list(shape)
    if len(shape) == rank and rank > trailing:
        return [math.prod(shape[:rank - trailing]), math.prod(shape[rank - trailing:])]
    if len(shape) == trailing and trailing < rank:
        return [math.prod(shape)]
    return shape


def rows_of(cases: list, mod: Any) -> Rows | None:
    """The collapse under which the reference computes the same on every case, or None (no case has more than
    two dimensions to collapse, the model holds tensors the rule would reshape, or the reference disagrees)."""
    ranks = []
    for init, ins in cases:
        held = [t for t in init if isinstance(t, torch.Tensor)]
        held += [t for _, t in module_tensor_items(mod.Model(*copy.deepcopy(init)), init)]
        fwd = [t for t in ins if isinstance(t, torch.Tensor)]
        if not fwd:
            return None
        ranks.append((max(t.dim() for t in fwd + held), held))
    top = max(r for r, _ in ranks)
    tensors = [[t for t in ins if isinstance(t, torch.Tensor)] for _, ins in cases]
    # a fixed row rank, else the rank of one forward tensor in each case (the smaller tensors, one at a time)
    trials = [(t, None) for t in range(1, top)] + [
        (None, j) for j in range(len(tensors[0])) if len({len(ts) for ts in tensors}) == 1
        and any(0 < ts[j].dim() < r for ts, (r, _) in zip(tensors, ranks))]
    for fixed, of_input in trials:
        per_case = [fixed if of_input is None else ts[of_input].dim() for ts in tensors]
        if any(row_shape(t.shape, r, k) != list(t.shape) for (r, held), k in zip(ranks, per_case) for t in held):
            continue
        collapsed = [(_row_init(init, ins, r, k), [t.reshape(row_shape(t.shape, r, k)) if isinstance(t, torch.Tensor)
                                                   else t for t in ins])
                     for (init, ins), (r, _), k in zip(cases, ranks, per_case)]
        changed = any(list(a.shape) != list(b.shape) for (_, x), (_, y) in zip(cases, collapsed)
                      for a, b in zip(x, y) if isinstance(a, torch.Tensor))
        if not changed:
            if of_input is None:
                return None
            continue
        if all(_agrees(mod, init, ins, row_init, rows, r, k)
               for (init, ins), (row_init, rows), (r, _), k in zip(cases, collapsed, ranks, per_case)):
            return Rows(per_case[0], [(init, [t.contiguous() if isinstance(t, torch.Tensor) else t for t in rows])
                                      for init, rows in collapsed], of_input)
    return None


def _row_init(init: list, ins: list, rank: int, trailing: int) -> list:
    """The model's arguments for the collapsed case: a list that is the row's dimensions (a norm's
    ``normalized_shape``, [6, 20] of a [4, 6, 20] input) becomes the one dimension of the collapsed row ([120]);
    anything else as it is."""
    full = next((list(t.shape) for t in ins if isinstance(t, torch.Tensor) and t.dim() == rank), None)
    if full is None or trailing < 2 or rank <= trailing:
        return init
    tail = full[rank - trailing:]
    return [type(v)([math.prod(tail)]) if isinstance(v, (list, tuple)) and not isinstance(v, torch.Size)
            and list(v) == tail else v for v in init]


def _agrees(mod: Any, init: list, ins: list, row_init: list, rows: list, rank: int, trailing: int) -> bool:
    """Whether the reference returns on ``rows`` (its model made of ``row_init``) what it returns on ``ins``, each
    result in its collapsed shape."""
    try:
        with torch.no_grad():
            want = _results(mod.Model(*copy.deepcopy(init))(*copy.deepcopy(ins)))
            got = _results(mod.Model(*copy.deepcopy(row_init))(*copy.deepcopy(rows)))
    except Exception:      # the reference reads a rank or a dimension the collapse removed
        return False
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        if not isinstance(w, torch.Tensor) or not isinstance(g, torch.Tensor) or w.dtype != g.dtype \
                or list(g.shape) != row_shape(w.shape, rank, trailing):
            return False
        if w.is_floating_point():
            if not torch.allclose(w.double().flatten(), g.double().flatten(), rtol=1e-3, atol=1e-3, equal_nan=True):
                return False
        elif not torch.equal(w.flatten(), g.flatten()):
            return False
    return True


def _results(out: Any) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def over_rows(plan: Any, rows: Rows, cases: list) -> Any:
    """``plan`` (made on the collapsed cases) as the project for ``cases``: its host reads the call through
    ``RowsContext``; its case metadata has the cases' own shapes."""
    for path, text in list(plan.files.items()):
        if path.startswith("op_host/") and path.endswith(".cpp"):
            plan.files[path] = _host(text, rows)
    return with_own_cases(plan, cases, f" (leading dimensions as rows of the last {rows.what()})")


def with_own_cases(plan: Any, cases: list, note: str) -> Any:
    """``plan`` (made on cases seen otherwise: collapsed, cut) with the cases' own shapes and model arguments in its
    case metadata (a row's dimensions held as a list were one for the planners), ``note`` added to its summary."""
    for meta, (init, ins) in zip(plan.case_meta, cases):
        if "init" in meta:
            meta["init"] = list(init)
        tensors = [t for t in ins if isinstance(t, torch.Tensor)]
        for spec, t in zip(meta.get("inputs", []), tensors):
            if "shape" in spec:
                spec["shape"] = list(t.shape)
    if plan.params is not None:
        plan.params.summary += note
    return plan


def _host(text: str, rows: Rows) -> str:
    """The host with its TilingFunc run on ``RowsContext`` (``templates/rows_context.tmpl``)."""
    inputs = len(re.findall(r'this->Input\("', text))
    outputs = len(re.findall(r'this->Output\("', text))
    trailing = (f"op->GetInputShape({rows.of_input})->GetStorageShape().GetDimNum()" if rows.of_input is not None
                else str(rows.trailing))
    view = load("rows_context.tmpl").substitute(trailing=trailing, what=rows.what(), inputs=inputs, outputs=outputs)
    return on_view(text, view, "RowsContext", "rows")


def on_view(text: str, view: str, cls: str, what: str) -> str:
    """The host with its TilingFunc run on the view class ``cls`` (C++ ``view``, built from the call): the planned
    one made a template over the context (its name + ``Of`` + ``cls``), the OpDef's TilingFunc a wrapper building
    the view. ``what``: the view in words (a comment). ValueError when the host has another form."""
    top = re.search(r"SetTiling\(optiling::(\w+)\)", text)
    if not top or top.group(1) not in _TOP.findall(text) or _NAMESPACE not in text or _END not in text:
        raise ValueError("the host file has another form")
    name = top.group(1)
    text = text.replace(_NAMESPACE, _NAMESPACE + view + "\n", 1)
    text = text.replace("using OpContext = gert::TilingContext;", f"using OpContext = {cls};")
    # every TilingFunc taking the call becomes a template over it; the OpDef's one is renamed
    text = _TOP.sub(lambda m: f"template <typename Context>\nstatic ge::graphStatus "
                              f"{m.group(1)}{'Of' + cls if m.group(1) == name else ''}(Context* context)", text)
    wrapper = (f"// the planned TilingFunc on the call seen as {what} ({cls} above)\n"
               f"static ge::graphStatus {name}(gert::TilingContext* context)\n{{\n"
               f"    {cls} view(context);\n    return {name}Of{cls}(&view);\n}}\n")
    at = text.rindex(_END)
    return text[:at] + wrapper + text[at:]
