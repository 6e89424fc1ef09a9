"""Planner: analyse a task's reference on every shape case, pick a template and fill its parameters.

``plan(task)`` returns a ``Plan`` (template, category, parameters, the rendered files) or an
``Unsupported`` that says plainly which op or construct is outside the templates, so a caller can fall
back to a model.
"""
from __future__ import annotations

import copy
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import torch

from agent_graph.drafter import (bnplan, codegen, collapse, conv, convcube, foreach, memo, prefix, reorder, special, splitrow,
                                 stages, variants)
from agent_graph.drafter.analysis import AnalysisError, OpGraph, analyse, classify, row_lengths
from agent_graph.drafter.canonical import Analyser, analyse_canonical, analyse_canonical_values
from agent_graph.drafter.variants import binding_floats, modes
from agent_graph.drafter.attnplan import plan_attention
from agent_graph.drafter import mmstage
from agent_graph.drafter.ownplan import forward_call
from agent_graph.drafter.colplan import ColForm, inner_reduction
from agent_graph.drafter.cubeplan import plan_cube
from agent_graph.drafter.budget import UB_BUDGET, budget, split_budget
from agent_graph.drafter.lowering import Program, lower
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.prune import prune
from agent_graph.drafter.templates import DerivedNumber, HostNumber, KernelParams, TensorParam, Variant
from agent_graph.drafter.vecops import Unsupported as _LowerUnsupported
from agent_graph.drafter.windows import window_starts
from bench_bridge.api import (CaseRow, Task, group_inputs, install_stubs, load_module, npu_only_message, npu_only_ops,
                              snake_case, spec_inputs)

RESERVED = {"t", "op", "workspace", "tiling", "rows", "cols", "colsPad", "rowsPerCore", "tileRows", "total", "perCore",
            "tileLen", "base", "span", "tileElems", "pb", "nb", "v", "b", "n", "off", "r", "o", "cnt"}


@dataclass
class Unsupported:
    """The reference is outside what the templates cover."""

    task: str
    reason: str            # one sentence naming the op or construct
    op: str | None = None
    category: str | None = None
    user_error: bool = False   # the task's own code failed (its reference or input generator): not a coverage gap

    def __str__(self) -> str:
        if self.user_error:
            return f"{self.task}: {self.reason}"
        return f"{self.task}: not covered by the offline drafter: {self.reason}"


@dataclass
class Plan:
    task: Task
    op_type: str
    category: str
    template: str
    params: KernelParams
    graphs: list[OpGraph]
    files: dict[str, str] = field(default_factory=dict)   # relative path -> text
    case_meta: list[dict] = field(default_factory=list)   # per case: input shapes/dtypes, args


def op_type_for(name: str) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    camel = "".join(w[:1].upper() + w[1:] for w in words) or "Drafted"
    if not camel[0].isalpha():
        camel = "Op" + camel
    # CANN's convention (AddCustom -> add_custom); also keeps kernel names clear of C library functions
    return camel if camel.endswith("Custom") else camel + "Custom"


def case_inputs(task: Task) -> list[tuple[list, list]]:
    """(init, forward inputs) of every case, made the way the task's own generator makes them."""
    install_stubs()
    for parent in task.benchmark_roots():   # the benchmark's own packages (NPUKernelBench's framework), as the worker
        if str(parent) not in sys.path:
            sys.path.append(str(parent))
    mod = load_module("kgen_drafter_reference", task.reference)
    out = []
    for i, case in enumerate(task.cases):
        torch.manual_seed(task.seed + i)
        if task.format == "npukernelbench":
            prep = load_module("kgen_drafter_prepare", task.prepare) if task.prepare else mod
            row = CaseRow(case.params)
            init = list(prep.get_init_inputs(row, device="cpu")) if hasattr(prep, "get_init_inputs") else []
            ins = prep.get_inputs(row, device="cpu")
        elif task.format == "kernelbench":
            init = list(mod.get_init_inputs()) if hasattr(mod, "get_init_inputs") else []
            ins = group_inputs(mod, case.params["group"], task.seed) if "group" in case.params else mod.get_inputs()
        else:
            init = list(case.params.get("init", []))
            ins = spec_inputs(case.params, torch.Generator().manual_seed(task.seed * 1000 + i))
        out.append((init, list(ins) if isinstance(ins, (list, tuple)) else [ins]))
    return out, mod


