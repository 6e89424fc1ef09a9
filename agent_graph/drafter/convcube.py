"""Convolution on the cube unit: a convolution (1-D, 2-D or 3-D, one group, transposed or not) and its epilogue as
a matmul per image, ``weight[OC, K] x col[K, P]``, where ``col`` is the image's im2col matrix (row k = one (input
channel, kernel tap) pair, column p = one output position; 0 where a tap reads the padding, or where a transposed
convolution's output position has no input for that tap). A transposed convolution's weight ``[C, OC, k..]`` is not
``[OC, K]`` as it lies: the kernel rearranges it into the workspace first (``WT``, a second rewritten input).

The reference's export is rewritten so that the cube planner reads it as a matmul: the convolution node becomes
``bmm(weight.view(OC, K).expand(N, OC, K), col).view(N, OC, *spatial) (+ bias.view(OC, 1, ..))`` where ``col`` is a
new first forward input (``COL``). The cube planner (``cubeplan``) plans that module as any matmul with an epilogue;
``im2col`` then tells the templates that ``COL`` is not an op input but the workspace the kernel's vector cores fill
from the input ``x`` before the matmul (one MIX kernel: im2col, ``SyncAll``, matmul + epilogue). The result of the
product is ``[N, OC, P]``, which is the convolution's NC(D)HW output as it lies in memory; a per-channel tensor of the
epilogue (``bias.view(OC, 1, 1)``, an ``nn.Parameter`` of shape ``[OC, 1, 1]``) is one value per row of the product.
"""
from __future__ import annotations

import copy
import logging
import math
import re
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import torch
import torch.nn.functional as F
from torch import fx

from agent_graph.drafter import convigemm, memo
from agent_graph.drafter.analysis import AnalysisError, OpNode
from agent_graph.drafter.canonical import _export, _name, live_nodes, moved_floats
from agent_graph.drafter.cube import CHAIN, analyse_cube
from agent_graph.drafter.cubeplan import RESERVED, CubeParams, CubeUnsupported, consistent, render
from agent_graph.drafter.templates import load
from bench_bridge.api import module_tensor_items

_log = logging.getLogger(__name__)

aten = torch.ops.aten
COL = "im2colX"
"""The rewritten module's first forward input: the im2col matrices ``[N, K, P]`` (never an op input)."""
WT = "convWeightT"
"""A transposed convolution's second input: its weight ``[C, OC, k..]`` as the product's ``[OC, C * k..]`` (the
kernel's vector cores write it to the workspace; never an op input)."""
CUBE_MIN_MACS = 16 * 16 * 64
"""Multiply-adds of the largest case below which the vector template keeps the convolution: a product this small
is a few cube fractals, and the im2col phase with its SyncAll costs more than the cube saves (modelled: a 1-D
convolution of 5 000 multiply-adds, 2.7x over eager on the vector unit, 2.4x through the cube)."""


@dataclass(frozen=True)
class Geometry:
    """The convolution's constants over (D, H, W); a 2-D convolution has D = 1 (stride 1, no padding, dilation 1)."""

    rank: int                          # spatial dimensions: 1, 2 or 3
    stride: tuple[int, int, int]
    padding: tuple[int, int, int]
    dilation: tuple[int, int, int]
    x_index: int                       # its position among the forward inputs
    bias: bool                         # the convolution adds a bias (the epilogue's first op)
    transposed: bool = False           # a transposed convolution (ConvTranspose): output o reads input i where
    output_padding: tuple[int, int, int] = (0, 0, 0)   # o = i * stride - padding + tap * dilation
    pointwise: bool = False            # a 1 x 1 kernel, stride 1, no padding: the im2col matrix is the input itself


class NotCube(Exception):
    """The convolution is not one the cube path takes (the vector template plans it instead)."""


def _triple(v: Any, rank: int, fill: int) -> tuple[int, int, int]:
    vals = [int(a) for a in v] if isinstance(v, (list, tuple)) else [int(v)]
    if len(vals) == 1:
        vals = vals * rank
    return tuple([fill] * (3 - len(vals)) + vals)


