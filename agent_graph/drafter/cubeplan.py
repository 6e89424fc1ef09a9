"""Cube planner: a reference holding one matmul -> a MIX kernel (Matmul API on the cube core, the epilogue
on the vector cores over UB tiles of the fp32 result), from ``cube.analyse_cube``'s graphs.

The epilogue is lowered by the flat lowering (``lowering.lower``): its graph has the matmul result ``mmc``
as input 0 (``XI0``, the tile GetTensorC hands over) and every other tensor it reads as a tile of the
result's shape, loaded per base block: a tensor of the result's size as its rows x cols block, a
last-dimension vector (a bias) as one row replicated over the tile's rows, a one-element tensor as a
scalar read once. Every value is float in UB; each 16-bit node is rounded where PyTorch rounds it.
"""
from __future__ import annotations

import copy
import re
from typing import Any

from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.codegen import GE, opdef_params
from agent_graph.drafter.cube import C_NAME, CubeGraph, NoMatmul, Operand, analyse_cube, has_matmul
from agent_graph.drafter.lowering import lower
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from agent_graph.drafter.vecops import Unsupported as LowerUnsupported
from bench_bridge.api import snake_case, soc_facts

CT = {"float16": "half", "bfloat16": "bfloat16_t"}
SIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "int8": 1}
RESERVED = {"t", "td", "b", "n", "c", "o", "r", "w", "base", "item", "rows", "cols", "mi", "ni", "m0", "n0", "idx", "bm",
            "bn", "perBatch", "pipe", "col0", "tiling", "workspace", "pitch", "mm", "op", "k", "col"}


class CubeUnsupported(Exception):
    """The matmul reference is outside the cube template (the message names the op and shape)."""


def _numel(shape: Any) -> int:
    k = 1
    for d in shape or ():
        k *= int(d)
    return k


def per_row_chain(g: OpGraph, name: str, out: tuple, cols_rank: int = 1) -> list[str] | None:
    """Input ``name`` and the casts and views taking it to [.., M, 1] (or itself of that shape) when every use of it
    goes through them: one value per row of the matmul's [M, N] result (a per-token scale); None otherwise.
    ``cols_rank``: the epilogue's
    dimensions that make up N (a convolution's [N, OC, H, W] after its [N, OC, H * W] product: a per-channel
    tensor is [OC, 1, 1])."""
    if len(out) < 2 or _numel(g.node(name).shape) != int(out[-2]):
        return None
    row = (int(out[-2]),) + (1,) * cols_rank
    chain = [name]
    for n in g.nodes:
        refs = [a.name for a in n.args if hasattr(a, "name")]
        if not any(r in chain for r in refs):
            continue
        if n.op in ("cast", "view", "identity") and len(refs) == 1:
            chain.append(n.name)
        elif any(r in chain and tuple(g.node(r).shape)[-len(row):] != row for r in refs):
            return None
    return chain if len(chain) > 1 or tuple(g.node(name).shape)[-len(row):] == row else None   # or [.., M, 1] itself


def _kind(node: OpNode, out: tuple, cols_rank: int = 1) -> str:
    tail = _numel(tuple(node.shape)[-cols_rank:]) if len(node.shape or ()) >= cols_rank else 0   # along N
    if _numel(node.shape) == _numel(out) and tail == int(out[-1]):
        return "full"
    if _numel(node.shape) == 1:
        return "scalar"
    if tail == int(out[-1]) and _numel(node.shape) == int(out[-1]):
        return "row"
    raise CubeUnsupported(f"input {node.name} of shape {list(node.shape)} against the matmul result of shape {list(out)}: "
                          f"only equal shapes, a last-dimension vector and one-element tensors are covered by the templates")