PER_MODE = "cases with different modes (string, flag or int arguments) trace to different op graphs: a kernel per mode"
"""The refusal that sends cases of different modes to kernels of their own (keyed), never to vector stages."""


def _agree(graphs: list[OpGraph]) -> bool:
    """Whether the cases of each dtype combination trace to one op graph (sizes aside)."""
    by_dtype: dict[tuple, str] = {}
    for g in graphs:
        sig = repr(g.signature())
        if by_dtype.setdefault(tuple(n.dtype for n in g.inputs), sig) != sig:
            return False
    return True


def _names(g: OpGraph) -> tuple[list[str], list[str]]:
    ins = [n.name if n.name not in RESERVED else f"{n.name}In" for n in g.inputs]
    outs = ["y"] if len(g.outputs) == 1 else [f"y{k}" for k in range(len(g.outputs))]
    if any(o in ins for o in outs):
        outs = ["out"] if len(g.outputs) == 1 else [f"out{k}" for k in range(len(g.outputs))]
    return ins, outs


def main_input_index(kinds: list[InputKind]) -> int:
    """The input whose shape the host's tiling reads: the first one read whole (a complex one: through its
    parts), else one read not at all (``zeros_like(x)``: the output has x's shape); -1 when none is."""
    for kind in (InputKind.FULL, InputKind.PAIR, InputKind.UNREAD):
        if kind in kinds:
            return kinds.index(kind)
    return -1


def _summary(g: OpGraph) -> str:
    ops = [n.op for n in g.nodes if n.op not in ("identity", "view")]
    return "ops: " + (" -> ".join(ops) if ops else "copy")


def plan(task: Task) -> Plan | Unsupported:
    with memo.draft_scope():    # each case is traced once per front end, however often the planning asks
        result = _plan_task(task)
    if isinstance(result, Plan) and result.template != "keyed":   # (a keyed op declares its call's attributes)
        cases, mod = case_inputs(task)
        init, ins = cases[0]
        result.files = variants.declare_call_attrs(result.files, mod, ins, init)
    return result


def _plan_task(task: Task) -> Plan | Unsupported:
    name = task.name
    try:
        cases, mod = case_inputs(task)
    except Exception as e:  # the task's own code failed
        return Unsupported(name, f"the reference's input generator failed ({_one_line(e)})", user_error=True)
    npu_only_ops()
    for k, (init, ins) in enumerate(cases):   # the reference must run as it is before it is read
        try:
            with torch.no_grad():
                mod.Model(*copy.deepcopy(init))(*copy.deepcopy(ins))
        except Exception as e:
            npu = npu_only_ops()
            return Unsupported(name, npu_only_message(npu) if npu else f"the reference fails on case {k} as written "
                               f"({_one_line(e)})", user_error=True)
        npu = npu_only_ops()
        if npu:
            return Unsupported(name, npu_only_message(npu), user_error=True)
    order = reorder.binding_reorder(mod, cases[0])
    if isinstance(order, str):
        return Unsupported(name, order)
    if order:    # the op takes its tensors in the binding's order: plan from a view of the reference that does
        view, cases = reorder.reordered(mod, cases, order)
        result = _plan_read(task, cases, view)
        if isinstance(result, Plan):
            result.case_meta = reorder.forward_order_meta(result.case_meta, order)
        return result
    result = _plan_read(task, cases, mod)
    if isinstance(result, Plan):
        for m, (_, ins) in zip(result.case_meta, cases):
            call = forward_call(ins, len(m.get("inputs", [])))
            if call and "call" not in m:
                m["call"] = call   # numbers and Nones between the tensors: the written spec calls in order
    return result