def im2col(x: torch.Tensor, ksize: tuple[int, ...], g: Geometry) -> torch.Tensor:
    """``[N, C * prod(ksize), P]``: row ``((c * KD + kz) * KH + ky) * KW + kx``, column ``(oz * OH + oy) * OW + ox``
    holds ``x[n, c, oz * sd - pd + kz * dd, ...]``, 0 in the padding (``F.unfold`` for 2-D, any rank here)."""
    r = g.rank
    st, pd, dl = g.stride[3 - r:], g.padding[3 - r:], g.dilation[3 - r:]
    xp = F.pad(x, [p for d in reversed(range(r)) for p in (pd[d], pd[d])])
    n, c = x.shape[:2]
    outs = [(x.shape[2 + d] + 2 * pd[d] - dl[d] * (ksize[d] - 1) - 1) // st[d] + 1 for d in range(r)]
    idx = []
    for d in range(r):   # [k, o] index along dim d, broadcast over the other dims' (k, o) pairs
        i = (torch.arange(ksize[d])[:, None] * dl[d] + torch.arange(outs[d])[None, :] * st[d])
        shape = [1] * (2 * r)
        shape[d], shape[r + d] = ksize[d], outs[d]
        idx.append(i.reshape(shape))
    cols = xp[(slice(None), slice(None), *idx)]      # [N, C, k..., o...]
    return cols.reshape(n, c * math.prod(ksize), math.prod(outs))


def im2col_transposed(x: torch.Tensor, ksize: tuple[int, ...], g: Geometry) -> torch.Tensor:
    """A transposed convolution's im2col matrix ``[N, C * prod(ksize), P]``: row (c, tap), column o holds
    ``x[n, c, i]`` where ``o = i * stride - padding + tap * dilation`` along each dimension (i a whole number inside
    the input), else 0; the product with the weight as ``[OC, C * prod(ksize)]`` is ``F.conv_transpose``."""
    r = g.rank
    st, pd, dl, op = g.stride[3 - r:], g.padding[3 - r:], g.dilation[3 - r:], g.output_padding[3 - r:]
    n, c = x.shape[:2]
    ins = [int(x.shape[2 + d]) for d in range(r)]
    outs = [(ins[d] - 1) * st[d] - 2 * pd[d] + dl[d] * (ksize[d] - 1) + op[d] + 1 for d in range(r)]
    xp = F.pad(x, [p for d in reversed(range(r)) for p in (0, 1)])    # index ins[d]: a zero
    idx = []
    for d in range(r):
        t = torch.arange(outs[d])[None, :] + pd[d] - torch.arange(ksize[d])[:, None] * dl[d]
        i = torch.div(t, st[d], rounding_mode="floor")
        i = torch.where((t % st[d] == 0) & (i >= 0) & (i < ins[d]), i, torch.full_like(i, ins[d]))
        shape = [1] * (2 * r)
        shape[d], shape[r + d] = ksize[d], outs[d]
        idx.append(i.reshape(shape))
    cols = xp[(slice(None), slice(None), *idx)]
    return cols.reshape(n, c * math.prod(ksize), math.prod(outs))


def rewrite(model: torch.nn.Module, ins: list) -> tuple[fx.GraphModule, list, Geometry, Any]:
    """The reference with its convolution as a matmul over a new first input ``COL`` (see the module doc), the
    inputs for it (the im2col matrices first), the convolution's geometry and the reference's own export.
    ``NotCube`` when it does not apply."""
    try:
        original = _export(model, ins)
    except AnalysisError as e:
        raise NotCube(str(e)) from None
    gm = original.module()
    nodes = list(gm.graph.nodes)
    convs = [n for n in nodes if n.op == "call_function" and _name(n)[0] == "convolution"]
    if len(convs) != 1:
        raise NotCube("not one convolution")
    conv = convs[0]
    x, w, b, stride, padding, dilation, transposed, output_padding, groups = conv.args
    rank = len(w.meta["val"].shape) - 2
    if int(groups) != 1 or rank not in (1, 2, 3):
        raise NotCube("a grouped convolution")
    user = [n for n in nodes if n.op == "placeholder"]
    if not isinstance(x, fx.Node) or x not in user or any(a is not None and a.op != "get_attr" and a not in user
                                                           for a in (w, b)):
        raise NotCube("the convolution reads computed tensors")
    xv, wv, yv = x.meta["val"], w.meta["val"], conv.meta["val"]
    if xv.dtype not in (torch.float32, torch.float16, torch.bfloat16) or wv.dtype != xv.dtype:
        raise NotCube("dtype")
    geo = Geometry(rank, _triple(stride, rank, 1), _triple(padding, rank, 0), _triple(dilation, rank, 1),
                   user.index(x), b is not None, bool(transposed), _triple(output_padding, rank, 0))
    if not geo.transposed and all(int(d) == 1 for d in wv.shape[2:]) and geo.stride == (1, 1, 1) and not any(geo.padding):
        geo = replace(geo, pointwise=True)
    n_img, oc = int(yv.shape[0]), int(yv.shape[1])
    spatial = [int(d) for d in yv.shape[2:]]
    k = int(wv.numel()) // oc
    g = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    col = g.placeholder(COL)
    wt = g.placeholder(WT) if geo.transposed else None
    for n in nodes:
        if n.op == "call_module" or (n.op == "call_function" and _name(n)[0] == "_guards_fn"):
            continue
        if n is conv:    # a 16-bit convolution sums in float and rounds once, its bias added before the rounding
            wide = (lambda v: g.call_function(aten._to_copy.default, (v,), {"dtype": torch.float32})) \
                if xv.dtype != torch.float32 else (lambda v: v)
            w2 = g.call_function(aten.view.default, (wide(env[w] if wt is None else wt), [oc, k]))
            we = g.call_function(aten.expand.default, (w2, [n_img, oc, k]))
            mm = g.call_function(aten.bmm.default, (we, wide(col)))
            y = g.call_function(aten.view.default, (mm, [n_img, oc, *spatial]))
            if b is not None:
                bv = g.call_function(aten.view.default, (wide(env[b]), [oc] + [1] * rank))
                y = g.call_function(aten.add.Tensor, (y, bv))
            if xv.dtype != torch.float32:
                y = g.call_function(aten._to_copy.default, (y,), {"dtype": xv.dtype})
            env[n] = y
            continue
        if n.op == "output":
            res = fx.node.map_arg(n.args[0], lambda a: env[a])
            g.output(res[0] if isinstance(res, (tuple, list)) and len(res) == 1 else res)   # one tensor, as returned
            break
        env[n] = g.node_copy(n, lambda a: env[a])
    gm2 = fx.GraphModule(gm, g)
    gm2.graph.eliminate_dead_code()
    gm2.recompile()
    ksize = tuple(int(d) for d in wv.shape[2:])
    with torch.no_grad():
        if not geo.transposed:
            return gm2, [im2col(ins[geo.x_index], ksize, geo), *ins], geo, original
        cols = im2col_transposed(ins[geo.x_index], ksize, geo)
        wts = torch.zeros(wv.shape[1], wv.shape[0], *ksize, dtype=wv.dtype).reshape(oc, k)   # (its shape is what counts)
    return gm2, [cols, wts, *ins], geo, original


# ---- the templates' conv parts (cubeplan renders the rest) ----------------------------------------------------

class ConvCube:
    """What the cube templates add for a convolution (``CubeParams.conv``): the host's shape code (M = OC,
    K = C * KD * KH * KW, N = OD * OH * OW per image), the im2col phase of the kernel and its tiling fields."""

    FIELDS = ("cin", "inD", "inH", "inW", "kd", "kh", "kw", "od", "oh", "ow", "unitRows", "units")
    TRANSPOSED_FIELDS = ("oc", "prepRows")

    def __init__(self, geo: Geometry, col: str, x: str, weight: str, names: dict[str, str], a: str, in_place: bool = False):
        self.geo, self.col, self.x, self.weight, self.names, self.a = geo, col, x, weight, names, a
        self.im2col = not in_place
        """False for a pointwise convolution read in place: B is the input itself as [N, C, P] (its im2col matrix is
        that), so the kernel has no im2col phase, no SyncAll and no workspace of its own."""

    @property
    def workspace_inputs(self) -> set[str]:
        """The product's operands the kernel writes to the workspace (never op inputs): the im2col matrices, and a
        transposed convolution's weight as ``[OC, K]``."""
        return {self.col, self.a} if self.geo.transposed else {self.col}

    @property
    def _fields(self) -> tuple[str, ...]:
        if not self.im2col:
            return ()
        return self.FIELDS + (self.TRANSPOSED_FIELDS if self.geo.transposed else ())

    @property
    def fields(self) -> str:
        notes = {"cin": "input channels", "inD": "input depth (1 below 3-D)", "inH": "input height (1 for 1-D)",
                 "inW": "input width", "kd": "kernel depth", "kh": "kernel height", "kw": "kernel width",
                 "od": "output depth", "oh": "output height", "ow": "output width",
                 "unitRows": "output rows of one im2col unit",
                 "units": "im2col work units: (n, c, kz, ky, oz) and a block of unitRows rows",
                 "oc": "output channels", "prepRows": "output channels of one unit rearranging the weight"}
        out = "".join(f"TILING_DATA_FIELD_DEF(uint32_t, {f});{' ' * (14 - len(f))}// {notes[f]}\n" for f in self._fields)
        if self.geo.transposed:
            out += "TILING_DATA_FIELD_DEF(uint64_t, productAAt);   // byte offset of the weight as [OC, K] in the workspace\n"
        return out

    def _shape_code(self, template: str, ins: list[str]) -> str:
        """``template`` (C++ reading the output sizes off the op's inputs) with this convolution's constants."""
        g = self.geo
        if g.transposed:   # the weight is [C, OC, k..]; the output grows by the stride
            out = "(in[d] - 1) * CONV_STRIDE[d] - 2 * CONV_PAD[d] + CONV_DIL[d] * (ks[d] - 1) + CONV_OUT_PAD[d] + 1"
            dims = ("1", "0")
        else:
            out = "(in[d] + 2 * CONV_PAD[d] - CONV_DIL[d] * (ks[d] - 1) - 1) / CONV_STRIDE[d] + 1"
            dims = ("0", "1")
        return load(template).substitute(
            x_index=ins.index(self.x), w_index=ins.index(self.weight), rank=g.rank,
            stride=", ".join(map(str, g.stride)), pad=", ".join(map(str, g.padding)), dil=", ".join(map(str, g.dilation)),
            out_pad=", ".join(map(str, g.output_padding)), out_size=out, oc_dim=dims[0], c_dim=dims[1],
            phases=g.stride[1] if g.transposed else 1, rows_read=1 if g.transposed else "CONV_STRIDE[1]",
            span="(unitRows + CONV_STRIDE[1] - 1) / CONV_STRIDE[1]" if g.transposed else "(unitRows - 1) * CONV_STRIDE[1] + 1",
            transposed_code=load("convt_weight_host.tmpl").template if g.transposed else "")

    def host(self, ins: list[str]) -> tuple[str, str, str, str, str]:
        """(shape code, used-cores code, workspace bytes added, tiling setters, UB bytes added) of the TilingFunc."""
        if not self.im2col:
            shape = load("conv_pointwise_shape.tmpl").substitute(rank=self.geo.rank, x_index=ins.index(self.x),
                                                                  w_index=ins.index(self.weight))
            return shape, "    uint32_t used = items < aiv ? items : aiv;", "", "", ""
        shape = self._shape_code("conv_mm_shape.tmpl", ins)
        used = ("    uint64_t work = items > units ? items : units;   // the im2col phase runs on every core of the launch\n"
                "    uint32_t used = static_cast<uint32_t>(work < aiv ? work : aiv);")
        values = {"cin": "xs.GetDim(1)", "inD": "in[0]", "inH": "in[1]", "inW": "in[2]", "kd": "ks[0]", "kh": "ks[1]",
                  "kw": "ks[2]", "od": "out[0]", "oh": "out[1]", "ow": "out[2]", "unitRows": "unitRows",
                  "units": "units"}
        if self.geo.transposed:
            used = used.replace("items > units ? items : units", "items > units ? items : units;\n"
                                "    work = work > prepUnits ? work : prepUnits")
            values.update(oc="M", prepRows="prepRows")
        tiling = "".join(f"    tiling.set_{f}(static_cast<uint32_t>({values[f]}));\n" for f in self._fields)
        ws = " + static_cast<size_t>(batch * K * N * xBytes)"   # the im2col matrices
        if self.geo.transposed:   # then the weight as [OC, K]
            tiling += "    tiling.set_productAAt((static_cast<uint64_t>(batch * K * N * xBytes) + 31) / 32 * 32);\n"
            ws = " + static_cast<size_t>((batch * K * N * xBytes + 31) / 32 * 32 + M * K * xBytes)"
        return shape, used, ws, tiling, " + im2colUbBytes"

    @property
    def aliases(self) -> list[str]:
        g = self.geo
        return ["using TBits = std::conditional_t<sizeof(TB) == 2, uint16_t, uint32_t>;   // im2col moves the input's bits",
                "constexpr uint32_t BLOCK_ELEMS = 32 / sizeof(TB);",
                f"constexpr int32_t STRIDE_D = {g.stride[0]}, STRIDE_H = {g.stride[1]}, STRIDE_W = {g.stride[2]};",
                f"constexpr int32_t PAD_D = {g.padding[0]}, PAD_H = {g.padding[1]}, PAD_W = {g.padding[2]};",
                f"constexpr int32_t DIL_D = {g.dilation[0]}, DIL_H = {g.dilation[1]}, DIL_W = {g.dilation[2]};",
                f"constexpr bool TRANSPOSED = {'true' if g.transposed else 'false'};   // a transposed convolution",
                f"constexpr uint32_t PHASES = {g.stride[1] if g.transposed else 1};   // tables of im2col offsets (the "
                "transposed convolution's row phases)"]

    @property
    def init_lines(self) -> list[str]:
        x = self.names[self.x]
        return [f"xBits_.SetGlobalBuffer((__gm__ TBits*){x});",
                "colBits_.SetGlobalBuffer((__gm__ TBits*)col);",
                "pipe->InitBuffer(rowQ_, BUFFER_NUM, (((td.unitRows - 1) * STRIDE_H + 1) * AlignUp(td.inW, BLOCK_ELEMS) + "
                "BLOCK_ELEMS) * sizeof(TBits));   // a unit's input rows, a zero block",
                "pipe->InitBuffer(tapQ_, BUFFER_NUM, td.kw * AlignUp(td.unitRows * td.ow, BLOCK_ELEMS) * sizeof(TBits));   "
                "// the taps' samples",
                "pipe->InitBuffer(offs_, PHASES * td.kw * AlignUp(td.unitRows * td.ow, BLOCK_ELEMS) * sizeof(uint32_t));   "
                "// their byte offsets"] + ([
                f"weightBits_.SetGlobalBuffer((__gm__ TBits*){self.names[self.weight]});",
                "productA_.SetGlobalBuffer((__gm__ TBits*)(col + td.productAAt));",
                "pipe->InitBuffer(weightQ_, 1, td.prepRows * AlignUp(td.kd * td.kh * td.kw, BLOCK_ELEMS) * sizeof(TBits));   "
                "// a unit's weight rows"] if self.geo.transposed else [])

    @property
    def a_source(self) -> str | None:
        """The GM address the product's A is read at when the kernel writes it (a transposed convolution's)."""
        return "(col + td.productAAt)" if self.geo.transposed else None

    @property
    def members(self) -> list[str]:
        out = ["GlobalTensor<TBits> xBits_;", "GlobalTensor<TBits> colBits_;", "TQue<QuePosition::VECIN, 2> rowQ_;",
               "TQue<QuePosition::VECOUT, 1> tapQ_;", "TBuf<TPosition::VECCALC> offs_;"]
        if self.geo.transposed:
            out += ["GlobalTensor<TBits> weightBits_;", "GlobalTensor<TBits> productA_;",
                    "TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> weightQ_;   // weight rows: GM -> UB -> GM"]
        return out

    @property
    def prologue(self) -> str:
        prep = "        PrepareWeight();\n" if self.geo.transposed else ""
        return (prep + "        Im2Col();\n"
                "        SyncAll();   // every image's col is in the workspace before any core's matmul reads it\n")

    def stage_shape(self, ins: list[str]) -> str:
        """A staged op's C++ helper: the convolution's result shape [N, OC, (OD,) (OH,) OW] from the op's inputs."""
        return self._shape_code("stages_conv_cube_shape.tmpl", ins)

    def methods(self, op_type: str) -> str:
        prep = load("convt_weight.tmpl").substitute(op_type=op_type) if self.geo.transposed else ""
        return load("conv_im2col.tmpl").substitute(op_type=op_type, prepare_weight=prep)


# ---- planner entry -----------------------------------------------------------------------------------------

class Prepared(NamedTuple):
    """One case read for the cube: the model, the rewritten module's inputs (im2col first), the geometry, the rewritten
    module's export and the reference's own, and the rewritten module's export with each forward float moved (None
    without forward floats)."""

    model: torch.nn.Module
    inputs: list
    geo: Geometry
    ep: Any
    original: Any
    moved: Any = None


def _prepare(task: Any, cases: list, mod: Any) -> list[Prepared] | None:
    """Each case ``Prepared`` (once per draft); None when the convolution is not the cube's or too small for it
    (``CUBE_MIN_MACS``)."""
    out, macs = [], []
    for init, ins in cases:
        try:
            case = memo.analysed(_prepare, mod, init, ins, lambda: _prepare_case(mod, init, ins), private=False)
        except (NotCube, AnalysisError) as e:
            _log.debug("%s: not on the cube: %s", task.name, e)
            return None
        out.append(case)
        conv = next(n for n in case.original.graph.nodes if n.op == "call_function" and _name(n)[0] == "convolution")
        macs.append(conv.meta["val"].numel() * int(case.inputs[0].shape[1]))   # N * OC * P outputs, K products each
    return out if max(macs) >= CUBE_MIN_MACS else None


def _prepare_case(mod: Any, init: Any, ins: Any) -> Prepared:
    model = mod.Model(*copy.deepcopy(init))
    gm, ins2, geo, original = rewrite(model, list(ins))
    moved = None
    if any(isinstance(v, float) for v in ins):   # forward floats: the rewrite of the export with each one moved
        try:                                     # shows which constants they are (the cube reads them as attrs)
            gm_moved, ins_moved, _, _ = rewrite(mod.Model(*copy.deepcopy(init)), moved_floats(list(ins)))
            moved = _export(gm_moved, ins_moved)
        except (NotCube, AnalysisError):
            pass                                 # (analyse_cube then reads every number as a constant)
    return Prepared(model, ins2, geo, _export(gm, ins2), original, moved)


def plan_conv_cube(task: Any, cases: list, mod: Any, op_type: str, plan_cls: Any, after: int | None = None,
                   prepared: list[Prepared] | None = None) -> Any:
    """A ``plan_cls`` for a convolution the cube takes with its epilogue, else None (the vector conv template and the
    staged planner take it then). ``after``: a staged op's first stage, the convolution and that many ops after it
    (its ``params.extra["last"]`` names the original export's node it ends at); ``prepared``: ``_prepare``'s."""
    ready = prepared if prepared is not None else _prepare(task, cases, mod)
    if ready is None:
        return None
    cgs, geos, last = [], [], ""
    for (init, ins), (model, ins2, geo, ep, original, moved) in zip(cases, ready):
        try:
            stop = None
            if after is not None:
                stop, last = _stop(ep, original, geo, after)
            cg = analyse_cube(model, ins2, list(init), stop=stop, ep=ep, shaped=False, moved=moved)
        except (NotCube, AnalysisError) as e:
            _log.debug("%s: not on the cube: %s", task.name, e)
            return None
        cg.cols_rank = geo.rank
        cgs.append(cg)
        geos.append(geo)
        items = module_tensor_items(model, list(init))   # (builds a second model: once per case)
        names = [re.sub(r"\W", "_", fqn) for fqn, _ in items]
        _keep_module_tensors(cg, model, items)
        held = [n.name for n in cg.graph.inputs[1:] if n.name.startswith(("p_", "b_"))]
        if [h[2:] for h in held] != names[:len(held)] or len(held) != len(names):
            return None            # the module's tensors in another order than the harness passes them
    held_inputs = {n.name for n in cgs[0].graph.inputs}
    # inputs: the product, col (, a transposed convolution's rearranged weight), then the forward's
    x_node = cgs[0].graph.inputs[2 + int(geos[0].transposed) + geos[0].x_index]
    weight = cgs[0].a.name
    if geos[0].transposed:     # the product's A is the weight as [OC, K], which the kernel writes; the op takes it as it is
        if weight not in (WT, WT.lower()):
            return None
        weight = _weight_node(ready[0].original).name
    if any(g != geos[0] for g in geos[1:]) or cgs[0].b.name not in (COL, COL.lower()) or weight not in held_inputs:
        return None              # (a weight of one value throughout is a number to the cube's reader, not an operand)
    try:
        consistent(cgs)
        ops = [n.op for n in cgs[0].graph.nodes if n.op not in ("identity", "view")]
        wide = int(x_node.dtype != "float32")      # a 16-bit convolution's bias widened, its sum rounded once
        ops = ops[int(geos[0].bias) * (1 + wide) + wide:]   # the convolution's own ops: not its epilogue
        kind = "conv_transpose" if geos[0].transposed else "convolution"
        in_place = geos[0].pointwise and after is None   # (a staged first stage keeps its im2col workspace)
        how = "1 x 1: its input read in place as the matrix of a matmul on the cube" if in_place else "im2col + matmul on the cube"
        summary = f"ops: {kind}{geos[0].rank}d ({how})" + "".join(f" -> {o}" for o in ops)
        cp = CubeParams(op_type, summary, cgs)
    except CubeUnsupported as e:
        _log.debug("%s: not on the cube: %s", task.name, e)
        return None
    if cp.row or cp.integer or cgs[0].triangle is not None:
        return None
    cp.direct = False                # the im2col phase lives in the epilogue kernel's template
    for name, arg in list(cp.names.items()):   # a module's weights named as the conv template names them
        if name.startswith(("p_", "b_")) and arg == name and name[2:] not in cp.names.values() and name[2:] not in RESERVED:
            cp.names[name] = name[2:]
    x = x_node.name
    cp.conv = ConvCube(geos[0], cgs[0].b.name, x, weight, cp.names, cgs[0].a.name, in_place)
    if cp.conv.x not in cp.names or cp.names[cp.conv.x] == cp.names.get(cp.conv.col):
        return None
    if in_place:   # B is read at x's address
        cp.names[cp.conv.col] = cp.names[cp.conv.x]
    kp = cp.kernel_params()
    if after is not None:   # a first stage: where it ends, its input x, and the C++ of its result's shape
        ins = cp.op_inputs()
        kp.extra.update(last=last, x=cp.names[x], shape_helper=cp.conv.stage_shape(ins), shape_call=STAGE_SHAPE_CALL)
    why_not = convigemm.applies(cp, geos[0], [_conv_shapes(r.original) for r in ready])
    if not why_not:   # the implicit GEMM: no im2col matrix in GM
        cp.summary = summary.replace(f"({how})", "(implicit GEMM on the cube: 5HD input rows in L1, 2-D LoadData)")
        kp.summary, kp.template = cp.summary, "conv_igemm"
    else:
        _log.debug("%s: im2col, not the implicit GEMM: %s", task.name, why_not)
    pl = plan_cls(task=task, op_type=op_type, category="convolution", template=kp.template, params=kp,
                  graphs=[cg.graph for cg in cgs])
    pl.files = render(cp) if why_not else convigemm.render(cp, geos[0])
    pl.case_meta = [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in cg.graph.inputs[1:]
                                if n.name not in cp.conv.workspace_inputs],
                     "args": [a.kwargs["value"] for a in cg.graph.attrs], "init": cg.graph.init,
                     # the forward's own tensors lead (the rewritten module's graph counts col and the product too)
                     "forward": sum(isinstance(t, torch.Tensor) for t in ins)} for cg, (_, ins) in zip(cgs, cases)]
    return pl


