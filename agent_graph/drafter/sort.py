"""Sorting along the last dimension: ``torch.sort`` / ``argsort`` / ``torch.topk`` (``aten.sort``, ``aten.topk``)
onto the ``sort`` template: each row is sorted whole on the vector unit (``Sort<float, true>``: 32-element
``Sort32`` groups merged into one descending, stable sequence of (score, index) pairs; ``Extract`` splits them)
and the first k values and/or indices are written.

Ascending order (``largest=False``, ``descending=False``) sorts the negated row and negates the values back, so
equal values keep their input order both ways, as PyTorch's stable CPU sort does. k comes from the output shape
at run time, so one kernel serves every k. ``topk(sorted=False)`` (an order PyTorch leaves unspecified), rows
longer than ``MAX_ROW`` and other dimensions than the last are refused in one line."""
from __future__ import annotations

import operator
from typing import Any

from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import Beside, OwnPlan, aten_base, case_meta, fx_shape, opdef_params, read_cases
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

SORT_OPS = {"sort", "topk", "argsort"}   # eager names (special.ops_called)
CATEGORY = "sorting"
VIEWS = {"view", "reshape", "_unsafe_view", "clone", "alias", "contiguous"}
DTYPES = ("float32", "float16", "bfloat16")
MAX_ROW = 2048   # sort_host.cpp.tmpl's limit: a row sorted whole in UB (about 48 bytes an element)