def epilogue_graph(cg: CubeGraph) -> tuple[OpGraph, list[str]]:
    """The epilogue as a flat elementwise graph over result-shaped tiles, and each input's load kind."""
    g = cg.graph
    out = cg.out_shape
    eg = OpGraph(attrs=list(g.attrs), outputs=list(g.outputs))
    kinds = []
    replicated: set[str] = set()     # a per-row vector and its casts/views: each value replicated along its row
    for n in [g.inputs[0]] + [g.node(x) for x in cg.epilogue_inputs]:
        # a per-row vector is indexed by the product's row: not when a batch is flattened into the rows
        chain = per_row_chain(g, n.name, out, cg.cols_rank) if n.name != C_NAME and cg.m == out[-2] else None
        kind = "full" if n.name == C_NAME else "col" if chain else _kind(n, out, cg.cols_rank)
        kinds.append(kind)
        replicated.update(chain or ())
        eg.inputs.append(OpNode(n.name, "input", [], {}, (1,) if kind == "scalar" else out,
                                "float32" if n.name == C_NAME and n.dtype == "int32" else n.dtype))
    for n in g.nodes:
        m = copy.copy(n)
        if m.name in replicated:
            m.shape = out
        elif m.shape is not None and _numel(m.shape) != 1:
            # a per-row value ([rows, 1]) keeps its unit column: a reduction over it is the value itself
            m.shape = tuple(out[:-1]) + (1,) if len(m.shape) == len(out) and m.shape[-1] == 1 else out
        eg.nodes.append(m)
    return eg, kinds


def lower_epilogue(cg: CubeGraph) -> tuple[Any, list[str]]:
    eg, kinds = epilogue_graph(cg)
    grouped = next((n for n in eg.nodes if n.op == "layer_norm" and int(n.kwargs.get("groups", 1) or 1) > 1), None)
    if grouped is not None:
        raise CubeUnsupported(f"a group norm ({grouped.kwargs['groups']} groups) in the epilogue of a matmul of shape "
                              f"{list(cg.out_shape)} is not covered yet")
    try:
        p = lower(eg)
    except LowerUnsupported as e:
        raise CubeUnsupported(f"{e} (in the epilogue of a matmul of shape {list(cg.out_shape)})") from None
    if p.accs or p.nmasks or any(i.kind.value not in ("full", "scalar") for i in p.inputs):
        ops = [n.op for n in eg.nodes if n.op not in ("identity", "view")]
        raise CubeUnsupported(f"the epilogue after the matmul of shape {list(cg.out_shape)} ({' -> '.join(ops)}) is not "
                              f"covered: whole-tensor reductions and comparisons after a matmul are not covered yet")
    if any(o.val.kind not in ("vec", "rs") for o in p.outputs) or (p.mode != "row" and any(o.val.kind != "vec" for o in p.outputs)):
        raise CubeUnsupported(f"a result of one value per row (a reduction over the matmul's rows, shape "
                              f"{list(cg.graph.node(cg.graph.outputs[0]).shape or [])}) after a matmul of shape "
                              f"{list(cg.out_shape)} is not covered yet")
    return p, kinds


def names(cg: CubeGraph) -> dict[str, str]:
    """Graph input name -> OpDef/kernel argument name."""
    return {n.name: (f"{n.name}In" if n.name in RESERVED else n.name) for n in cg.graph.inputs[1:]}


