"""Nearest-neighbour resize (``F.interpolate(mode="nearest")``, ``nn.Upsample``) over the last 1 or 2 dimensions
onto the ``resize`` template, and bilinear / bicubic / trilinear resize (``mode="bilinear"`` / ``"bicubic"`` /
``"trilinear"``, either ``align_corners``) of the last 2 / 3 onto the ``resize_linear`` template (bicubic: four taps
per axis with PyTorch's cubic convolution weights, A = -0.75, the taps clamped into the input), by a scale factor or to
a size, up or down.

Core ATen keeps the op whole (``upsample_nearest1d.vec`` / ``upsample_nearest2d.vec`` with an output size or
scale factors; ``upsample_bilinear2d.vec`` with align_corners between them). The host computes the output size (floor(input x factor)) and the source-index scale as PyTorch
does (1 / factor when a factor was given, else input / output, in float); the kernel picks each output row's
source row and gathers its columns.
"""
from __future__ import annotations

import warnings
from typing import Any

import torch

from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import decompositions
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import Beside, OwnPlan, case_meta, opdef_params, read_cases
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

NEAREST = {"upsample_nearest1d": 1, "upsample_nearest2d": 2}
LINEAR = {"upsample_bilinear2d": 2, "upsample_trilinear3d": 3, "upsample_bicubic2d": 2}
TAPS = {"upsample_bicubic2d": 4}
"""Source elements an output element blends per axis where not 2."""
UB_LIMIT = 180 * 1024     # the linear host's limit (resize_linear_host.cpp.tmpl UbBytes), checked here to refuse early
CATEGORY = "resize"
VIEWS = {"view", "reshape", "_unsafe_view", "clone", "alias", "contiguous"}
DTYPES = ("float32", "float16", "bfloat16")


def _base(n: torch.fx.Node) -> str:
    return n.target.__name__.split(".")[0] if hasattr(n.target, "_schema") else getattr(n.target, "__name__", str(n.target))