def _conv_shapes(original: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The convolution's input and weight shapes in the reference's export."""
    conv = next(n for n in original.graph.nodes if n.op == "call_function" and _name(n)[0] == "convolution")
    return tuple(int(d) for d in conv.args[0].meta["val"].shape), tuple(int(d) for d in conv.args[1].meta["val"].shape)


def _weight_node(original: Any) -> fx.Node:
    conv = next(n for n in original.graph.nodes if n.op == "call_function" and _name(n)[0] == "convolution")
    return conv.args[1]


def _keep_module_tensors(cg: Any, model: torch.nn.Module, items: list[tuple[str, torch.Tensor]]) -> None:
    """The harness passes every module tensor (``module_tensor_items``) to the op, also one the product does not
    read: a transposed convolution's weight (the product reads ``WT``, its rearranged copy the kernel writes from
    it), or a parameter the forward never uses (MultiKernelBench's unused ``bias``). Each one the export left out is
    put back among the graph's module tensors, in the harness's order."""
    params = {fqn for fqn, _ in model.named_parameters()}
    held = {n.name: n for n in cg.graph.inputs if n.name.startswith(("p_", "b_"))}
    module = []
    for fqn, t in items:
        name = ("p_" if fqn in params else "b_") + re.sub(r"\W", "_", fqn)
        module.append(held.pop(name, None) or OpNode(name, "input", [], {}, tuple(int(d) for d in t.shape),
                                                      str(t.dtype).replace("torch.", "")))
    if held:
        return         # a module tensor the harness does not pass (the caller's order check refuses it)
    cg.graph.inputs[:] = [n for n in cg.graph.inputs if not n.name.startswith(("p_", "b_"))] + module


STAGE_SHAPE_CALL = "        if (!ConvCubeShape(context, dims)) return ge::GRAPH_FAILED;"


def _later(ep: Any, start: fx.Node) -> list[fx.Node]:
    """The computing ops after ``start`` (not views; not a batch norm's statistics update)."""
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    live = live_nodes(ep)
    return [n for n in calls[calls.index(start) + 1:] if _name(n)[0] not in CHAIN and n.name in live]


def _stop(ep: Any, original: Any, geo: Geometry, after: int) -> tuple[str, str]:
    """(the rewritten export's node a first stage of the convolution and ``after`` ops ends at, the original export's
    node of the same value): the convolution's replacement ends ``view`` (+ the bias ``add``) (+ the 16-bit cast)
    after its ``bmm``; the ops after it are the original's after the convolution, in the same order."""
    mm = next(n for n in ep.graph.nodes if n.op == "call_function" and _name(n)[0] == "bmm")
    end = mm
    widened = mm.args[1].op != "placeholder"     # a 16-bit convolution's im2col operand, cast to float
    for _ in range(1 + int(geo.bias) + int(widened)):
        users = list(end.users)
        if len(users) != 1:
            raise NotCube("the convolution's replacement has another form")
        end = users[0]
    conv = next(n for n in original.graph.nodes if n.op == "call_function" and _name(n)[0] == "convolution")
    ours, theirs = _later(ep, end), _later(original, conv)
    if after > min(len(ours), len(theirs)) or [_name(n)[0] for n in ours[:after]] != [_name(n)[0] for n in theirs[:after]]:
        raise NotCube("the ops after the convolution differ after the rewrite")
    return (ours[after - 1] if after else end).name, (theirs[after - 1] if after else conv).name


def plan_first_stage(task: Any, cases: list, mod: Any, op_type: str, plan_type: Any, unsupported_type: Any,
                     prefix: bool | int = True) -> Any:
    """The staged op's first stage on the cube (``stages.plan_staged``'s ``conv_planner``): the convolution and the
    longest elementwise epilogue the cube takes after it (``prefix`` True), or the convolution alone (``prefix`` 0);
    None when the cube does not take the convolution."""
    ready = _prepare(task, cases, mod)
    best = plan_conv_cube(task, cases, mod, op_type, plan_type, after=0, prepared=ready) if ready else None
    if best is None or prefix is not True:
        return best
    for after in range(1, 16):
        pl = plan_conv_cube(task, cases, mod, op_type, plan_type, after=after, prepared=ready)
        if pl is None:
            break
        best = pl
    return best