class CubeParams:
    """What the cube templates need, gathered over the dtype combinations of every case."""

    def __init__(self, op_type: str, summary: str, cgs: list[CubeGraph]):
        self.op_type, self.summary = op_type, summary
        self.cg = cgs[0]
        self.names = names(self.cg)
        self.out = "out" if "y" in self.names.values() else "y"    # the output's name, not an input's
        self.inputs = [n.name for n in self.cg.graph.inputs[1:]]
        self.conv: Any = None
        """A convolution on the cube (``convcube.ConvCube``): B is the im2col matrix the kernel writes, not an input."""
        self.combos: list[tuple[tuple[str, ...], str]] = []
        self.progs: dict = {}
        self.c_round: dict = {}
        for cg in cgs:
            combo = (tuple(n.dtype for n in cg.graph.inputs[1:]), cg.graph.node(cg.graph.outputs[0]).dtype)
            for d in (*combo[0], combo[1]):
                if d not in SIZE:
                    raise CubeUnsupported(f"dtype {d} next to a matmul is not covered by the templates")
            if combo not in self.combos:
                self.combos.append(combo)
                self.progs[combo], self.kinds = lower_epilogue(cg)
                self.c_round[combo] = cg.c_dtype if cg.c_dtype in CT else ""
        ints = {c[0][self.inputs.index(self.cg.a.name)] == "int8" for c in self.combos}
        if len(ints) > 1:
            raise CubeUnsupported("int8 operands in some cases and float ones in others need two matmul types")
        self.integer = ints == {True}
        """int8 operands: the products accumulate in int32 (C type int32_t), cast to float before the epilogue."""
        self.direct = all(not p.body and p.outputs[0].val.expr == "XI0" for p in self.progs.values()) and \
            not self.cg.epilogue_inputs and self.cg.triangle is None
        """No epilogue: the fixpipe writes the product straight to GM, rounded once to the output type."""
        modes = {p.mode for p in self.progs.values()}
        if len(modes) > 1:
            raise CubeUnsupported("the dtype combinations need different epilogue structures")
        self.row = modes == {"row"}
        if self.row and self.cg.triangle is not None:
            raise CubeUnsupported(f"a triangle of a row-wise epilogue's result (a matmul of shape {list(self.cg.out_shape)}) "
                                  f"is not covered yet")
        """A row-wise epilogue (softmax, a row reduction): each base block spans whole rows of the result."""
        self.attrs = [a.kwargs.get("param", a.name) for a in self.cg.graph.attrs]
        self.attr_defaults = [float(a.kwargs["value"]) for a in self.cg.graph.attrs]
        self.nslots = max(p.nslots for p in self.progs.values())
        self.round_types = sorted(set().union(*[p.round_types for p in self.progs.values()]) |
                                  {c for c in self.c_round.values() if c})

    def op_inputs(self) -> list[str]:
        """The graph inputs the op takes (a convolution's im2col matrix is the kernel's own workspace)."""
        return [n for n in self.inputs if self.conv is None or n not in self.conv.workspace_inputs]

    def kernel_params(self) -> KernelParams:
        """The op interface in the drafter's common form (the writer's op description reads it)."""
        ins = [TensorParam(self.names[n], "full", [c[0][self.inputs.index(n)] for c in self.combos])
               for n in self.op_inputs()]
        outs = [TensorParam(self.out, "vec", [c[1] for c in self.combos])]
        return KernelParams(op_type=self.op_type, template="cube", inputs=ins, outputs=outs, attrs=self.attrs,
                            attr_defaults=self.attr_defaults, summary=self.summary, nslots=self.nslots,
                            round_types=self.round_types, extra={"cube": True})


def analyse_all(models_inputs: list[tuple[Any, list, list]], stop: str | None = None) -> list[CubeGraph]:
    out = []
    for model, ins, init in models_inputs:
        try:
            out.append(analyse_cube(model, ins, init, stop=stop))
        except NoMatmul:
            raise
        except AnalysisError as e:
            raise CubeUnsupported(str(e)) from None
    return consistent(out)


def consistent(out: list[CubeGraph]) -> list[CubeGraph]:
    """The cases' graphs when one kernel serves them all (else ``CubeUnsupported``)."""
    sig = {repr(cg.graph.signature()) + repr((cg.a, cg.b)) for cg in out}
    by_dtype: dict = {}
    for cg in out:
        key = tuple(n.dtype for n in cg.graph.inputs)
        if by_dtype.setdefault(key, repr(cg.graph.signature())) != repr(cg.graph.signature()):
            raise CubeUnsupported("the shape cases trace to different op graphs (one kernel must serve every case)")
    if len({(cg.a, cg.b, tuple(n.name for n in cg.graph.inputs)) for cg in out}) > 1 or not sig:
        raise CubeUnsupported("the shape cases read the matmul's operands differently (one kernel must serve every case)")
    return out


# ---- rendering ---------------------------------------------------------------------------------------

def _ind(lines: list[str], n: int) -> str:
    return "\n".join(" " * n + ln if ln else "" for ln in lines)


def render(cp: CubeParams) -> dict[str, str]:
    snake = snake_case(cp.op_type)
    return {f"op_host/{snake}.cpp": _host(cp), f"op_host/{snake}_tiling.h": _tiling(cp), f"op_kernel/{snake}.cpp": _kernel(cp)}


def _tiling(cp: CubeParams) -> str:
    fields = "".join(f"TILING_DATA_FIELD_DEF(float, attr{j});\n" for j in range(len(cp.attrs)))
    if len(cp.attrs) % 2:
        fields += "TILING_DATA_FIELD_DEF(float, attrPad);         // keeps the TCubeTiling 8-byte aligned\n"
    return load("mm_tiling.h.tmpl").substitute(op_type=cp.op_type, guard=f"{snake_case(cp.op_type).upper()}_TILING_H",
                                               attr_fields=fields, extra_fields=cp.conv.fields if cp.conv else "")