def _plan_read(task: Task, cases: list, mod: Any) -> Plan | Unsupported:
    """The plan of the task's cases (run, checked) from ``mod``: list arguments, one kernel, keyed kernels."""
    if foreach.has_list_argument(cases):   # one elementwise function over each tensor of a list
        each = foreach.plan_foreach(task, cases, mod, lambda t, c, m: _plan_cases(t, c, m, vector_stages=False),
                                    Plan, Unsupported, render)
        if isinstance(each, Plan) or each.user_error:
            return each
        whole = _plan_cases(task, cases, mod, vector_stages=False)   # the list taken whole: a cat of its tensors
        return whole if isinstance(whole, Plan) else each
    first = _plan_cases(task, cases, mod)
    if isinstance(first, Unsupported) and not first.user_error:
        pre = prefix.prefix_of(cases, mod)    # an input read up to a count the call passes (x[:n]): one kernel
        again = _plan_cases(task, pre.cases, mod) if pre is not None else None
        if isinstance(again, Plan):
            try:
                return prefix.over_prefix(again, pre, cases)
            except ValueError:
                pass
    if isinstance(first, Unsupported) and len(cases) > 1 and variants.needs_variants(first.reason):
        rows = collapse.rows_of(cases, mod)    # the leading dimensions as rows: one kernel for every rank
        if rows is not None:
            again = _plan_cases(task, rows.cases, mod)
            if isinstance(again, Plan):
                try:
                    return collapse.over_rows(again, rows, cases)
                except ValueError:     # a host file of another form: a kernel per structure instead
                    pass
        keyed = variants.plan_keyed(task, cases, mod, lambda idx: _plan_cases(task, [cases[i] for i in idx], mod),
                                    Plan, Unsupported)
        if keyed is not None:
            return keyed
    return first


def _plan_cases(task: Task, cases: list, mod: Any, vector_stages: bool = True) -> Plan | Unsupported:
    """The plan of one kernel serving ``cases`` (a subset of the task's, in order), or why not; with
    ``vector_stages``, a reference of vector ops no template takes whole may be cut into vector stages."""
    first = _plan_one(task, cases, mod)
    if isinstance(first, Plan) or not vector_stages or first.user_error or first.category == "fused" \
            or any(w in first.reason for w in ("matmul", "convolution")) or first.reason == PER_MODE:
        return first
    staged = stages.plan_vector_staged(task, cases, mod, Plan, _stage_plan, _staged_params, _staged_meta)
    return staged if staged is not None else first


def _stage_plan(task: Task, cases: list, mod: Any) -> Plan | Unsupported:
    """A stage module's plan: one template, never cut again here (the stage splitter cuts it itself)."""
    return _plan_cases(task, cases, mod, vector_stages=False)


def _staged_params(op_type: str, op_inputs: list, ys: list[TensorParam], summary: str) -> KernelParams:
    """The staged op's interface: every op input, the output stages' outputs."""
    return KernelParams(op_type=op_type, template="staged", outputs=list(ys), summary=summary,
                        inputs=[TensorParam(n, InputKind.FULL, d) for n, _, d in op_inputs])


def _staged_meta(cases: list) -> list[dict]:
    """Each case's inputs (shape, dtype) for the written project: the forward's tensors; its numbers (floats)."""
    return [{"inputs": [{"shape": list(v.shape), "dtype": str(v.dtype).replace("torch.", "")} for v in ins
                        if isinstance(v, torch.Tensor)],
             "args": [v for v in ins if not isinstance(v, torch.Tensor)], "init": list(init)} for init, ins in cases]


