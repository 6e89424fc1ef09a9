"""One op for shape cases that need different kernels: a kernel per structure, chosen by tiling key.

NPUKernelBench-kind tasks change an attribute or a pattern from case to case (``torch.sum(x, dim)`` over the last
dimension in one case and an inner one in the next, ``gelu`` exact then tanh, ``add`` broadcasting in some cases
only). One kernel cannot serve them, so the op carries one kernel per structure, as CANN kernels do:

* the cases are grouped by the plan they need (a case joins the first group whose plan still serves it);
* each group is planned by the ordinary planners, unchanged;
* the host's TilingFunc reads the structure of the call (input ranks, which dimensions are 1, dtypes, the values
  of the attributes that differ between groups: only the features that tell the groups apart), calls that
  group's TilingFunc and sets the tiling key (``SetTilingKey``);
* the kernel entry runs the group's kernel under ``TILING_KEY_IS(key)``; each group's kernel and tiling struct
  live in their own namespace / under their own name (``GET_TILING_DATA_WITH_STRUCT``), helpers the kernels
  share are written once.

The key is computed from structure, never from sizes: a new case of a known structure takes its kernel.
"""
from __future__ import annotations

import copy
import dataclasses
import inspect
import itertools
import re
from dataclasses import dataclass
from typing import Any, Callable

import torch

from agent_graph.drafter import codegen
from agent_graph.drafter.ownplan import forward_arguments
from bench_bridge.api import binding_call, install_stubs

MAX_KERNELS = 6
STRUCTURE_REASONS = ("trace to different op graphs", "need different kernel structures", "with different windows",
                     "along different dimensions", "different convolutions", "pass different tensors",
                     "different inputs or outputs")
"""Refusals that mean "the cases need different kernels" (the planners' own words)."""
KEYABLE_TEMPLATES = {"flat", "row", "col", "pool", "gather", "index", "index_put", "scatter", "sort", "resize",
                     "resize_linear", "conv", "triangle"}
"""Templates whose projects merge (vector kernels: one ``extern "C"`` entry, no cube task type)."""


def needs_variants(reason: str) -> bool:
    return any(r in reason for r in STRUCTURE_REASONS)


@dataclass
class Feature:
    """One structural fact the host reads from a call: its C++ name and expression, and its value per case."""

    name: str
    expr: str
    what: str                        # words for the comment
    values: list[Any]

    def cxx(self, v: Any) -> str:
        if isinstance(v, str) and v.startswith("ge::"):
            return v
        if isinstance(v, str):
            return f'"{v}"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and "GetFloat" in self.expr:
            return f"{v!r}f"     # the attribute is a float: compared with the float nearest the case's value
        return str(v)

    def test(self, v: Any) -> str:
        if self.name.startswith("rank") and v == 1 and 0 not in self.values:   # (0: an absent optional input)
            return f"{self.name} <= 1"   # a 0-d tensor: [] or [1] (the emulator's bench hands a scalar tensor as [1])
        if isinstance(v, bool):
            return self.name if v else f"!{self.name}"
        if isinstance(v, str) and not v.startswith("ge::"):
            return f"std::strcmp({self.name}, {self.cxx(v)}) == 0"
        return f"{self.name} == {self.cxx(v)}"


def plan_keyed(task: Any, cases: list, mod: Any, plan_subset: Callable[[list[int]], Any], Plan: type,
               Unsupported: type) -> Any:
    """A ``Plan`` whose project serves every case through one kernel per group of cases, or an ``Unsupported``
    naming what stops it, or None when grouping does not apply (one group would do, or a planner refuses a case
    alone). ``Plan``/``Unsupported``: the planner's result types (passed in: the planner imports this module)."""
    groups: list[list[int]] = []
    plans: list[Any] = []
    for k in range(len(cases)):
        for g, members in enumerate(groups):
            trial = plan_subset(members + [k])
            if isinstance(trial, Plan):
                members.append(k)
                plans[g] = trial
                break
        else:
            alone = plan_subset([k])
            if not isinstance(alone, Plan):
                return Unsupported(task.name, f"the shape cases need different kernels, and case {k} alone is not "
                                              f"covered: {alone.reason}", alone.op, alone.category)
            groups.append([k])
            plans.append(alone)
    if len(groups) < 2:
        return None
    if len(groups) > MAX_KERNELS:
        return Unsupported(task.name, f"the shape cases need {len(groups)} different kernels (at most {MAX_KERNELS} in one op)")
    bad = next((p for p in plans if p.template not in KEYABLE_TEMPLATES), None)
    if bad is not None:
        return Unsupported(task.name, f"the shape cases need different kernels, and template '{bad.template}' "
                                      "does not take a tiling-key dispatch yet", category=bad.category)
    try:
        return _merge(task, cases, mod, groups, plans, Plan)
    except MergeError as e:
        return Unsupported(task.name, f"the shape cases need different kernels: {e}", category=plans[0].category)


class MergeError(Exception):
    pass


# ---- features: what tells the groups apart ------------------------------------------------------------------

SCALAR = (bool, int, float, str)


def _scalars(mod: Any, ins: list, init: list | None = None) -> list[tuple[str, Any]]:
    """The non-tensor arguments the harness passes as the op's attributes (name, value), in order: the forward's,
    then those of the ``__init__`` arguments the task's binding passes after them when they are modes (strings or
    flags: NPUKernelBench's ``ModelNew`` calls ``mse_loss(predict, label, self.reduction)``)."""
    fwd = [(n, v) for n, v in forward_arguments(mod, ins) if isinstance(v, SCALAR)]
    return fwd + _binding_extras(mod, ins, init or [], fwd)