def bytes_per_elem(cp: CubeParams) -> tuple[int, str]:
    """UB bytes per element of a result tile, as the kernel's InitBuffer calls add up (16-bit sizes as float
    where any combination has a float)."""
    size = {i: max(SIZE[c[0][k]] for c in cp.combos) for k, i in enumerate(cp.inputs)}
    out = max(SIZE[c[1]] for c in cp.combos)
    total, parts = 2 * 4 + 2 * out, ["result queue 2 x 4", f"output queue 2 x {out}"]
    for name, kind in zip(cp.cg.epilogue_inputs, cp.kinds[1:]):
        if kind == "col":
            total += 4
            parts.append(f"{name} per-row float tile 4")
        elif kind != "scalar":
            widen = 4 if any(c[0][cp.inputs.index(name)] != "float32" for c in cp.combos) else 0
            total += 2 * size[name] + widen
            parts.append(f"{name} queue 2 x {size[name]}" + (f" + float copy {widen}" if widen else ""))
    total += 4 * cp.nslots + 2 * len(cp.round_types) + (4 if cp.row else 0)
    parts.append(f"{cp.nslots} float slots, {len(cp.round_types)} rounding tiles")
    return total, ", ".join(parts)


def fixed_bytes(cp: CubeParams) -> tuple[int, str]:
    """UB bytes the kernel takes besides its tiles (the host's margin, a triangle's column index and bits)."""
    if cp.cg.triangle is None:
        return 1024, "a 1 KB margin (scratch rows of scalar maths)"
    return 1024 + 128 * 4 + 32, "a 1 KB margin, the triangle's column index (128 floats at most) and keep bits"


def _host(cp: CubeParams) -> str:
    attr_code = []
    for j in range(len(cp.attrs)):
        attr_code += [f"    const float* attr{j} = context->GetAttrs()->GetAttrPointer<float>({j});",
                      f"    tiling.set_attr{j}(attr{j} ? *attr{j} : {cp.attr_defaults[j]!r}f);"]
    params = opdef_params(cp.kernel_params())
    per, note = bytes_per_elem(cp)
    ins = cp.op_inputs()
    a_index = ins.index(cp.conv.weight if cp.conv else cp.cg.a.name)   # (the operand's dtype)
    trans_a, trans_b = ("true" if o.trans else "false" for o in (cp.cg.a, cp.cg.b))
    if cp.conv is None:
        shape = load("mm_shape.tmpl").substitute(a_index=a_index, b_index=ins.index(cp.cg.b.name), trans_a=trans_a,
                                                 trans_b=trans_b)
        used, ws, tiling, ub = "    uint32_t used = items < aiv ? items : aiv;", "", "", ""
    else:
        shape, used, ws, tiling, ub = cp.conv.host(ins)
    return load("mm_host.cpp.tmpl").substitute(
        op_type=cp.op_type, summary=cp.summary, op_snake=snake_case(cp.op_type), bytes_per_elem=per, budget_note=note,
        a_index=a_index, trans_a=trans_a, trans_b=trans_b, shape_code=shape.rstrip("\n"), used_code=used,
        workspace_extra=ws, extra_tiling=tiling, ub_extra=ub,
        attr_code="\n".join(attr_code), params="\n".join(params),
        fixed_bytes=fixed_bytes(cp)[0], fixed_note=fixed_bytes(cp)[1], whole_rows="true" if cp.row else "false",
        c_type=("matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, CubeType(context->GetOutputDesc(0)->GetDataType())"
                if cp.direct else "matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::"
                + ("DT_INT32" if cp.integer else "DT_FLOAT")))