def _plan_one(task: Task, cases: list, mod: Any) -> Plan | Unsupported:
    name = task.name
    names = special.ops_called(mod, *cases[0])   # the ATen ops one eager run calls: which planner is whose
    attn = plan_attention(task, cases, mod, Plan, Unsupported, op_type_for(name), names)   # two matmuls around a softmax
    if attn is not None:
        return attn
    cube = plan_cube(task, cases, mod, Plan, Unsupported, op_type_for(name), names)   # a matmul: the cube template
    if isinstance(cube, Unsupported) and mmstage.worth_staging(cube.reason):
        staged = stages.plan_staged(task, cases, mod, op_type_for(name), Plan, Unsupported, _stage_plan,
                                    mmstage.plan_first_stage)   # the matmul, then the rest as a second stage
        if isinstance(staged, Plan):
            return staged
        if isinstance(staged, Unsupported) and staged.reason.startswith("after "):
            return staged      # the matmul planned as a first stage: what the rest needs is the news
    if cube is not None:
        return cube
    if "convolution" in names:      # a convolution (and its epilogue) has its own planners
        on_cube = convcube.plan_conv_cube(task, cases, mod, op_type_for(name), Plan)   # im2col + matmul
        if on_cube is not None:
            return on_cube
        drafted = conv.plan_conv(task, cases, mod, op_type_for(task.name), Plan, Unsupported)   # the vector unit
        if isinstance(drafted, Unsupported) and "after the convolution" in drafted.reason:
            for first in (convcube.plan_first_stage, conv.plan_conv):   # the convolution on the cube, else the vector unit
                staged = stages.plan_staged(task, cases, mod, op_type_for(task.name), Plan, Unsupported, _stage_plan,
                                            first)   # then the rest as a second stage
                if isinstance(staged, Plan) or (staged is not None and first is conv.plan_conv):
                    return staged
        if drafted is not None:
            return drafted
    own = special.plan(cases, mod, op_type_for(name), names)   # pooling, gathers, resize: own templates (special.py)
    if own is not None:
        return Unsupported(name, own.reason, _op_in(own.reason), own.category) if own.reason else Plan(
            task, own.params.op_type, own.category, own.template, own.params, own.graphs, own.files, own.case_meta)
    # floats the model holds that the binding passes are attributes only the canonical reader takes (the torch.fx
    # one would bake each dtype combination's first values into its kernel)
    held = any(_held(mod, ins, init) for init, ins in cases)
    first = None if held else _plan_with(task, cases, mod, analyse)
    if isinstance(first, Plan):
        return first
    second = _plan_with(task, cases, mod, analyse_canonical)
    if isinstance(second, Unsupported) and any(isinstance(v, float) for _, ins in cases for v in ins):
        values = _plan_with(task, cases, mod, analyse_canonical_values)   # numbers from floats as values
        if isinstance(values, Plan):
            return values
    if isinstance(second, Plan) or first is None or not second.reason.startswith("the reference cannot be exported"):
        return second     # the canonical front end's refusal names the core op and its shape
    return first


def _held(mod: Any, ins: list, init: list) -> list[tuple[int, str]]:
    """Floats of ``init`` the op takes as attributes (index, name): those the model holds that the binding passes,
    or a vector stage's forward floats (``stages.stage_module``)."""
    return getattr(mod, "held_floats", None) or binding_floats(mod, ins, init)