def modes(mod: Any, ins: list, init: list | None = None) -> tuple:
    """The case's modes: the strings, flags and ints among the op's attributes (``_scalars``); floats are values."""
    return tuple((n, v) for n, v in _scalars(mod, ins, init) if isinstance(v, (str, bool, int)))


def binding_tensors(args: list) -> list:
    """The tensors of a call's arguments in order (a list of tensors: its items)."""
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            out.append(a)
        elif isinstance(a, (list, tuple)) and a and all(isinstance(t, torch.Tensor) for t in a):
            out += list(a)
    return out


def binding_order(call_args: list, ins: list) -> list[int] | None:
    """Which forward tensor the binding's call passes at each place (by identity), or None when the call passes
    tensors the forward does not hold as they are (copies, casts): the order is then not known."""
    fwd = binding_tensors(ins)
    order = []
    for t in binding_tensors(call_args):
        k = next((k for k, f in enumerate(fwd) if f is t), None)
        if k is None:
            return None
        order.append(k)
    return order


def _binding_scalars(mod: Any, ins: list, init: list, fwd: list[tuple[str, Any]]) -> list[tuple[str, Any, int | None]]:
    """The scalars the binding's call passes after the forward's own: (the ``__init__`` parameter holding the
    value, the value, its index in ``init``); none when there is no binding or its scalars do not start with the
    forward's."""
    if not hasattr(mod, "ModelNew") or not init:
        return []
    install_stubs()
    try:
        call = binding_call(mod, init, list(ins))
    except Exception:
        return []
    if call is None:
        return []
    # an absent optional tensor (None) is no attribute; (a reordering binding: refused by the planner first)
    scal = [a for a in call[1] if a is not None and not binding_tensors([a])]
    if len(scal) <= len(fwd) or [type(v)(x) if isinstance(v, SCALAR) else x for x, (_, v) in zip(scal, fwd)] != \
            [v for _, v in fwd]:
        return []
    try:
        names = [p for p in inspect.signature(mod.Model.__init__).parameters][1:]
    except (TypeError, ValueError):
        names = []
    out, used = [], set()
    for k, v in enumerate(scal[len(fwd):]):
        j = next((j for j, x in enumerate(init) if j not in used and _same_value(x, v)), None)
        if j is not None:
            used.add(j)
        name = names[j] if j is not None and j < len(names) else f"arg{len(fwd) + k}"
        out.append((name, v, j))
    return out


MODE_INTS = range(0, 16)
"""Ints the model holds that the binding passes and that may choose a kernel: small ones are modes (ApplyFusedEmaAdam's
``mode`` 0 / 1); a larger number is a size or a count (Isamax's n), and choosing a kernel by it would choose by size."""


def _held_extras(mod: Any, ins: list, init: list, fwd: list[tuple[str, Any]]) -> list[tuple[str, Any, int | None]]:
    """The scalars the binding passes after the forward's own when every one is a mode (a string, a flag, a small
    int) or a float the model holds (its value a float attribute); none otherwise."""
    extras = _binding_scalars(mod, ins, init, fwd)
    def fits(v: Any, j: int | None) -> bool:
        return (isinstance(v, (str, bool)) or (isinstance(v, float) and j is not None)
                or (isinstance(v, int) and v in MODE_INTS) or _int_list(v))
    return extras if extras and all(fits(v, j) for _, v, j in extras) else []