def _kernel(cp: CubeParams) -> str:
    cg = cp.cg
    nm = cp.names
    eps = cg.epilogue_inputs
    b_type = nm[cp.conv.x if cp.conv else cg.b.name].upper()   # a convolution's col has its input's type
    a_type = nm[cp.conv.weight if cp.conv else cg.a.name].upper()   # (a transposed one's A: its weight rearranged)
    aliases = [f"using TA = DTYPE_{a_type};", f"using TB = DTYPE_{b_type};", "using TO = DTYPE_Y;"]
    aliases += [f"using TI{i} = DTYPE_{nm[x].upper()};" for i, x in enumerate(eps, 1)]
    init, members, load_, deq, free = [], [], [], [], []
    for i, (x, kind) in enumerate(zip(eps, cp.kinds[1:]), 1):
        init.append(f"xg{i}_.SetGlobalBuffer((__gm__ TI{i}*){nm[x]});")
        members.append(f"GlobalTensor<TI{i}> xg{i}_;")
        if kind == "scalar":
            init.append(f"sv{i}_ = static_cast<float>(xg{i}_.GetValue(0));")
            members.append(f"float sv{i}_ = 0.0f;")
            continue
        if kind == "col":   # one value per row of the result: the tile's rows' values, each along its row
            init.append(f"pipe->InitBuffer(f{i}_, tileElems_ * sizeof(float));")
            members += [f"TBuf<TPosition::VECCALC> f{i}_;",
                        f"uint32_t filledRow{i}_ = UINT32_MAX, filledRows{i}_ = 0;   // the rows f{i}_ holds (a tile's N blocks share them)"]
            deq += [f"LocalTensor<float> XI{i} = f{i}_.Get<float>();",
                    f"uint32_t row{i} = static_cast<uint32_t>(base / td_->mm.N % td_->mm.M);",
                    f"if (row{i} != filledRow{i}_ || rows != filledRows{i}_) {{",
                    "    for (uint32_t k = 0; k < rows; ++k) {",
                    f"        Duplicate(XI{i}[k * pitch], static_cast<float>(xg{i}_.GetValue(row{i} + k)), pitch);",
                    "    }",
                    f"    filledRow{i}_ = row{i};",
                    f"    filledRows{i}_ = rows;",
                    "}"]
            continue
        init.append(f"pipe->InitBuffer(inQ{i}_, BUFFER_NUM, tileElems_ * sizeof(TI{i}));")
        members.append(f"TQue<QuePosition::VECIN, 1> inQ{i}_;")
        widen = any(c[0][cp.inputs.index(x)] != "float32" for c in cp.combos)
        if widen:
            init.append(f"pipe->InitBuffer(f{i}_, tileElems_ * sizeof(float));")
            members.append(f"TBuf<TPosition::VECCALC> f{i}_;")
        load_ += [f"LocalTensor<TI{i}> x{i} = inQ{i}_.AllocTensor<TI{i}>();"]
        if kind == "full":
            load_.append(f"DataCopyPad(x{i}, xg{i}_[base], Block<TI{i}>(rows, cols, false), DataCopyPadExtParams<TI{i}>{{false, 0, 0, 0}});")
        else:   # one row of the last-dimension vector, replicated over the tile's rows below
            load_.append(f"DataCopyPad(x{i}, xg{i}_[col0], DataCopyExtParams{{1, static_cast<uint32_t>(cols * sizeof(TI{i})), 0, 0, 0}}, "
                         f"DataCopyPadExtParams<TI{i}>{{false, 0, 0, 0}});")
        load_.append(f"inQ{i}_.EnQue(x{i});")
        deq.append(f"x{i} = inQ{i}_.DeQue<TI{i}>();")
        count = "n" if kind == "full" else "pitch"
        deq.append(f"LocalTensor<float> XI{i} = Widen<TI{i}>(x{i}, f{i}_, {count});" if widen else
                   f"LocalTensor<float> XI{i} = x{i};")
        if kind == "row":
            deq.append(f"for (uint32_t k = 1; k < rows; ++k) DataCopy(XI{i}[k * pitch], XI{i}, pitch);")
        free.append(f"inQ{i}_.FreeTensor(x{i});")
    bodies = " ".join(" ".join(p.body) for p in cp.progs.values())
    for s in range(cp.nslots):
        init.append(f"pipe->InitBuffer(slot{s}_, tileElems_ * sizeof(float));")
        members.append(f"TBuf<TPosition::VECCALC> slot{s}_;")
        if not cp.row:
            deq.append(f"LocalTensor<float> S{s} = slot{s}_.Get<float>();")
    if cp.row:
        sc = sorted({int(k) for k in re.findall(r"\bSC(\d)\b", bodies)})   # 8-float scratch rows of scalar maths
        for name, buf, size in (("WK", "wk_", "tileElems_ * sizeof(float)"), ("SC0", "sc_", f"{32 * (max(sc or [0]) + 1)}")):
            if re.search(rf"\b{name}\b", bodies) or (name == "SC0" and sc):
                init.append(f"pipe->InitBuffer({buf}, {size});")
                members.append(f"TBuf<TPosition::VECCALC> {buf};")
                deq.append(f"LocalTensor<float> {name} = {buf}.Get<float>();")
        deq += [f"LocalTensor<float> SC{k} = SC0[{8 * k}];" for k in sc if k]
    for dt in cp.round_types:
        ct = CT[dt]
        init.append(f"pipe->InitBuffer(rh_{ct}_, tileElems_ * sizeof({ct}));")
        members.append(f"TBuf<TPosition::VECCALC> rh_{ct}_;")
        deq.append(f"LocalTensor<{ct}> RH_{ct} = rh_{ct}_.Get<{ct}>();")
    for j in range(len(cp.attrs)):
        init.append(f"attr{j}_ = td.attr{j};")
        members.append(f"float attr{j}_ = 0.0f;")
    compute = list(deq)
    multi = len(cp.combos) > 1
    stores = []
    for k, combo in enumerate(cp.combos):
        p = cp.progs[combo]
        body = []
        if cp.c_round[combo]:
            ct = CT[cp.c_round[combo]]
            body += [f"Cast(RH_{ct}, XI0, RoundMode::CAST_RINT, n);   // the product rounded as PyTorch returns it",
                     f"Cast(XI0, RH_{ct}, RoundMode::CAST_NONE, n);"]
        res = p.outputs[0].val.expr
        if cp.row:   # the row program once per row of the tile (row o of every tile-sized buffer)
            slots = [f"    LocalTensor<float> S{s} = slot{s}_.Get<float>()[o];" for s in range(cp.nslots)
                     if re.search(rf"\bS{s}\b", " ".join(p.body))]
            body += ["for (uint32_t r = 0; r < rows; ++r) {", "    uint32_t o = r * pitch;", *slots,
                     *["    " + ln for ln in p.body], "}"]
            if p.outputs[0].val.kind == "rs":   # one value per row: collected, then stored as a column
                body[-1:-1] = [f"    rowRes.SetValue(r, {res});"]
                body[:0] = ["LocalTensor<float> rowRes = rowRes_.Get<float>();"]
                body.append("WaitPipe<HardEvent::S_V>();   // the vector unit reads the values the scalar unit wrote")
                res = "rowRes"
            m = re.fullmatch(r"S(\d+)", res)
            res = f"slot{m.group(1)}_.Get<float>()" if m else res.replace("[o]", "")
        else:
            body += p.body
        body += _triangle_body(cg, res)
        store = [f"StoreOut<TO>(o, {res}, {'(rows + 7) / 8 * 8' if res == 'rowRes' else 'n'});"]
        if multi:
            cond = " && ".join(f"ORIG_DTYPE_{nm[x].upper()} == {GE[d].replace('ge::', '')}" for x, d in zip(cp.inputs, combo[0])
                               if x in cp.op_inputs())
            head = "#if" if k == 0 else "#elif"
            compute += [f"{head} {cond}", *body]
            stores += [f"{head} {cond}", *store]
        else:
            compute += body
            stores += store
    if multi:
        compute.append("#endif")
        stores.append("#endif")
    helpers = cp.combos and any(c[0][cp.inputs.index(x)] != "float32" for c in cp.combos for x, kd in
                                zip(eps, cp.kinds[1:]) if kd not in ("scalar", "col"))
    trans_note = ""
    if cg.a.trans or cg.b.trans:
        trans_note = ", " + " and ".join(w for w, t in (("A transposed", cg.a.trans), ("B transposed", cg.b.trans)) if t)
    per_row = any(p.outputs[0].val.kind == "rs" for p in cp.progs.values())
    if per_row:
        init.append("pipe->InitBuffer(rowRes_, tileElems_ * sizeof(float));   // one value per row of the tile")
        members.append("TBuf<TPosition::VECCALC> rowRes_;")
    if cg.triangle is not None:
        init += ["pipe->InitBuffer(colIdx_, ColIdxLen() * sizeof(float));   // 0, 1, 2, ... over a tile row",
                 "pipe->InitBuffer(keepBits_, ColIdxLen() / 8);                // one bit per column: kept",
                 "CreateVecIndex(colIdx_.Get<float>(), 0.0f, ColIdxLen());"]
        members += ["TBuf<TPosition::VECCALC> colIdx_;", "TBuf<TPosition::VECCALC> keepBits_;"]
    gm = [nm[x] for x in cp.op_inputs()] + [cp.out]
    init_gm, init_args, a_name, b_name, prologue, methods = gm, gm, nm[cg.a.name], nm.get(cg.b.name, ""), "", ""
    if cp.conv is not None:   # Init takes what the kernel reads (a module tensor the forward never uses: not)
        read = {cg.a.name, cg.b.name, cp.conv.x, cp.conv.weight, *eps}
        init_gm = init_args = [nm[x] for x in cp.op_inputs() if x in read] + [cp.out]
    if cp.conv is not None and cp.conv.im2col:   # the vector cores write col (B) to the workspace first
        init_gm, init_args, b_name = init_gm + ["col"], init_gm + ["GetUserWorkspace(workspace)"], "col"
        a_name = cp.conv.a_source or a_name
        aliases += cp.conv.aliases
        init += cp.conv.init_lines
        members += cp.conv.members
        prologue, methods = cp.conv.prologue, cp.conv.methods(cp.op_type)
    if any("WaitPipe<" in ln for ln in compute + stores):   # a row epilogue reads a reduction's result
        aliases += ["", load("wait_pipe.tmpl").template.rstrip("\n")]
    aliases.append("using TC = int32_t;   // the int8 products accumulate in int32" if cp.integer else "using TC = float;")
    take_c = (["LocalTensor<int32_t> acc = cQ_.DeQue<int32_t>();", "LocalTensor<float> XI0 = acc.ReinterpretCast<float>();",
               "Cast(XI0, acc, RoundMode::CAST_RINT, n);   // the int32 sums as float, in place (as .to(torch.float32))"]
              if cp.integer else ["LocalTensor<float> XI0 = cQ_.DeQue<float>();"])
    return load("mm_direct_kernel.cpp.tmpl" if cp.direct else "mm_kernel.cpp.tmpl").safe_substitute(
        take_c=_ind(take_c, 8),
        op_type=cp.op_type, summary=cp.summary, trans_note=trans_note,
        type_aliases="\n".join(aliases) + ("\n\n" + load("mm_widen.tmpl").template if helpers else ""),
        init_params=", ".join(f"GM_ADDR {x}" for x in init_gm), a_name=a_name, b_name=b_name, y_name=cp.out,
        prologue=prologue, methods=methods,
        init_body=_ind(init, 8), a_offset="m0" if cg.a.trans else "static_cast<uint64_t>(m0) * t.Ka",
        b_offset="static_cast<uint64_t>(n0) * t.Ka" if cg.b.trans else "n0",
        trans_a="true" if cg.a.trans else "false", trans_b="true" if cg.b.trans else "false",
        load_body=_ind(load_ + (["uint32_t cols_ = cols;   // the row programs' row length"] if cp.row else []), 8),
        compute_body=_ind(compute, 8), store_body=_ind(stores + free, 8),
        copy_out=("DataCopyPad(yGm_[base / td_->mm.N], o, DataCopyExtParams{1, static_cast<uint32_t>(rows * sizeof(TO)), 0, 0, 0});"
                  "   // one value per row: y is [.., M, 1]" if per_row else "DataCopyPad(yGm_[base], o, Block<TO>(rows, cols, true));"),
        members=_ind(members, 4), kernel_name=snake_case(cp.op_type), gm_params=", ".join(f"GM_ADDR {x}" for x in gm),
        gm_args=", ".join(init_args), row0_arg=", static_cast<uint32_t>(m0 + bm * t.baseM)" if cg.triangle else "",
        row0_param=", uint32_t row0" if cg.triangle else "",
        col_idx_len=("\n    // the column index row: a tile row rounded up to the 64 floats a compare covers\n"
                     "    __aicore__ inline uint32_t ColIdxLen() const { return (static_cast<uint32_t>(td_->mm.baseN) + 63) / 64 * 64; }\n"
                     if cg.triangle else ""))