def _plan_with(task: Task, cases: list, mod: Any, analyser: Analyser) -> Plan | Unsupported:
    """The plan from the op graphs one front end reads (``analyse``: torch.fx spellings; ``analyse_canonical``:
    core ATen through torch.export)."""
    name = task.name
    graphs: list[OpGraph] = []
    for init, ins in cases:
        # floats the model holds that the binding passes: attributes (only the canonical reader takes them)
        canonical = analyser in (analyse_canonical, analyse_canonical_values)
        held = (_held(mod, ins, init),) if canonical else ()
        try:
            graphs.append(memo.analysed(analyser, mod, init, ins,
                                        lambda: analyser(mod.Model(*copy.deepcopy(init)), ins, init, *held)))
        except AnalysisError as e:
            return Unsupported(name, str(e), op=_op_in(str(e)))
        except Exception as e:
            return Unsupported(name, f"the reference failed while being traced ({type(e).__name__}: {e})")
    # one graph per dtype combination (a reference may branch on its dtype: each combination gets its own
    # compute code); cases of one combination must agree, and all must share the op's interface. Where the cases'
    # modes differ too, graphs that differ may be the modes' doing (one case per dtype): a kernel per mode instead
    read = {a.kwargs.get("param", a.name) for g in graphs for a in g.attrs}     # modes the kernel reads at run time
    baked = {tuple(m for m in modes(mod, ins, init) if m[0] not in read) for init, ins in cases}
    if len({repr(g.signature()) for g in graphs}) > 1 and len(baked) > 1:
        return Unsupported(name, PER_MODE)
    if not _agree(graphs):
        # cases that differ in a number that is each one's row length (x / x.shape[-1]): the kernel's row length
        lengths = [row_lengths(g) for g in graphs]
        if any(g is None for g in lengths) or not _agree(lengths):
            return Unsupported(name, "the shape cases trace to different op graphs (one kernel must serve every case)")
        graphs = lengths
    face = {(tuple(n.name for n in g.inputs), tuple(a.name for a in g.attrs), len(g.outputs), g.row_dims, g.row_div)
            for g in graphs}
    if len(face) > 1:
        return Unsupported(name, "the dtype combinations trace to op graphs with different inputs or outputs")
    category = classify(graphs[0])
    g0 = graphs[0]
    in_names, out_names = _names(g0)
    if bnplan.has_batch_norm(g0):
        return _plan_bn(task, graphs, category, in_names, out_names)
    col = inner_reduction(graphs)
    if isinstance(col, str):
        return Unsupported(name, col, category=category)
    if col is not None:
        return _plan_col(task, graphs, col, category, in_names, out_names)
    combos: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    progs: dict[tuple, Program] = {}
    windows: list[tuple] = []
    derived: list = []        # numbers computed from the attributes alone (the host's, one list for every combination)
    for g in graphs:
        c = (tuple(n.dtype for n in g.inputs), tuple(g.node(o).dtype for o in g.outputs))
        for d in (*c[0], *c[1]):
            if d not in codegen.GE:
                return Unsupported(name, f"dtype {d} is not covered by the templates", category=category)
        try:
            p = lower(g, derived)
        except _LowerUnsupported as e:
            return Unsupported(name, str(e), op=_op_in(str(e)), category=category)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            return Unsupported(name, f"the {category} graph has a form the templates do not take ({type(e).__name__}: {e})",
                               category=category)
        windows.append(p.windows)
        if c not in combos:
            combos.append(c)
            progs[c] = p
        elif _shape_of(p) != _shape_of(progs[c]):
            return Unsupported(name, "the shape cases need different kernel structures (e.g. broadcast in one case, "
                                     "not in another)", category=category)
    p0 = progs[combos[0]]
    for c in combos[1:]:
        p = progs[c]
        if (p.mode, [i.kind for i in p.inputs], [o.kind for o in p.outputs], p.accs, p.row_maps, _nwin(p)) != \
                (p0.mode, [i.kind for i in p0.inputs], [o.kind for o in p0.outputs], p0.accs, p0.row_maps, _nwin(p0)):
            return Unsupported(name, "the dtype combinations need different kernel structures", category=category)
    op_type = op_type_for(name)
    variants = []
    for c in combos:
        p = progs[c]
        cond = " && ".join(f"ORIG_DTYPE_{in_names[i].upper()} == {codegen.GE[d].replace('ge::', '')}" for i, d in enumerate(c[0]))
        native = (p.mode == "flat" and p.native16 and not p.nmasks and not p.accs
                  and all(d == "float16" for d in (*c[0], *c[1])))
        variants.append(Variant(cond, list(p.body), list(p.final),
                                [o.val.tile if o.kind in (OutputKind.VEC, OutputKind.CAT, OutputKind.PAIR) else o.val.expr
                                 for o in p.outputs], native))
    kp = KernelParams(
        op_type=op_type, template=p0.mode,
        inputs=[TensorParam(in_names[i], spec.kind, [c[0][i] for c in combos]) for i, spec in enumerate(p0.inputs)],
        outputs=[TensorParam(out_names[j], o.kind, [c[1][j] for c in combos]) for j, o in enumerate(p0.outputs)],
        attrs=[a.kwargs.get("param", a.name) for a in g0.attrs], attr_defaults=[float(a.kwargs["value"]) for a in g0.attrs], summary=_summary(g0),
        nslots=max(p.nslots for p in progs.values()), nmasks=max(p.nmasks for p in progs.values()), variants=variants, accs=list(p0.accs),
        round_types=sorted(set().union(*[p.round_types for p in progs.values()])))
    slot = {a.name: j for j, a in enumerate(g0.attrs)}
    kp.derived = [a if isinstance(a, HostNumber) else DerivedNumber(a.scale, tuple((slot[n], power) for n, power in a.powers),
                                                                    a.offset) for a in derived]
    read_on_host = sorted({i for a in derived if isinstance(a, HostNumber) for i in a.inputs})
    if read_on_host:       # one-element inputs the host reads (a step count): copied to the host before tiling
        kp.extra["value_depend"] = [kp.inputs[i].name for i in read_on_host]
    if p0.row_maps:
        kp.extra["row_maps"] = dict(p0.row_maps)
    pieces = {j: o.val.tile.count("|") + 1 for j, o in enumerate(p0.outputs) if o.kind == OutputKind.CAT}
    if pieces:
        kp.extra["pieces"] = pieces
    if p0.windows:
        starts = window_starts(windows)
        if isinstance(starts, str):
            return Unsupported(name, starts, category=category)
        kp.extra["windows"] = starts
    if g0.row_dims != 1 or g0.row_div != 1:
        if kp.template != "row":
            return Unsupported(name, "a reduction over several trailing dimensions outside a row-wise kernel", category=category)
        kp.extra.update(row_dims=g0.row_dims, row_div=g0.row_div)
    if kp.template == "row" and splitrow.splittable(kp):  # rows too long for UB stream in chunks (host decides)
        bodies = [v.body for v in kp.variants]
        kp.extra.update(split=True, split_accs=splitrow.max_reds_per_pass(bodies), split_passes=splitrow.max_passes(bodies),
                        split_scan=splitrow.has_scan(bodies))
    for g in graphs:  # a row that fits neither whole nor in chunks: say so
        reason = _fits(kp, g)
        if reason:
            return Unsupported(name, reason, category=category)
    pl = Plan(task=task, op_type=op_type, category=category, template=p0.mode, params=kp, graphs=graphs)
    kinds = [i.kind for i in p0.inputs]
    pl.files = render(kp, main_input=main_input_index(kinds))
    pl.case_meta = [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in g.inputs],
                     "args": [a.kwargs["value"] for a in g.attrs if not a.kwargs.get("init")], "init": g.init}
                    for g in graphs]   # floats the model holds come from init (the binding passes them)
    return pl