def _binding_extras(mod: Any, ins: list, init: list, fwd: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The scalars the binding's call passes after the forward's own (``_held_extras``: reduction, approximate,
    ApplyFusedEmaAdam's lr ... mode, biasCorrection), named after the ``__init__`` parameter holding each: the
    op's attributes, in the call's order; modes may choose a kernel, floats are read at run time."""
    return [(name, v) for name, v, _ in _held_extras(mod, ins, init, fwd)]


def binding_floats(mod: Any, ins: list, init: list) -> list[tuple[int, str]]:
    """The floats the model holds that the binding passes to the op after the forward's scalars (DeepNorm's
    ``self.alpha, self.epsilon``, beside modes the binding passes too): (index in ``init``, ``__init__`` parameter
    name) of each; the op reads them as float attributes, each case's own value at run time."""
    fwd = [(n, v) for n, v in forward_arguments(mod, ins) if isinstance(v, SCALAR)]
    return [(j, name) for name, v, j in _held_extras(mod, ins, init, fwd) if isinstance(v, float)]


def _declared(plans: list[Any]) -> dict[str, str]:
    """The kind each group's OpDef gives an attribute (a front end may read an int forward argument as a float)."""
    kinds: dict[str, str] = {}
    for pl in plans:
        o = _OPS.search(_files(pl)[1])
        for a in _ATTR.finditer(o.group(1) if o else ""):
            m = re.search(r"\.(Float|Int|Bool|String)\(", a.group(0))
            if m:
                kinds.setdefault(a.group(1), {"Float": "float", "Int": "int", "Bool": "bool", "String": "str"}[m.group(1)])
    return kinds


def _tensor_slots(cases: list) -> tuple[list[list[Any]], list[int]]:
    """Per case its tensors in forward order, None where an optional tensor is not given (a forward argument that
    is a tensor in some cases and None in others: an OPTIONAL input); and the indices of those optional slots."""
    width = {len(ins) for _, ins in cases}
    if len(width) > 1:
        raise MergeError("the cases pass different numbers of tensors or attributes")
    places = [p for p in range(width.pop()) if any(isinstance(ins[p], torch.Tensor) for _, ins in cases)]
    optional = []
    for k, p in enumerate(places):
        kinds = {type(ins[p]) if ins[p] is not None else None for _, ins in cases}
        if None in kinds and kinds <= {None, torch.Tensor, torch.nn.Parameter}:
            optional.append(k)
        elif not kinds <= {torch.Tensor, torch.nn.Parameter}:
            raise MergeError("the cases pass different numbers of tensors or attributes")
    return [[ins[p] for p in places] for _, ins in cases], optional


def _features(cases: list, mod: Any, declared: dict[str, str]) -> tuple[list[Feature], list[tuple[str, Any]]]:
    tensors, optional = _tensor_slots(cases)
    scal = [_scalars(mod, ins, init) for init, ins in cases]
    if len({tuple(n for n, _ in s) for s in scal}) > 1:
        raise MergeError("the cases pass different numbers of tensors or attributes")
    attrs = scal[0]
    feats: list[Feature] = []
    for j, (name, v0) in enumerate(attrs):      # attributes first: the usual reason for another kernel
        vals = [s[j][1] for s in scal]
        kind = _attr_kind(vals)
        if kind == "listint":    # its length may choose a kernel (normalized_shape [20] or [5, 20] of [10, 5, 20])
            feats.append(Feature(f"{_ident(name)}Len", f"static_cast<int64_t>(attrs->GetListInt({j})->GetSize())",
                                 f"the length of attribute '{name}'", [len(v) for v in vals]))
            continue
        have = declared.get(name, kind)
        get = {"int": "GetInt", "float": "GetFloat", "bool": "GetBool", "str": "GetStr"}[have]
        expr = f"{'' if have == 'str' else '*'}attrs->{get}({j})"
        if have == "float" and kind == "int":      # declared float by a kernel that reads it as a number
            expr = f"static_cast<int64_t>({expr})"
        elif have != kind and not (have == "float" and kind == "float"):
            raise MergeError(f"attribute '{name}' is declared {have} but its values are {kind}")
        feats.append(Feature(_ident(name), expr, f"attribute '{name}'", vals))
        if kind == "int" and re.search(r"dim|axis", name) and tensors[0]:
            ranks = [t[0].dim() for t in tensors]
            feats.insert(len(feats) - 1, Feature(
                f"{_ident(name)}Norm", f"({_ident(name)}Raw % rank0 + rank0) % rank0",
                f"attribute '{name}' as a dimension of input 0 (0..rank-1)",
                [((v % r) + r) % r if r else 0 for v, r in zip(vals, ranks)]))
    for i in optional:   # an absent OPTIONAL input: the host reads it by its OpDef position
        feats.append(Feature(f"hasInput{i}", f"context->GetOptionalInputTensor({i}) != nullptr",
                             f"whether optional input {i} is given", [t[i] is not None for t in tensors]))
    fixed = min(optional, default=len(tensors[0]))   # inputs at the same place in every call (before any optional)
    for i in range(len(tensors[0])):
        # after an absent optional input the others move up: read by OpDef position, 0 / DT_UNDEFINED when absent
        shape = f"context->GetInputShape({i})" if i < fixed else f"context->GetOptionalInputShape({i})"
        rank = f"static_cast<int64_t>({shape}->GetStorageShape().GetDimNum())"
        feats.append(Feature(f"rank{i}", rank if i < fixed else f"({shape} != nullptr ? {rank} : 0)", f"the rank of input {i}",
                             [0 if t[i] is None else max(t[i].dim(), 1) for t in tensors]))
    for i in range(len(tensors[0])):
        desc = f"context->GetInputDesc({i})" if i < fixed else f"context->GetOptionalInputDesc({i})"
        feats.append(Feature(f"dtype{i}", f"{desc}->GetDataType()" if i < fixed else
                             f"({desc} != nullptr ? {desc}->GetDataType() : ge::DT_UNDEFINED)", f"the dtype of input {i}",
                             ["ge::DT_UNDEFINED" if t[i] is None else codegen.GE.get(str(t[i].dtype).replace("torch.", ""),
                                                                                  "ge::DT_UNDEFINED") for t in tensors]))
    for i in range(fixed):
        feats.append(Feature(f"unitDims{i}", f"UnitDims(context->GetInputShape({i})->GetStorageShape())",
                             f"the dimensions of size 1 of input {i} (bit d: dimension d)",
                             [sum(1 << d for d, s in enumerate(t[i].shape) if s == 1) for t in tensors]))
    return feats, attrs


def _same_value(held: Any, passed: Any) -> bool:
    """Whether the binding passes the value the model holds (a list it holds may be passed as a tuple)."""
    if _int_list(held) and _int_list(passed):
        return list(held) == list(passed)
    return type(held) is type(passed) and held == passed


def _int_list(v: Any) -> bool:
    """A list or tuple of ints (a shape or dimensions: LayerNormV4's ``normalized_shape``): a ListInt attribute."""
    return isinstance(v, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


def _attr_kind(vals: list) -> str:
    if all(_int_list(v) for v in vals):
        return "listint"
    if all(isinstance(v, bool) for v in vals):
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "int"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return "float"
    if all(isinstance(v, str) for v in vals):
        return "str"
    raise MergeError("an attribute changes type between cases")


def _ident(name: str) -> str:
    parts = [p for p in re.split(r"\W+", name) if p]
    s = parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:]) if parts else "attr"
    return s if s[0].isalpha() else "a" + s


