"""Attention planner: a reference computing ``softmax(q k^T * scale [masked]) v`` -> a flash-attention MIX
kernel (template ``attn_*.tmpl``): QK^T and PV on the cube (Matmul API), the online softmax on the vector
cores. ``attention.analyse_attention`` reads each case; this module checks the cases agree, turns the
layouts, scale and mask into host code (one binary per dtype serves every shape) and renders the files.
"""
from __future__ import annotations

import math
from typing import Any

from agent_graph.drafter.analysis import OpGraph, OpNode
from agent_graph.drafter.attention import AttnGraph, AttnUnsupported, FUSED_SDPA, Layout, NotAttention, analyse_cases
from agent_graph.drafter.budget import UB_BUDGET
from agent_graph.drafter.codegen import opdef_params
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

SHAPES = {"q": "qs", "k": "ks", "v": "vs", "y": "ys"}
BLOCK_K = 64                 # keys per step (the kernel's BLOCK_K: one score row is one 256-byte float repeat)
BLOCK_QS = (64, 32, 16)      # query rows per work item, the largest whose buffers fit the UB (16: the cube's M)
MAX_PV_COLUMNS = 256         # output columns of one P V base block when the head is wider (PvColumns on the host)
MAX_HEAD_PAD = 2032          # the accumulator's row pitch in 32-byte blocks is a uint8 repeat stride (<= 255 blocks)


def ub_bytes(block_q: int, head_pad: int, mask: bool, round_scores: bool) -> int:
    """The kernel's UB bytes (its InitBuffer calls, 4-byte elements for any input type): the score and weight
    tiles, one P V base block, the output rows and the float accumulator, the per-row statistics."""
    tile = block_q * BLOCK_K
    pv_cols = head_pad if head_pad <= MAX_PV_COLUMNS else MAX_PV_COLUMNS
    total = tile * 4 * 2 + block_q * pv_cols * 4 + block_q * head_pad * 4 * 2 + block_q * 4 * 4 + block_q * 8 * 4
    return total + (tile * 2 if round_scores else 0) + (tile * 4 * 2 if mask else 0)


def block_rows(head_dim: int, mask: bool, round_scores: bool) -> tuple[int, int]:
    """(BLOCK_Q, the widest head it serves): the most query rows per item whose buffers fit the UB with a head of
    ``head_dim``; AttnUnsupported when not even 16 rows fit."""
    pad = (head_dim + 15) // 16 * 16
    for bq in BLOCK_QS:
        if ub_bytes(bq, pad, mask, round_scores) <= UB_BUDGET:
            widest = pad
            while widest + 16 <= MAX_HEAD_PAD and ub_bytes(bq, widest + 16, mask, round_scores) <= UB_BUDGET:
                widest += 16
            return bq, widest
    raise AttnUnsupported(f"a head dimension of {head_dim} is larger than the accumulator of {BLOCK_QS[-1]} query rows "
                          f"takes in the Unified Buffer")


def is_candidate(names: set[str]) -> bool:
    """Whether the eager run's ATen ops may be attention: the fused SDPA kernel, or two matmuls' worth of
    ops with a softmax."""
    return any(n.startswith(FUSED_SDPA) for n in names) or (
        bool(names & {"bmm", "mm", "matmul", "einsum"}) and bool(names & {"_softmax", "softmax", "_safe_softmax"}))


def _dims(lay: Layout, s: str, heads_const: str) -> dict[str, str]:
    """C++ expressions of batch, heads, rows and D read from a tensor's shape."""
    g = lambda i: f"{s}.GetDim({i})"   # noqa: E731
    if lay.kind == "bhsd4":
        return {"batch": g(0), "heads": g(1), "rows": g(2), "d": g(3)}
    if lay.kind == "bshd4":
        return {"batch": g(0), "heads": g(2), "rows": g(1), "d": g(3)}
    if lay.kind == "bshd3":
        return {"batch": g(0), "heads": heads_const, "rows": g(1), "d": f"({g(2)} / {heads_const})"}
    if lay.kind == "bsd3":
        return {"batch": g(0), "heads": "1", "rows": g(1), "d": g(2)}
    return {"batch": "1", "heads": "1", "rows": g(0), "d": g(1)}