def read_graph(model: Any, ins: list) -> dict | None:
    """What the reference sorts and returns; None when its exported graph holds no sort or topk."""
    ep = _export(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    nodes = [n for n in calls if aten_base(n) in ("sort", "topk")]
    if not nodes:
        return None
    node = nodes[0]
    x = node.args[0]
    shape = fx_shape(x)
    for n in calls:
        if n is not node and n.target is not operator.getitem and aten_base(n) not in VIEWS:
            raise Beside(f"core op aten.{aten_base(n)} beside a {aten_base(node)} is not covered by the sort template "
                         f"(x of shape {shape})")
    rank = len(shape)
    if aten_base(node) == "topk":
        a = list(node.args) + [None] * 5
        dim = -1 if a[2] is None else int(a[2])
        largest = True if a[3] is None else bool(a[3])
        if a[4] is not None and not bool(a[4]):
            raise AnalysisError(f"topk with sorted=False (x of shape {shape}) is not covered by the sort template "
                                "(PyTorch leaves that order unspecified)")
    else:
        kw, a = dict(node.kwargs), list(node.args[1:])     # sort.default(x, dim, descending); sort.stable: keywords
        dim = int(kw.get("dim", a[0] if a else -1))
        largest = bool(kw.get("descending", a[1] if len(a) > 1 else False))
    if rank == 0:
        raise AnalysisError(f"aten.{aten_base(node)} of a 0-d x is not covered by the sort template")
    d = dim % rank
    if shape[d] > MAX_ROW:
        raise AnalysisError(f"aten.{aten_base(node)} of rows {shape[d]} long (x of shape {shape}) does not fit the sort "
                            f"template's UB (a row of at most {MAX_ROW} sorted whole)")
    users = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    if len(users) != 1 or users[0] is not x:
        raise AnalysisError(f"aten.{aten_base(node)} of a tensor that is not the one forward input (x of shape {shape}) "
                            "is not covered by the sort template")
    dtype = str(x.meta["val"].dtype).replace("torch.", "")
    if dtype not in DTYPES:
        raise AnalysisError(f"aten.{aten_base(node)} of {dtype} x (shape {shape}) is not covered by the sort template")
    out = next(n for n in ep.graph.nodes if n.op == "output").args[0]
    outs = []
    for o in (out if isinstance(out, (list, tuple)) else [out]):
        if not (isinstance(o, type(node)) and o.target is operator.getitem and o.args[0] is node):
            raise AnalysisError(f"a reference returning more than the {aten_base(node)}'s values and indices (x of shape "
                                f"{shape}) is not covered by the sort template")
        outs.append("values" if o.args[1] == 0 else "indices")
    return {"op": aten_base(node), "largest": largest, "outputs": outs, "dtype": dtype, "shape": shape,
            "from_end": rank - d}


_VALUES_OUT = """
    // the first k scores back in x's dtype (negated back when the smallest came first)
    __aicore__ inline void CopyOutValues(uint32_t r, const LocalTensor<float>& values)
    {
        LocalTensor<TX> vt = valueQueue_.AllocTensor<TX>();
        if constexpr (WIDEN) {
            if constexpr (!LARGEST) {
                Muls(values, values, -1.0f, k_);
            }
            Cast(vt, values, RoundMode::CAST_RINT, k_);
        } else {
            Muls(vt.template ReinterpretCast<float>(), values, LARGEST ? 1.0f : -1.0f, k_);   // TX is float here
        }
        if (inner_ > 1) {   // one value per 32-byte block: the copy out strides them over the inner dimensions
            LocalTensor<TX> blocks = blockBuf_.Get<TX>();
            Brcb(blocks, vt, static_cast<uint8_t>((k_ + 7) / 8), BrcbRepeatParams(1, 8));
            valueQueue_.EnQue(vt);
            vt = valueQueue_.DeQue<TX>();
            DataCopyPad(valuesGm_[Strided(r, k_)], blocks, DataCopyExtParams{static_cast<uint16_t>(k_),
                        sizeof(TX), 0, static_cast<uint32_t>((inner_ - 1) * sizeof(TX)), 0});
        } else {
            valueQueue_.EnQue(vt);
            vt = valueQueue_.DeQue<TX>();
            DataCopyPad(valuesGm_[static_cast<uint64_t>(r) * k_], vt,
                        DataCopyExtParams{1, static_cast<uint32_t>(k_ * sizeof(TX)), 0, 0, 0});
        }
        valueQueue_.FreeTensor(vt);
    }
"""
_INDICES_OUT = """
    // the first k positions as int64, as PyTorch returns indices
    __aicore__ inline void CopyOutIndices(uint32_t r, const LocalTensor<uint32_t>& order)
    {
        LocalTensor<int64_t> it = indexQueue_.AllocTensor<int64_t>();
        Cast(it, order.template ReinterpretCast<int32_t>(), RoundMode::CAST_NONE, k_);
        indexQueue_.EnQue(it);
        it = indexQueue_.DeQue<int64_t>();
        if (inner_ > 1) {   // one index per 32-byte block (Brcb has no 8-byte form: the scalar unit spreads them)
            LocalTensor<int64_t> blocks = blockBuf_.Get<int64_t>();
            WaitPipe<HardEvent::V_S>();
            for (uint32_t j = 0; j < k_; ++j) {
                blocks.SetValue(j * 4, it.GetValue(j));
            }
            WaitPipe<HardEvent::S_MTE3>();
            DataCopyPad(indicesGm_[Strided(r, k_)], blocks, DataCopyExtParams{static_cast<uint16_t>(k_),
                        sizeof(int64_t), 0, static_cast<uint32_t>((inner_ - 1) * sizeof(int64_t)), 0});
            WaitPipe<HardEvent::MTE3_S>();   // the next row's indices are spread only after these left
        } else {
            DataCopyPad(indicesGm_[static_cast<uint64_t>(r) * k_], it,
                        DataCopyExtParams{1, static_cast<uint32_t>(k_ * sizeof(int64_t)), 0, 0, 0});
        }
        indexQueue_.FreeTensor(it);
    }
"""


def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    outs = e["outputs"]
    gm = {o: kp.outputs[i].name for i, o in enumerate(outs)}
    params, init, buffers, calls, funcs, members, args = [], [], [], [], [], [], []
    for o in outs:                               # in the op's output order
        if o == "values":
            params.append("GM_ADDR values")
            init.append("        valuesGm_.SetGlobalBuffer((__gm__ TX*)values, static_cast<uint64_t>(t.rows) * t.k);")
            buffers.append("        pipe_.InitBuffer(valueQueue_, 1, (t.k * sizeof(TX) + 31) / 32 * 32);")
            calls.append("            CopyOutValues(r, values);")
            funcs.append(_VALUES_OUT)
            members += ["GlobalTensor<TX> valuesGm_;", "TQue<TPosition::VECOUT, 1> valueQueue_;"]
        else:
            params.append("GM_ADDR indices")
            init.append("        indicesGm_.SetGlobalBuffer((__gm__ int64_t*)indices, static_cast<uint64_t>(t.rows) * t.k);")
            buffers.append("        pipe_.InitBuffer(indexQueue_, 1, (t.k * sizeof(int64_t) + 31) / 32 * 32);")
            calls.append("            CopyOutIndices(r, order);")
            funcs.append(_INDICES_OUT)
            members += ["GlobalTensor<int64_t> indicesGm_;", "TQue<TPosition::VECOUT, 1> indexQueue_;"]
        args.append(gm[o])
    kernel = load("sort_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", x_macro=kp.inputs[0].name.upper(),
        kernel_name=snake, kernel_args=", ".join(f"GM_ADDR {p.name}" for p in (*kp.inputs, *kp.outputs)),
        x_name=kp.inputs[0].name, out_params=", ".join(params), out_args=", ".join(args),
        out_init="\n".join(init), out_buffers="\n".join(buffers), out_calls="\n".join(calls),
        out_functions="".join(funcs), out_members="\n".join("    " + m for m in members),
        largest="true" if e["largest"] else "false", order="largest first" if e["largest"] else "smallest first",
        wait_pipe=load("wait_pipe.tmpl").template.rstrip("\n"))
    host = load("sort_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, params=opdef_params(kp.inputs, kp.outputs),
        max_row=MAX_ROW, from_end=e["from_end"])
    tiling = load("sort_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def plan_sort(cases: list, mod: Any, op_type: str) -> OwnPlan | None:
    """The plan (or refusal) for a reference that sorts its rows or picks their top k; None when it does not."""
    read = read_cases(cases, mod, read_graph, CATEGORY)
    if not isinstance(read, list):
        return read
    if len({(r["op"], r["largest"], tuple(r["outputs"]), r["from_end"]) for r in read}) > 1:
        return OwnPlan(CATEGORY, "the shape cases sort along different dimensions, in different orders or return "
                                 "different outputs (one kernel must serve every case)")
    dtypes = []
    for r in read:
        if r["dtype"] not in dtypes:
            dtypes.append(r["dtype"])
    r0 = read[0]
    out_dtypes = {"values": dtypes, "indices": ["int64"] * len(dtypes)}
    names = {"values": "values", "indices": "indices"}
    what = {"topk": "top k", "sort": "sort"}[r0["op"]]
    kp = KernelParams(op_type=op_type, template="sort",
                      inputs=[TensorParam("x", InputKind.FULL, list(dtypes))],
                      outputs=[TensorParam(names[o], OutputKind.COL, out_dtypes[o]) for o in r0["outputs"]],
                      summary=f"ops: {what} along " + ("the last dimension" if r0["from_end"] == 1 else
                                                        f"dim {-r0['from_end']}")
                              + f" ({'largest' if r0['largest'] else 'smallest'} first; "
                              f"returns {', '.join(r0['outputs'])})",
                      extra=dict(r0))
    graphs = [OpGraph(inputs=[OpNode("x", "input", [], {}, tuple(r["shape"]), r["dtype"])], init=list(init))
              for r, (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template="sort", params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