def _export(model: Any, ins: list) -> torch.export.ExportedProgram:
    """torch.export with the canonical table minus the resize decompositions (the 1-D nearest resize would
    become arange/index arithmetic)."""
    table = {k: v for k, v in decompositions().items() if "upsample" not in str(k)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch.export.export(model, tuple(ins), strict=False).run_decompositions(table)
    except Exception as e:
        raise AnalysisError(f"the reference cannot be exported by torch.export ({type(e).__name__}: "
                            f"{str(e).strip().splitlines()[0][:160]})") from e


def read_graph(model: Any, ins: list) -> dict | None:
    """Spatial rank, output size or scale factors and the dtype of a reference that is one nearest resize of one
    input; None when the exported graph holds no resize."""
    ep = _export(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    resizes = [n for n in calls if _base(n).startswith("upsample") or _base(n).startswith("_upsample")]
    if not resizes:
        return None
    node = resizes[0]
    xv = node.args[0].meta["val"]
    shape = list(xv.shape)
    if _base(node) not in {**NEAREST, **LINEAR} or not str(node.target).endswith(".vec"):
        raise AnalysisError(f"core op aten.{_base(node)} (input of shape {shape}) is not covered by the resize templates "
                            f"(nearest, bilinear, bicubic and trilinear only)")
    for n in calls:
        if n is not node and _base(n) not in VIEWS:
            raise Beside(f"core op aten.{_base(n)} beside a resize is not covered by the resize template "
                                f"(input of shape {shape})")
    users = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    if users != [node.args[0]] or str(xv.dtype).replace("torch.", "") not in DTYPES:
        raise AnalysisError(f"a resize of {len(users)} inputs or of dtype {xv.dtype} (input of shape {shape}) is not "
                            f"covered by the resize template")
    linear = _base(node) in LINEAR
    spatial = (LINEAR if linear else NEAREST)[_base(node)]
    at = 3 if linear else 2   # upsample_bilinear/bicubic/trilinear.vec(input, output_size, align_corners, scale_factors)
    size, factors = (list(node.args[1]) if len(node.args) > 1 and node.args[1] else None,
                     list(node.args[at]) if len(node.args) > at and node.args[at] else None)
    out = _shape(node)
    taps = TAPS.get(_base(node), 2)
    if linear and _ub_bytes(shape[-1], out[-1], taps if spatial == 2 else 4, taps) > UB_LIMIT:
        raise AnalysisError(f"a linear resize of rows {shape[-1]} -> {out[-1]} wide (input of shape {shape}) does not "
                            f"fit the resize_linear template's UB (two source rows and one output row at a time)")
    return {"spatial": spatial, "size": size, "factors": factors, "dtype": str(xv.dtype).replace("torch.", ""),
            "shape": shape, "taps": taps if linear else 1,
            "mode": ("bicubic" if taps == 4 else "bilinear" if spatial == 2 else "trilinear") if linear else "nearest",
            "align_corners": bool(node.args[2]) if linear else False}


def _shape(n: torch.fx.Node) -> list[int]:
    return list(n.meta["val"].shape)


def _ub_bytes(in_w: int, out_w: int, rows: int, taps: int = 2) -> int:
    """UB bytes of the linear kernel blending ``rows`` source rows in_w -> out_w wide, ``taps`` per axis (4-byte
    worst case; resize_linear_host UbBytes)."""
    row, out = -(-in_w // 16) * 16, -(-out_w // 16) * 16
    return 2 * rows * row * 4 + rows * row * 4 + 2 * out * 4 + (rows + 1) * out * 4 + 2 * taps * out * 4


def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    x, y = kp.inputs[0], kp.outputs[0]
    linear = e["mode"] != "nearest"
    family = "resize_linear" if linear else "resize"
    dims = 3 if linear else 2   # the linear host takes [depth, height, width], the nearest one [height, width]
    pad = dims - e["spatial"]
    size = [0] * pad + [int(v) for v in e["size"]] if e["size"] else [0] * dims
    factors = [0.0] * pad + [float(v) for v in e["factors"]] if e["factors"] else [0.0] * dims
    kernel = load(f"{family}_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", in_macro=x.name.upper(), kernel_name=snake,
        in_name=x.name, out_name=y.name, wait_pipe=load("wait_pipe.tmpl").template.rstrip("\n"),
        volume="true" if e["spatial"] == 3 else "false", taps=e.get("taps", 2))
    params = opdef_params([x], [y])
    host = load(f"{family}_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, params=params, spatial=e["spatial"],
        output_size=", ".join(str(v) for v in size), scale_factor=", ".join(repr(v) for v in factors),
        align_corners="true" if e["align_corners"] else "false", taps=e.get("taps", 2))
    tiling = load(f"{family}_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def plan_resize(cases: list, mod: Any, op_type: str) -> OwnPlan | None:
    """The plan (or refusal) for a reference that resizes; None when it does not."""
    read = read_cases(cases, mod, read_graph, CATEGORY)
    if not isinstance(read, list):
        return read
    if len({(r["mode"], r["align_corners"], r["spatial"], repr(r["size"]), repr(r["factors"])) for r in read}) > 1:
        return OwnPlan(CATEGORY, "the shape cases resize to different sizes or by different factors (one kernel must "
                                 "serve every case)")
    combos = list(dict.fromkeys(r["dtype"] for r in read))
    r0 = read[0]
    how = f"to {r0['size']}" if r0["size"] else f"by {r0['factors']}"
    template = "resize" if r0["mode"] == "nearest" else "resize_linear"
    corners = " (align_corners)" if r0["align_corners"] else ""
    kp = KernelParams(op_type=op_type, template=template, inputs=[TensorParam("x", InputKind.FULL, combos)],
                      outputs=[TensorParam("y", OutputKind.COL, combos)],
                      summary=f"ops: {r0['mode']} resize{corners} of the last {r0['spatial']} dimension(s) {how}",
                      extra=dict(r0))
    graphs = [OpGraph(inputs=[OpNode("x", "input", [], {}, tuple(r["shape"]), r["dtype"])], init=list(init))
              for r, (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template=template, params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