def _strides(lay: Layout, s: str) -> str:
    g = lambda i: f"{s}.GetDim({i})"   # noqa: E731
    return {"bhsd4": f"{g(1)} * {g(2)} * {g(3)}, {g(2)} * {g(3)}, {g(3)}",
            "bshd4": f"{g(1)} * {g(2)} * {g(3)}, {g(3)}, {g(2)} * {g(3)}",
            "bshd3": f"{g(1)} * {g(2)}, D, {g(2)}",
            "bsd3": f"{g(1)} * {g(2)}, 0, {g(2)}",
            "sd2": f"0, 0, {g(1)}"}[lay.kind]


def _layout_code(ag: AttnGraph, heads_q: int, heads_kv: int) -> str:
    lq, lk = ag.layouts["q"], ag.layouts["k"]
    dq = _dims(lq, "qs", str(heads_q))
    dk = _dims(lk, "ks", str(heads_kv))
    lines = [f"    // q: {_describe(lq)}; k, v: {_describe(lk)}; y: {_describe(ag.layouts['y'])}",
             f"    int64_t batch = {dq['batch']}, heads = {dq['heads']}, Sq = {dq['rows']}, D = {dq['d']};",
             f"    int64_t Sk = {dk['rows']}, kvHeads = {dk['heads']};"]
    for t in ("q", "k", "v", "y"):
        lines.append(f"    int64_t {t}Strides[3] = {{{_strides(ag.layouts[t], SHAPES[t])}}};   // batch, head, row")
    return "\n".join(lines)


def _describe(lay: Layout) -> str:
    return {"bhsd4": "[B, H, S, D]", "bshd4": "[B, S, H, D]", "bshd3": "[B, S, H * D]", "bsd3": "[B, S, D] (one head)",
            "sd2": "[S, D]"}[lay.kind]


def _scale_code(ags: list[AttnGraph]) -> tuple[str, list[str], list[float]]:
    """(host lines setting the scale, float attrs, attr defaults): a forward float argument, 1/sqrt(D) or a
    constant, whichever every case agrees with."""
    def close(a: float, b: float) -> bool:
        return abs(a - b) <= 1e-6 * max(1.0, abs(b))
    args = [ag.float_args for ag in ags]
    if args[0]:
        for j in range(len(args[0])):
            if all(len(a) > j for a in args):
                if all(close(ag.scale, a[j]) for ag, a in zip(ags, args)):
                    return ("    const float* scaleAttr = context->GetAttrs()->GetAttrPointer<float>(0);\n"
                            f"    tiling.set_scale(scaleAttr ? *scaleAttr : {args[0][j]!r}f);   // the scale argument", ["scale"],
                            [args[0][j]])
                if all(a[j] and close(ag.scale, 1.0 / a[j]) for ag, a in zip(ags, args)):
                    return ("    const float* divisorAttr = context->GetAttrs()->GetAttrPointer<float>(0);\n"
                            f"    tiling.set_scale(1.0f / (divisorAttr ? *divisorAttr : {args[0][j]!r}f));   // scores divided "
                            "by the argument", ["divisor"], [args[0][j]])
    if all(close(ag.scale, 1.0 / math.sqrt(ag.head_dim)) for ag in ags):
        return "    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(D)));   // softmax(q k^T / sqrt(D))", [], []
    if all(close(ag.scale, ags[0].scale) for ag in ags):
        return f"    tiling.set_scale({ags[0].scale!r}f);   // the reference's constant scale", [], []
    raise AttnUnsupported("an attention scale that differs between the shape cases and follows no argument is not covered")