def _plan_col(task: Task, graphs: list[OpGraph], col: ColForm, category: str, in_names: list[str],
              out_names: list[str]) -> Plan:
    combos: list[tuple[str, str]] = []
    for g in graphs:
        c = (g.inputs[0].dtype, g.node(g.outputs[0]).dtype)
        if c not in combos:
            combos.append(c)
    for c in combos:
        for d in c[:1] if col.arg else c:      # an arg-reduction's output is the int64 index
            if d not in ("float16", "bfloat16", "float32"):
                raise_msg = f"dtype {d} is not covered by the templates"
                return Unsupported(task.name, raise_msg, category=category)
    kp = KernelParams(op_type=op_type_for(task.name), template="col",
                      inputs=[TensorParam(in_names[0], InputKind.FULL, [c[0] for c in combos])],
                      outputs=[TensorParam(out_names[0], OutputKind.COL, [c[1] for c in combos])], summary=_summary(graphs[0]),
                      extra={"combine": col.combine, "dim": col.dim, "mean": col.mean, "arg": col.arg,
                             "dim_last": col.dim_last, "epilogue": list(col.epilogue), "mode": col.mode,
                             "prologue": list(col.prologue), "scale": col.scale})
    pl = Plan(task=task, op_type=kp.op_type, category=category if col.mode == 4 else "reduction", template="col",
              params=kp, graphs=graphs)
    pl.files = render(kp)
    pl.case_meta = [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in g.inputs], "args": [], "init": g.init}
                    for g in graphs]
    return pl