def _triangle_body(cg: CubeGraph, res: str) -> list[str]:
    """Zero the masked triangle of the tile (rows x cols at row0, col0 of its matrix): per tile row, the columns
    kept (``upper``: j >= i + k, ``lower``: j <= i + k) are those whose index compares so with i + k - col0."""
    if cg.triangle is None:
        return []
    side, k = cg.triangle
    mode, keeps = ("GE", "j >= i + k") if side == "upper" else ("LE", "j <= i + k")
    shift = f" + {k}" if k > 0 else f" - {-k}" if k < 0 else ""
    whole = "edge <= 0.0f" if side == "upper" else "edge >= static_cast<float>(cols) - 1.0f"
    return [f"// torch.{'triu' if side == 'upper' else 'tril'}(.., {k}): keep {keeps}, zero the rest",
            "LocalTensor<float> colIdx = colIdx_.Get<float>();",
            "LocalTensor<uint8_t> keep = keepBits_.Get<uint8_t>();",
            "for (uint32_t r = 0; r < rows; ++r) {",
            f"    float edge = static_cast<float>(static_cast<int32_t>(row0 + r){shift} - static_cast<int32_t>(col0));",
            f"    if ({whole}) {{",
            "        continue;   // the whole row is kept",
            "    }",
            f"    Compares(keep, colIdx, edge, CMPMODE::{mode}, ColIdxLen());",
            f"    Select({res}[r * pitch], keep, {res}[r * pitch], 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cols);",
            "}"]