def _offset_code(ags: list[AttnGraph]) -> tuple[bool, str]:
    offs = [ag.causal_offset for ag in ags]
    if all(o is None for o in offs):
        return False, "0"
    for expr, f in (("0", lambda ag: 0), ("Sk - Sq", lambda ag: ag.seq_k - ag.seq_q)):
        if all(o is None and f(ag) >= ag.seq_k - 1 or o == f(ag) for o, ag in zip(offs, ags)):
            return True, expr
    raise AttnUnsupported(f"causal masks with offsets {offs} across the shape cases are not covered")


def plan_attention(task: Any, cases: list, mod: Any, plan_cls: Any, unsupported_cls: Any, op_type: str,
                   names: set[str]) -> Any:
    """The planner's attention hook: a ``plan_cls`` or ``unsupported_cls`` when the reference is attention,
    None otherwise."""
    if not is_candidate(names):
        return None
    fused = any(n.startswith(FUSED_SDPA) for n in names)
    try:
        ags = analyse_cases(mod, cases, fused)
        if len({(tuple(l.kind for l in ag.layouts.values()), ag.inputs[0][0]) for ag in ags}) > 1:
            raise AttnUnsupported("the shape cases lay out q, k, v differently (one kernel must serve every case)")
        heads_q = {ag.layouts["q"].heads for ag in ags}
        heads_kv = {ag.kv_heads for ag in ags}
        if (ags[0].layouts["q"].kind == "bshd3" and len(heads_q) > 1) or (ags[0].layouts["k"].kind == "bshd3" and len(heads_kv) > 1):
            raise AttnUnsupported("a [B, S, H*D] attention whose head count differs between the shape cases is not covered")
        block_q, widest = block_rows(max(ag.head_dim for ag in ags), ags[0].mask is not None,
                                     any(a.round_scores for a in ags))
        causal, offset = _offset_code(ags)
        scale_code, attrs, defaults = _scale_code(ags)
    except NotAttention:
        return None
    except AttnUnsupported as e:
        return unsupported_cls(task.name, str(e), op="scaled_dot_product_attention", category="attention")
    ag = ags[0]
    combos = [c for c in dict.fromkeys(a.dtype for a in ags)]
    names_io = [n for n, _, _ in ag.inputs]
    q, k, v = [f"{n}In" if n in ("y", "td", "tiling", "workspace", "pipe", "op") else n for n in names_io]
    m = None
    if ag.mask is not None:
        if len({a.mask_dims for a in ags}) > 1 or any(a.mask is None or a.mask[2] != a.dtype for a in ags):
            return unsupported_cls(task.name, "a mask input whose layout or dtype differs between the shape cases (or from "
                                              "q) is not covered", op="scaled_dot_product_attention", category="attention")
        m = "maskIn" if ag.mask[0] in ("y", "td", "tiling", "workspace", "pipe", "op", q, k, v) else ag.mask[0]
    kp = KernelParams(op_type=op_type, template="attention",
                      inputs=[TensorParam(x, "full", combos) for x in (q, k, v) + ((m,) if m else ())],
                      outputs=[TensorParam("y", "vec", combos)], attrs=attrs, attr_defaults=defaults,
                      summary=_summary(ag, causal), extra={"attention": True})
    snake = snake_case(op_type)
    causal_note = ("\n// Causal: key blocks past a block's last diagonal are skipped; the block across it is masked row by row."
                   if causal else "")
    files = {
        f"op_host/{snake}_tiling.h": load("attn_tiling.h.tmpl").substitute(op_type=op_type, guard=f"{snake.upper()}_TILING_H"),
        f"op_host/{snake}.cpp": load("attn_host.cpp.tmpl").substitute(
            op_type=op_type, summary=kp.summary, op_snake=snake, layout_code=_layout_code(ag, max(heads_q), max(heads_kv)),
            causal_offset=offset, scale_code=scale_code, params="\n".join(opdef_params(kp)), mask_code=_mask_code(ag),
            block_q=block_q, block_k=BLOCK_K, max_head_dim=widest, max_pv_columns=MAX_PV_COLUMNS),
        f"op_kernel/{snake}.cpp": _kernel(op_type, kp.summary, (q, k, v), causal, any(a.round_scores for a in ags),
                                               causal_note, m, block_q),
    }
    graphs = [OpGraph(inputs=[OpNode(x, "input", [], {}, tuple(shape), dt) for x, (_, shape, dt) in
                              zip((q, k, v, m), a.inputs + ([a.mask] if a.mask else []))],
                      outputs=["y"]) for a in ags]   # the op's interface per case (the writer's spec reads it)
    pl = plan_cls(task=task, op_type=op_type, category="attention", template="attention", params=kp, graphs=graphs)
    pl.files = files
    pl.case_meta = [{"inputs": [{"shape": list(s), "dtype": d} for _, s, d in a.inputs + ([a.mask] if a.mask else [])],
                     "args": a.float_args, "init": []}
                    for a in ags]
    return pl