def _tier(f: Feature) -> int:
    """How well a feature names a structure (lower: better). A string or bool attribute is a mode (reduction,
    is_result); a dtype picks a code path (a float16 input cast to float32); an int attribute a dimension; ranks
    and unit dimensions tell cases apart by chance as often as by structure (and a 0-d tensor may reach the host as
    [1]); a float attribute is a value, seldom a structure."""
    if "GetStr" in f.expr:
        return 0
    if "GetBool" in f.expr or "GetOptionalInput" in f.expr:
        return 1
    if f.name.startswith("dtype"):
        return 2
    if "GetFloat" in f.expr:
        return 6
    if "attrs->" in f.expr or f.name.endswith("Norm"):
        return 3
    return 4 if f.name.startswith("rank") else 5


def _choose(feats: list[Feature], group_of: list[int]) -> list[Feature]:
    """The fewest features under which no two cases of different groups look alike, the best-naming ones among
    equally few (``_tier``), so that a new case of a known structure finds its kernel."""
    n = len(group_of)
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if group_of[a] != group_of[b]]
    ranked = sorted(feats, key=_tier)
    structural = [f for f in ranked if "GetFloat" not in f.expr]
    # a float attribute is a value: it chooses a kernel only where no structure tells the groups apart
    for pool in (structural, ranked):
        for size in range(1, min(3, len(pool)) + 1):
            best = None
            for subset in itertools.combinations(pool, size):
                if all(any(f.values[a] != f.values[b] for f in subset) for a, b in pairs):
                    cost = sum(_tier(f) for f in subset)
                    if best is None or cost < best[0]:
                        best = (cost, list(subset))
            if best is not None:
                return best[1]
    chosen: list[Feature] = []         # more than three: greedy, the feature that separates most pairs first
    pending = pairs
    while pending:
        top = max(ranked, key=lambda f: (sum(f.values[a] != f.values[b] for a, b in pending), -_tier(f)))
        if all(top.values[a] == top.values[b] for a, b in pending):
            raise MergeError("cases that need different kernels look alike to the host (same ranks, dtypes, "
                             "unit dimensions and attributes: the choice would depend on sizes)")
        chosen.append(top)
        pending = [(a, b) for a, b in pending if top.values[a] == top.values[b]]
    return chosen


# ---- merging the groups' projects ---------------------------------------------------------------------------

_ENTRY = re.compile(r'extern "C" __global__ __aicore__ void (\w+)\(([^)]*)\)\s*\{(.*)\}\s*$', re.S)
_OPTILING = re.compile(r"namespace optiling \{\n(.*?)\n\}  // namespace optiling", re.S)
_OPS = re.compile(r"namespace ops \{\n(.*?)\n\}  // namespace ops", re.S)
_IO = re.compile(r'this->(Input|Output)\("(\w+)"\)\.ParamType\((\w+)\)\.DataType\(\{([^}]*)\}\)\.Format\(\{([^}]*)\}\)'
                 r'(\.ValueDepend\(\w+\))?;')
_ATTR = re.compile(r'this->Attr\("(\w+)"\)[^;]*;')
_TILING_DEF = re.compile(r"BEGIN_TILING_DATA_DEF\((\w+)\)\n(.*?)END_TILING_DATA_DEF;", re.S)


def _files(plan: Any) -> tuple[str, str, str, str, str]:
    snake = next(p for p in plan.files if p.startswith("op_kernel/"))[len("op_kernel/"):-len(".cpp")]
    return (snake, plan.files[f"op_host/{snake}.cpp"], plan.files[f"op_host/{snake}_tiling.h"],
            plan.files[f"op_kernel/{snake}.cpp"], plan.op_type)


def _outputs(plan: Any) -> list[str]:
    o = _OPS.search(_files(plan)[1])
    return [r[1] for r in _IO.findall(o.group(1) if o else "") if r[0] == "Output"]


def _renamed_output(plan: Any, old: str, new: str) -> Any:
    """The plan with its output ``old`` named ``new`` in its files and interface (a group of one result, ``y``, in an
    op whose other groups return several, ``y0``, ``y1``: the harness matches results by position)."""
    if any(re.search(rf"\b{new}\b", t) for t in plan.files.values()):
        raise MergeError("the groups' kernels name their results differently")
    up, new_up = codegen._macro(old), codegen._macro(new)
    def rename(t: str) -> str:
        t = re.sub(rf"\b(ORIG_)?DTYPE_{up}\b", lambda m: f"{m.group(1) or ''}DTYPE_{new_up}", t)
        return re.sub(rf"\b{old}\b", new, t)
    out = copy.copy(plan)
    out.files = {p: rename(t) if p.endswith((".cpp", ".h")) else t for p, t in plan.files.items()}
    if plan.params is not None:
        out.params = copy.copy(plan.params)
        out.params.outputs = [dataclasses.replace(o, name=new) if o.name == old else o for o in plan.params.outputs]
    return out


def _align_outputs(plans: list[Any]) -> list[Any]:
    """The groups' plans with a group of one result named as the first of the others' several (``y`` -> ``y0``)."""
    outs = [_outputs(pl) for pl in plans]
    longest = max(outs, key=len)
    if len(longest) < 2:
        return plans
    return [_renamed_output(pl, o[0], longest[0]) if len(o) == 1 and o[0] != longest[0] else pl
            for pl, o in zip(plans, outs)]