def _plan_bn(task: Task, graphs: list[OpGraph], category: str, in_names: list[str], out_names: list[str]
             ) -> Plan | Unsupported:
    form = bnplan.bn_form(graphs)
    kp = form if isinstance(form, str) else bnplan.bn_params(op_type_for(task.name), in_names[0], out_names[0], graphs,
                                                              form, _summary(graphs[0]))
    if isinstance(kp, str):
        return Unsupported(task.name, kp, op="batch_norm", category=category)
    pl = Plan(task=task, op_type=kp.op_type, category="normalization", template="batch_norm", params=kp, graphs=graphs)
    pl.files = render(kp)
    pl.case_meta = [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in g.inputs], "args": [], "init": g.init}
                    for g in graphs]
    return pl


def render(kp: KernelParams, main_input: int = 0) -> dict[str, str]:
    if kp.template == "col":
        files = codegen.render_col(kp)
    elif kp.template == "batch_norm":
        files = bnplan.render_bn(kp)
    else:
        snake = snake_case(kp.op_type)
        host = codegen.render_foreach_host(kp) if kp.template == "foreach" else codegen.render_host(kp, main_input)
        files = {f"op_host/{snake}.cpp": host,
                 f"op_host/{snake}_tiling.h": codegen.render_tiling(kp),
                 f"op_kernel/{snake}.cpp": codegen.render_kernel(kp)}
    return {path: prune(text) if path.startswith("op_kernel/") else text for path, text in files.items()}


def _fits(kp: KernelParams, g: OpGraph) -> str:
    if kp.template != "row":
        return ""
    full = max(g.inputs, key=lambda n: _numel(n.shape)).shape
    cols = full[-1]
    step = codegen.row_pitch(kp)                          # the host's row pitch (codegen.render_host)
    if any(d in ("bool", "int8", "uint8") for p in (*kp.inputs, *kp.outputs) for d in p.dtypes):
        step = max(step, 32)
    pad = (cols + step - 1) // step * step
    b = budget(kp)
    need = pad * b["fixed_per_col"] + b["fixed"] + pad * b["per_elem"] + b["per_row"]
    if need <= UB_BUDGET:
        return ""
    if kp.extra.get("split"):
        sb = split_budget(kp)
        if sb["fixed"] + 64 * sb["per_elem"] <= UB_BUDGET:
            return ""
    return (f"a row of {cols} elements needs {need} bytes of UB (budget {UB_BUDGET}) and this program "
            f"(argmax/argmin or cross-entropy index into the row, a scan meets a row reduction, or a bool input meets a "
            f"comparison) cannot be streamed "
            f"by the split-row path")


def _shape_of(p: Program) -> tuple:
    return (p.mode, p.body, p.final, [i.kind for i in p.inputs], [o.kind for o in p.outputs], p.row_maps, _nwin(p))


def _nwin(p: Program) -> dict[int, int]:
    return {i: len(w) for i, w in p.windows.items()}


def _numel(shape: Any) -> int:
    k = 1
    for d in shape or ():
        k *= d
    return k


def _one_line(e: BaseException) -> str:
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {first[:200]}" if first else type(e).__name__


def _op_in(msg: str) -> str | None:
    """The op a message names ("operator matmul is not ...", "tensor method .view() ...", "pow with ...")."""
    core = re.match(r"core op aten\.([A-Za-z_][A-Za-z0-9_]*)", msg)
    if core:
        return core.group(1)
    m = re.match(r"(?:operator |tensor method \.|module |elementwise op )([A-Za-z_][A-Za-z0-9_]*)", msg) or \
        re.match(r"([A-Za-z_][A-Za-z0-9_]*)", msg)
    return m.group(1) if m else None