def _mask_code(ag: AttnGraph) -> str:
    """Host lines: the element strides (batch, head, row) of an added mask input (0 where it broadcasts)."""
    if ag.mask is None:
        return "    int64_t maskStrides[3] = {0, 0, 0};   // no mask input"
    r = len(ag.mask[1])

    def stride(dim: int | None) -> str:
        if dim is None:
            return "0"
        later = [f"ms.GetDim({j})" for j in range(dim + 1, r)]
        return " * ".join(later) if later else "1"
    return ("    const gert::Shape& ms = context->GetInputShape(3)->GetStorageShape();   // the added mask\n"
            f"    int64_t maskStrides[3] = {{{', '.join(stride(d) for d in ag.mask_dims)}}};   // batch, head, row (0: broadcast)")


def _summary(ag: AttnGraph, causal: bool) -> str:
    mask = "causal" if causal else "an added mask input" if ag.mask else "no mask"
    gqa = ", query heads grouped over fewer key/value heads (GQA/MQA)" if ag.kv_heads != ag.heads else ""
    return f"ops: attention softmax(q k^T * scale) v, {mask}{gqa}"


ROUND_PIECES = {
    "round_init": "        pipe->InitBuffer(round_, BLOCK_Q * BLOCK_K * sizeof(half));   // a 16-bit staging tile\n",
    "round_product": "        RoundScores(s, n);   // the product in the input type, as the reference's matmul returns it\n",
    "round_scaled": "        RoundScores(s, n);   // the scaled scores in the input type, as the reference computes them\n",
    "round_fn": ("    // a 16-bit reference rounds its scores to its dtype: round the float tile the same way (no-op for float)\n"
                 "    __aicore__ inline void RoundScores(const LocalTensor<float>& s, uint32_t n)\n    {\n"
                 "        RoundTo<T>(s, round_, n);\n    }\n\n"),
    "round_member": "    TBuf<TPosition::VECCALC> round_;       // 16-bit staging of the rounded scores\n",
}