def _merge(task: Any, cases: list, mod: Any, groups: list[list[int]], plans: list[Any], plan_type: Any) -> Any:
    group_of = [next(g for g, m in enumerate(groups) if k in m) for k in range(len(cases))]
    plans = _align_outputs(plans)
    feats, attrs = _features(cases, mod, _declared(plans))
    chosen = _choose(feats, group_of)
    snake, _, _, _, op = _files(plans[0])
    struct = f"{op}TilingData"
    names = {tuple(p.name for p in pl.params.inputs) for pl in plans} if all(pl.params for pl in plans) else {None}
    if len(names) > 1 and (None in names or _union(list(names)) is None):
        raise MergeError("the groups' kernels take different inputs")
    summaries = [pl.params.summary if pl.params else pl.template for pl in plans]
    keys = list(range(1, len(plans) + 1))
    host = _merge_host(plans, keys, op, struct, chosen, feats, attrs, group_of, summaries)
    host = _infer_shapes(host, op, cases, mod)
    header = _merge_tiling(plans, keys, op, struct, snake)
    kernel = _merge_kernel(plans, keys, op, struct, summaries, groups)
    files = {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": header, f"op_kernel/{snake}.cpp": kernel}
    meta: list[dict] = [{}] * len(cases)
    graphs: list[Any] = []
    for members, pl in zip(groups, plans):
        for k, m in zip(members, pl.case_meta):
            meta[k] = m
        graphs += list(pl.graphs)
    p0 = plans[0]
    return plan_type(task=task, op_type=op, category=p0.category, template="keyed", params=p0.params,
                     graphs=graphs, files=files, case_meta=meta)


def _union(seqs: list[Any]) -> list[str] | None:
    """The names of several sequences in one order that keeps each sequence's (the groups' kernel inputs, some
    without an optional one), or None when no such order exists."""
    out: list[str] = []
    for seq in sorted(seqs, key=len, reverse=True):
        at = 0
        for name in seq:
            if name in out:
                if out.index(name) < at:
                    return None
                at = out.index(name) + 1
            else:
                out.insert(at, name)
                at += 1
    return out if all([n for n in out if n in seq] == list(seq) for seq in seqs) else None


def _merge_tiling(plans: list[Any], keys: list[int], op: str, struct: str, snake: str) -> str:
    defs = []
    for k, pl in zip(keys, plans):
        m = _TILING_DEF.search(_files(pl)[2])
        if not m or m.group(1) != struct:
            raise MergeError(f"the tiling header of template '{pl.template}' has another form")
        defs.append(f"// key {k}\nBEGIN_TILING_DATA_DEF({struct}{k})\n{m.group(2)}END_TILING_DATA_DEF;\n")
    guard = f"{snake.upper()}_TILING_H"
    regs = [f"REGISTER_TILING_DATA_CLASS({op}, {struct}{keys[0]})"] + \
           [f"REGISTER_TILING_DATA_CLASS({op}_{k}, {struct}{k})" for k in keys]
    return (f"// {op} tiling data (generated by the kgen offline drafter): one struct per kernel, by tiling key.\n"
            f"#ifndef {guard}\n#define {guard}\n#include \"register/tilingdata_base.h\"\n\nnamespace optiling {{\n"
            + "\n".join(defs) + "\n" + "\n".join(regs) + "\n}  // namespace optiling\n#endif\n")


def _shape_sources(r: torch.Tensor, tensors: list) -> set[tuple[int, tuple[int, ...]]]:
    """The ways a result's shape is an input's: (input j, the dimensions, counted from the end, that the result has as
    1 where the input does not: a reduction's keepdim), for every input of the result's rank."""
    out = set()
    for j, t in enumerate(tensors):
        if t.dim() != r.dim():
            continue
        ones = tuple(d - t.dim() for d in range(t.dim()) if r.shape[d] != t.shape[d])
        if all(r.shape[d + t.dim()] == 1 for d in ones):
            out.add((j, ones))
    return out


def _infer_shapes(host: str, op: str, cases: list, mod: Any) -> str:
    """An op whose groups return different numbers of results (the merged OpDef declares them all) gets an
    InferShape: each result has the shape of the input it has in every case that returns it, or that shape with the
    same dimensions set to 1 (a row maximum kept as [rows, 1]); the harness takes the shapes of the results a case
    does not return from it, and compares none of them."""
    o = _OPS.search(host)
    outs = [r for r in _IO.findall(o.group(1)) if r[0] == "Output"] if o else []
    if not outs or "SetInferShape" in host:
        return host
    source: list[set | None] = [None] * len(outs)
    counts = set()
    for init, ins in cases:
        tensors = binding_tensors(list(ins))
        with torch.no_grad():
            res = mod.Model(*copy.deepcopy(init))(*copy.deepcopy(list(ins)))
        res = binding_tensors(list(res) if isinstance(res, (tuple, list)) else [res])
        counts.add(len(res))
        for i, r in enumerate(res[:len(outs)]):
            ways = _shape_sources(r, tensors)
            source[i] = ways if source[i] is None else source[i] & ways
    if len(counts) < 2 or any(not s for s in source):
        return host
    lines = []
    for i, ways in enumerate(source):
        j, ones = min(ways, key=lambda w: (len(w[1]), w[0]))   # an input's shape itself where one serves
        lines.append(f"    *context->GetOutputShape({i}) = *context->GetInputShape({j});")
        for d in ones:
            lines.append(f"    context->GetOutputShape({i})->SetDim(context->GetOutputShape({i})->GetDimNum() - {-d}, 1);")
    fn = (f"namespace ge {{\n// each result has the shape of an input, or that shape with some dimensions 1 (a case may "
          f"return fewer results than the op declares)\nstatic ge::graphStatus {op}InferShape(gert::InferShapeContext* "
          f"context)\n{{\n" + "\n".join(lines) + "\n    return GRAPH_SUCCESS;\n}\n}  // namespace ge\n\n")
    host = host[:o.start()] + fn + host[o.start():]
    return re.sub(r"(\n(\s*)this->AICore\(\)\.SetTiling)", rf"\n\2this->SetInferShape(ge::{op}InferShape);\1", host, count=1)


def _merge_host(plans, keys, op, struct, chosen, feats, attrs, group_of, summaries) -> str:
    includes: list[str] = ["#include <cstdint>", "#include <cstdio>", "#include <cstring>"]
    bodies, opdefs = [], []
    for k, pl in zip(keys, plans):
        text = _files(pl)[1]
        for ln in text.splitlines():
            if ln.startswith("#include") and ln not in includes:
                includes.append(ln)
        m, o = _OPTILING.search(text), _OPS.search(text)
        if not m or not o:
            raise MergeError(f"the host file of template '{pl.template}' has another form")
        body = re.sub(rf"\b{struct}\b", f"{struct}{k}", m.group(1))
        own = [a.group(1) for a in _ATTR.finditer(o.group(1))]
        names = [n for n, _ in attrs]
        for a in own:                       # the group's attribute j is the op's attribute names.index(a)
            if a not in names:
                raise MergeError(f"attribute '{a}' of one kernel is not a forward argument")
        body = _remap_attrs(body, own, names)
        bodies.append(f"// key {k}: {summaries[k - 1]}\nnamespace key{k} {{\n{body}\n}}  // namespace key{k}\n")
        opdefs.append(o.group(1))
    dispatch = _dispatch(op, keys, chosen, feats, group_of)
    return (f"// {op}: host side generated by the kgen offline drafter: its shape cases need {len(keys)} different\n"
            f"// kernels; TilingFunc reads the structure of the call, runs that kernel's tiling and sets its tiling key.\n"
            + "\n".join(includes) + "\n\nnamespace optiling {\n" + "\n".join(bodies) + "\n" + dispatch
            + "}  // namespace optiling\n\nnamespace ops {\n" + _merge_opdef(opdefs, attrs) + "\n}  // namespace ops\n")


def _dispatch(op: str, keys: list[int], chosen: list[Feature], feats: list[Feature], group_of: list[int]) -> str:
    by_name = {f.name: f for f in feats}
    lines = [f"static ge::graphStatus {op}Tiling(gert::TilingContext* context)", "{"]
    needs = {f.name for f in chosen}
    if any(f.name.endswith("Norm") for f in chosen):
        needs |= {"rank0"}
    if any(n.startswith("unitDims") for n in needs):
        lines[0:0] = ["// bit d set: dimension d of the shape is 1 (a broadcast dimension)",
                      "static uint32_t UnitDims(const gert::Shape& shape)", "{", "    uint32_t bits = 0;",
                      "    for (size_t d = 0; d < shape.GetDimNum() && d < 32; ++d) {",
                      "        if (shape.GetDim(d) == 1) bits |= 1U << d;", "    }", "    return bits;", "}", ""]
    if any("attrs->" in f.expr or f.name.endswith("Norm") for f in chosen):
        lines.append("    const gert::RuntimeAttrs* attrs = context->GetAttrs();")
    for name in ("rank0",):
        if name in needs and name not in {f.name for f in chosen}:
            lines.append(f"    const int64_t {name} = {by_name[name].expr};   // {by_name[name].what}")
    for f in sorted(chosen, key=lambda f: f.name != "rank0"):   # rank0 first: a normalised dimension reads it
        if f.name.endswith("Norm"):
            raw = by_name[f.name.removesuffix("Norm")]
            lines.append(f"    const int64_t {raw.name}Raw = {raw.expr};")
            lines.append(f"    const int64_t {f.name} = rank0 > 0 ? {f.expr} : 0;   // {f.what}")
            continue
        ctype = "const char*" if f.expr.startswith("attrs->GetStr") else "const bool" if f.name.startswith("hasInput") else (
            "const ge::DataType" if f.name.startswith("dtype") else "const int64_t" if "Int(" in f.expr or
            "static_cast<int64_t>" in f.expr or f.name.startswith(("rank", "unitDims")) else "const auto")
        lines.append(f"    {ctype} {f.name} = {f.expr};   // {f.what}")
    lines.append("    uint32_t key = 0;   // the kernel this structure needs (0: none)")
    for k in keys:
        seen = []
        for c, g in enumerate(group_of):
            if g == k - 1:
                conj = " && ".join(f.test(f.values[c]) for f in chosen)
                if conj not in seen:
                    seen.append(conj)
        cond = " || ".join(f"({s})" for s in seen) if len(seen) > 1 else seen[0]
        lines.append(f"    {'if' if k == keys[0] else 'else if'} ({cond}) {{")
        lines.append(f"        key = {k};")
        lines.append("    }")
    lines += ["    if (key == 0) {",
              f'        std::printf("{op}: no kernel for this structure ({", ".join(f.name + "=%lld" if not f.expr.startswith("attrs->GetStr") else f.name + "=%s" for f in chosen)})\\n", '
              + ", ".join(f.name if f.expr.startswith("attrs->GetStr") else f"static_cast<long long>({f.name})" for f in chosen) + ");",
              "        return ge::GRAPH_FAILED;", "    }", "    context->SetTilingKey(key);", "    switch (key) {"]
    lines += [f"        case {k}: return key{k}::{op}Tiling(context);" for k in keys]
    lines += ["        default: return ge::GRAPH_FAILED;", "    }", "}", ""]
    return "\n".join(lines) + "\n"


_ATTR_READ = r"(GetAttrPointer<\w+>|Get(?:Int|Float|Bool|Str|ListInt))\({j}\)"


def _remap_attrs(text: str, own: list[str], names: list[str]) -> str:
    """``text``'s reads of its own attribute j (``GetAttrPointer<float>(j)``, ``attrs->GetInt(j)``) as reads of
    the op's attribute ``names.index(own[j])``."""
    for j, a in enumerate(own):
        text = re.sub(_ATTR_READ.format(j=j), rf"\g<1>(@{names.index(a)}@)", text)
    return re.sub(r"\(@(\d+)@\)", r"(\1)", text)


def _attr_decl(name: str, v: Any, note: str) -> str:
    kind = _attr_kind([v])
    decl = (f"Bool({'true' if v else 'false'})" if kind == "bool" else f"Int({v})" if kind == "int" else
            f'String("{v}")' if kind == "str" else
            "ListInt({" + ", ".join(str(x) for x in v) + "})" if kind == "listint" else f"Float({float(v)!r}f)")
    return f'        this->Attr("{name}").AttrType(OPTIONAL).{decl};   // {note}'


def declare_call_attrs(files: dict[str, str], mod: Any, ins: list, init: list) -> dict[str, str]:
    """A one-kernel project whose OpDef declares only the attributes its kernel reads (the floats), given every
    scalar the harness passes, in the call's order (the harness fills the op's attributes in order: before, a
    ``forward(x, flag, scale)`` op declaring only ``scale`` got the flag's value in it); the kernel's reads
    remapped to their places. The files unchanged when they already agree or the kernel reads something else."""
    scalars = _scalars(mod, ins, init)          # (runs the binding's call once)
    names = [n for n, _ in scalars]
    host_path = next((p for p in files if p.startswith("op_host/") and not p.endswith(".h")), None)
    if host_path is None:
        return files
    host = files[host_path]
    o = _OPS.search(host)
    if not o:
        return files
    own = [a.group(1) for a in _ATTR.finditer(o.group(1))]
    if own == names or any(a not in names for a in own) or len(set(own)) != len(own):
        return files
    try:
        values = dict(scalars)
        lines = {a.group(1): a.group(0) for a in _ATTR.finditer(o.group(1))}
        decls = ["        " + lines[n] if n in lines else
                 _attr_decl(n, values[n], "passed by the call; this kernel's structure is the drafted cases'")
                 for n in names]
    except MergeError:
        return files
    opdef = re.sub(r"\n[ \t]*" + _ATTR.pattern + r"[^\n]*", "", o.group(1))   # declared again below, in order
    tensors = list(_IO.finditer(opdef))
    if not tensors:
        return files
    last = tensors[-1]
    opdef = opdef[:last.end()] + "\n" + "\n".join(decls) + opdef[last.end():]
    head = _remap_attrs(host[:o.start()], own, names)
    return {**files, host_path: head + host[o.start():o.start(1)] + opdef + host[o.end(1):]}


def _merge_opdef(opdefs: list[str], attrs: list[tuple[str, Any]]) -> str:
    """One OpDef: the groups' dtype combinations together, every forward attribute declared in order."""
    io: dict[str, tuple[str, str, list[list[str]]]] = {}
    order: list[str] = []
    attr_lines: dict[str, str] = {}
    combos: list[tuple] = []
    parsed = [_IO.findall(text) for text in opdefs]
    if not all(parsed):
        raise MergeError("an OpDef of another form")
    ins = _union([[r[1] for r in rows if r[0] == "Input"] for rows in parsed])
    outs = {tuple(r[1] for r in rows if r[0] == "Output") for rows in parsed}
    longest = max(outs, key=len)
    # a group may return fewer results (ApplyAdamW returns max_grad_norm only with amsgrad): the op declares them
    # all, the harness compares the ones the case's reference returns
    if ins is None or any(longest[:len(o)] != o for o in outs):
        raise MergeError("the groups' kernels take different inputs")
    names = ins + list(longest)
    absent = {n for n in ins if any(n not in [r[1] for r in rows] for rows in parsed)}   # OPTIONAL inputs
    for text, rows in zip(opdefs, parsed):
        have = {r[1]: r for r in rows}
        for j in range(len(rows[0][3].split(","))):
            # an input this kernel does not take: the combination lists the first input's dtype for it
            combo = tuple((have.get(n) or rows[0])[3].split(",")[j].strip() for n in names)
            if combo not in combos:
                combos.append(combo)
        for n in names:
            if n not in io and (n in have or n in absent):
                io[n] = ("Input", "OPTIONAL", []) if n in absent else (have[n][0], have[n][2], [])
                order.append(n)
        for a in _ATTR.finditer(text):
            attr_lines.setdefault(a.group(1), a.group(0))
        fmts = {f.strip() for r in rows for f in r[4].split(",")}
        if fmts != {"ge::FORMAT_ND"}:
            raise MergeError("an OpDef with a format other than ND")
    head = re.search(r"(class \w+ : public OpDef \{.*?\{\n)", opdefs[0], re.S)
    tail = re.search(r"(\s*this->AICore\(\)\.SetTiling.*)", opdefs[0], re.S)
    if not head or not tail or len(order) != len(combos[0]):
        raise MergeError("an OpDef of another form")
    depend = {r[1]: r[5] for rows in parsed for r in rows if r[5]}    # inputs a group's host reads (ValueDepend)
    out = [head.group(1).rstrip("\n")]
    for i, name in enumerate(order):
        kind, ptype, _ = io[name]
        types = ", ".join(c[i] for c in combos)
        fmts = ", ".join(["ge::FORMAT_ND"] * len(combos))
        out.append(f'        this->{kind}("{name}").ParamType({ptype}).DataType({{{types}}}).Format({{{fmts}}}){depend.get(name, "")};')
    for name, v in attrs:
        out.append("        " + attr_lines[name] if name in attr_lines else _attr_decl(name, v, "chooses the kernel"))
    return "\n".join(out) + tail.group(1).rstrip() + ""


def _chunks(text: str) -> list[str]:
    """Top-level blocks of C++: split at blank lines outside any braces."""
    out, cur, depth = [], [], 0
    for ln in text.splitlines():
        if not ln.strip() and depth == 0:
            if cur:
                out.append("\n".join(cur))
            cur = []
            continue
        cur.append(ln)
        code = ln.split("//")[0]
        depth += code.count("{") - code.count("}")
    if cur:
        out.append("\n".join(cur))
    return [c for c in out if c.strip()]


def _merge_kernel(plans, keys, op, struct, summaries, groups) -> str:
    heads, bodies, entries = [], [], []
    for pl in plans:
        text = _files(pl)[3]
        at = text.index("using namespace AscendC;") + len("using namespace AscendC;")
        m = _ENTRY.search(text)
        if not m:
            raise MergeError(f"the kernel of template '{pl.template}' has another form")
        heads.append(text[:at])
        bodies.append(text[at:m.start()])
        entries.append(m)
    params = [[a.strip() for a in m.group(2).split(",")] for m in entries]
    full = _union(params)        # a kernel without an optional input takes fewer arguments
    if full is None:
        raise MergeError("the groups' kernels take different arguments")
    shared: list[str] = []
    per: list[list[str]] = []
    for b in bodies:
        per.append(_chunks(b))
    for chunks in per:          # a block every kernel holds the same (a helper) is written once, before the namespaces
        for c in chunks:
            if c not in shared and all(c in other for other in per) and "class " not in c:
                shared.append(c)
    includes = []
    for h in heads:
        for ln in h.splitlines():
            if ln.startswith("#include") and ln not in includes:
                includes.append(ln)
    parts = [f"// {op}: kernels generated by the kgen offline drafter, one per structure its shape cases need;",
             "// the host's TilingFunc chooses one with the tiling key (TILING_KEY_IS below).",
             *[f"//   key {k}: {s} (cases {', '.join(map(str, g))})" for k, s, g in zip(keys, summaries, groups)],
             *includes, "using namespace AscendC;", "", *[c + "\n" for c in shared]]
    complex_op = any("complex64" in p.dtypes for pl in plans for p in _tensors(pl))
    guards = [_combos_guard(pl, complex_op) for pl in plans]
    if len(set(guards)) == 1:   # every group compiles in the same builds: nothing to keep out
        guards = [""] * len(plans)
    for k, chunks, m, guard in zip(keys, per, entries, guards):
        own = [c for c in chunks if c not in shared]
        body = re.sub(r"GET_TILING_DATA\((\w+),\s*(\w+)\)", rf"GET_TILING_DATA_WITH_STRUCT({struct}{k}, \1, \2)", m.group(3))
        run = f"__aicore__ inline void Run({m.group(2)})"
        code = [*[c + "\n" for c in own], run, "{" + body.rstrip() + "\n}", ""]
        if guard:   # compiled in the builds of this group's dtype combinations only (each is its own build)
            code = [f"#if {guard}", *code, "#else", f"{run} {{}}   // (a build of dtypes another group's kernel serves)",
                    "#endif", ""]
        parts += [f"namespace key{k} {{", "", *code, f"}}  // namespace key{k}", ""]
    name = entries[0].group(1)
    parts += [f'extern "C" __global__ __aicore__ void {name}({", ".join(full)})', "{"]
    for k, own in zip(keys, params):
        parts += [f"    {'if' if k == keys[0] else '} else if'} (TILING_KEY_IS({k})) {{",
                  f"        key{k}::Run({', '.join(a.split()[-1] for a in own)});"]
    parts += ["    }", "}", ""]
    return "\n".join(parts)


def _tensors(plan: Any) -> list:
    params = getattr(plan, "params", None)
    return list(getattr(params, "inputs", None) or []) + list(getattr(params, "outputs", None) or [])


def _combos_guard(plan: Any, complex_op: bool = False) -> str:
    """The preprocessor test that keeps a group's kernel out of the builds it cannot compile: a kernel planned with no
    one-byte dtype for a tensor widens and narrows it with plain casts, which do not exist for int8/uint8/bool (those
    go through half), so a build where that tensor is one-byte (another group's int8 case) skips it; likewise a build
    where a tensor it reads as real data is complex64 (``complex_op``: some group takes complex64; the kernel
    library has no complex element type, ``DTYPE_X`` is not defined there). Empty when the kernel takes those dtypes
    wherever the op does. Every other combination is compiled: a new case of a known structure in another dtype
    runs its kernel."""
    tensors = _tensors(plan)
    tests = [f"ORIG_DTYPE_{codegen._macro(p.name)} != {codegen.GE[d].replace('ge::', '')}"
             for p in tensors if p.dtypes and not set(p.dtypes) & {"int8", "uint8", "bool"}
             for d in ("int8", "uint8", "bool")]
    tests += [f"ORIG_DTYPE_{codegen._macro(p.name)} != DT_COMPLEX64"
              for p in tensors if complex_op and p.dtypes and "complex64" not in p.dtypes]
    return " && ".join(tests)