def _too_wide(cp: CubeParams, cgs: list[CubeGraph]) -> str:
    """Why a row-wise epilogue's rows do not fit one cube tile (the host's whole-row tiling: at least 16 rows of
    the result, rounded to 16 columns, in L0C twice and in UB with the epilogue's buffers), or ""."""
    if not cp.row:
        return ""
    soc = soc_facts()
    ub = soc.ub_bytes - soc.kfc_reserved_bytes - fixed_bytes(cp)[0]
    per, _ = bytes_per_elem(cp)
    for cg in cgs:
        n16 = (int(cg.out_shape[-1]) + 15) // 16 * 16
        if 16 * n16 * per > ub or 16 * n16 * 4 * 2 > soc.l0c_bytes:
            return (f"a result row of {cg.out_shape[-1]} elements does not fit one base block in L0C and UB "
                    f"(the row-wise epilogue after the matmul needs 16 whole rows: {16 * n16 * per} bytes of UB)")
    return ""


# ---- planner entry -------------------------------------------------------------------------------------

def plan_cube(task: Any, cases: list, mod: Any, plan_cls: Any, unsupported_cls: Any, op_type: str,
              names: set[str], stop: str | None = None) -> Any:
    """The planner's cube hook: a ``plan_cls`` (the planner's ``Plan``) or ``unsupported_cls`` when the
    reference's export holds a matmul, None otherwise (the vector front ends take it). ``names``: the ATen
    ops the first case calls (a cheap test before exporting); ``stop``: a staged op's first stage ends at
    that export node (``analyse_cube``)."""
    if not has_matmul(names):
        return None
    try:
        cgs = analyse_all([(mod.Model(*copy.deepcopy(init)), list(ins), list(init)) for init, ins in cases], stop)
        ops = [n.op for n in cgs[0].graph.nodes if n.op not in ("identity", "view")]
        summary = "ops: matmul" + "".join(f" -> {o}" for o in ops)
        cp = CubeParams(op_type, summary, cgs)
    except NoMatmul:
        return None
    except CubeUnsupported as e:
        op = str(e).split("core op aten.")[1].split(" ")[0].split(".")[0] if "core op aten." in str(e) else "matmul"
        return unsupported_cls(task.name, str(e), op=op, category="matmul")
    wide = _too_wide(cp, cgs)
    if wide:
        return unsupported_cls(task.name, wide, op="matmul", category="matmul")
    kp = cp.kernel_params()
    if stop is not None:   # a first stage: where it ends, and the input whose dtype its result has
        if cp.row:
            return unsupported_cls(task.name, "a row-wise epilogue in a staged op's first stage", category="matmul")
        kp.extra.update(last=stop, x=cp.names[cp.cg.a.name], a=Operand(cp.names[cp.cg.a.name], cp.cg.a.trans),
                        b=Operand(cp.names[cp.cg.b.name], cp.cg.b.trans))
    pl = plan_cls(task=task, op_type=op_type, category="matmul", template="cube", params=kp, graphs=[cg.graph for cg in cgs])
    pl.files = render(cp)
    pl.case_meta = [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in cg.graph.inputs[1:]],
                     "args": [a.kwargs["value"] for a in cg.graph.attrs], "init": cg.graph.init} for cg in cgs]
    return pl