MASK_PIECES = {
    "mask_param": ", GM_ADDR MASK_NAME",
    "mask_arg": ", MASK_NAME",
    "mask_init": ("        maskGm_.SetGlobalBuffer((__gm__ T*)MASK_NAME);\n"
                  "        pipe->InitBuffer(maskQ_, 1, BLOCK_Q * BLOCK_K * sizeof(T));\n"
                  "        pipe->InitBuffer(maskWide_, BLOCK_Q * BLOCK_K * sizeof(float));\n"),
    "mask_add": "        AddMask(s, q0, k0, rows, keys);\n",
    "mask_base": "            maskBase_ = b * td.maskBatchStride + h * td.maskHeadStride;\n",
    "mask_fn": ("    // the added mask's rows of this block on the scores (columns past `keys` are set to -inf by MaskScores)\n"
                "    __aicore__ inline void AddMask(const LocalTensor<float>& s, uint32_t q0, uint32_t k0, uint32_t rows, uint32_t keys)\n"
                "    {\n"
                "        LocalTensor<T> m = maskQ_.AllocTensor<T>();\n"
                "        uint64_t off = maskBase_ + static_cast<uint64_t>(q0) * td_->maskRowStride + k0;\n"
                "        DataCopyExtParams row{1, static_cast<uint32_t>(keys * sizeof(T)), 0, 0, 0};\n"
                "        for (uint32_t r = 0; r < rows; ++r) {   // row by row: a mask shared by all rows has row stride 0\n"
                "            DataCopyPad(m[r * BLOCK_K], maskGm_[off + static_cast<uint64_t>(r) * td_->maskRowStride], row,\n"
                "                        DataCopyPadExtParams<T>{false, 0, 0, 0});\n"
                "        }\n"
                "        maskQ_.EnQue(m);\n"
                "        m = maskQ_.DeQue<T>();\n"
                "        LocalTensor<float> wide = maskWide_.Get<float>();\n"
                "        ToFloat(wide, m, rows * BLOCK_K);\n"
                "        Add(s, s, wide, rows * BLOCK_K);\n"
                "        maskQ_.FreeTensor(m);\n"
                "    }\n\n"),
    "mask_member": ("    GlobalTensor<T> maskGm_;\n"
                    "    uint64_t maskBase_ = 0;                // the mask's offset for this item's (batch, head)\n"
                    "    TQue<QuePosition::VECIN, 1> maskQ_;    // mask rows from GM\n"
                    "    TBuf<TPosition::VECCALC> maskWide_;    // the mask rows in float\n"),
    "mask_helper": ("\n// a tile of the input type widened to float (a float tile is copied)\n"
                    "template <typename D>\n"
                    "__aicore__ inline void ToFloat(const LocalTensor<float>& out, const LocalTensor<D>& val, uint32_t count)\n"
                    "{\n    if constexpr (std::is_same_v<D, float>) {\n        DataCopy(out, val, count);\n"
                    "    } else {\n        Cast(out, val, RoundMode::CAST_NONE, count);\n    }\n}\n"),
}

ROUND_HELPER = """
// a float tile rounded to the 16-bit type D and back, through the staging buffer (float: unchanged)
template <typename D>
__aicore__ inline void RoundTo(const LocalTensor<float>& val, TBuf<TPosition::VECCALC>& staging, uint32_t count)
{
    if constexpr (!std::is_same_v<D, float>) {
        LocalTensor<D> r = staging.Get<D>();
        Cast(r, val, RoundMode::CAST_RINT, count);
        Cast(val, r, RoundMode::CAST_NONE, count);
    }
}
"""


def _kernel(op_type: str, summary: str, qkv: tuple[str, str, str], causal: bool, round_scores: bool, causal_note: str,
            mask: str | None, block_q: int) -> str:
    pieces = {k: (v if round_scores else "") for k, v in ROUND_PIECES.items()}
    pieces.update({k: (v.replace("MASK_NAME", mask or "") if mask else "") for k, v in MASK_PIECES.items()})
    if mask and round_scores:
        pieces["mask_add"] += "        RoundScores(s, n);   // the masked scores in the input type, as the reference adds them\n"
    pieces["round_helper"] = ROUND_HELPER if round_scores else ""
    return load("attn_kernel.cpp.tmpl").substitute(
        op_type=op_type, summary=summary, q_name=qkv[0], k_name=qkv[1], v_name=qkv[2], y_name="y", q_upper=qkv[0].upper(),
        causal="true" if causal else "false", causal_note=causal_note, kernel_name=snake_case(op_type), block_q=block_q,
        block_k=BLOCK_K,
        two_pass="!std::is_same_v<T, float>" if round_scores else "false", **pieces)
