"""A modelled PyTorch-eager baseline: the reference as a chain of separate kernels.

``record_ops(fn, *args)`` runs the reference once on the CPU under a ``TorchDispatchMode`` and lists
every aten operator it dispatches with its tensors (elements, element size), the bytes it reads and
writes and a flop count. In eager mode on an NPU each such operator is its own kernel: it pays the
launch overhead, moves its inputs from GM and its outputs to GM, and does its vector work.
``op_time_us`` prices a vector operator as the double-buffered library kernel it would be
(``eager_kernel.py``: its trace through the same event-driven model and cost table as a drafted
kernel; the vector work per element and the compute dtype from ``eager_ops.py``); a cube operator
(matmul family) at max(its bytes at the chip's bandwidth, its flops at the cube peak). So
``PerfReport.speedup_vs_eager`` is a modelled speedup in MultiKernelBench's sense.

The roofline of the task uses the same record: the reference's unique inputs read once and its
outputs written once (bytes), and the sum of the operators' flops, each divided by its peak.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from bench_bridge.perf.costs import CostTable, load
from bench_bridge.perf.eager_kernel import Stream
from bench_bridge.perf.eager_kernel import op_time_us as _library_kernel_us
from bench_bridge.perf.eager_ops import recipe

# Operators that only allocate or describe memory: no kernel runs for them.
_FREE = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "detach", "alias", "lift_fresh",
         "_to_copy_noop", "resolve_conj", "resolve_neg", "_unsafe_view", "view", "_reshape_alias", "set_", "sym_size",
         "sym_numel", "sym_stride", "is_same_size", "_local_scalar_dense"}
_MATMUL = {"mm", "bmm", "addmm", "baddbmm", "matmul", "linear", "addbmm"}
_CUBE_RATE = {"float32": 0.5}
"""The cube's rate per dtype relative to the fp16 peak (``cube_flops_per_cycle``): one 16 x 16 x (32 bytes of K)
fractal product per cycle (``cube_fractal_cycles``, as the emulator counts a drafted kernel's Mmad repeats),
so an fp32 product (K = 8 per fractal) runs at half the fp16 rate."""


@dataclass
class EagerOp:
    name: str
    read_bytes: int
    write_bytes: int
    flops: float
    cube: bool = False        # runs on the cube unit (matmul family)
    dtype: str = ""           # floating dtype of its data ("float16", "bfloat16", "float32"; "" none)
    ins: list = field(default_factory=list)    # [elements, bytes per element] of each unique input tensor
    outs: list = field(default_factory=list)   # the same of each output tensor
    row: int = 0              # elements of the dimension it reduces or normalises (0: not a row-wise op)

    @property
    def bytes(self) -> int:
        return self.read_bytes + self.write_bytes


@dataclass
class EagerBaseline:
    ops: list[EagerOp]
    time_us: float
    input_bytes: int                     # unique input tensors of the reference
    output_bytes: int                    # its outputs
    flops: float
    roofline_us: float
    roofline_basis: str
    per_op_us: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"time_us": self.time_us, "kernels": len(self.ops), "input_bytes": self.input_bytes,
                "output_bytes": self.output_bytes, "flops": self.flops, "roofline_us": self.roofline_us,
                "roofline_basis": self.roofline_basis,
                "ops": [{"op": o.name, "read_bytes": o.read_bytes, "write_bytes": o.write_bytes, "flops": o.flops,
                         "us": t} for o, t in zip(self.ops, self.per_op_us)]}


def tensors_in(x) -> list:
    import torch  # optional: torch (only the reference worker, which has it, records eager ops)

    out = []
    if isinstance(x, torch.Tensor):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for y in x:
            out += tensors_in(y)
    elif isinstance(x, dict):
        for y in x.values():
            out += tensors_in(y)
    return out


def nbytes(t) -> int:
    return int(t.numel()) * t.element_size()


def _flops(name: str, args, outs) -> tuple[float, bool]:
    if name in _MATMUL:
        ts = tensors_in(args)
        mats = [t for t in ts if t.dim() >= 2]
        if len(mats) >= 2 and outs:
            a, b = mats[-2], mats[-1]
            k = a.shape[-1]
            return 2.0 * outs[0].numel() * k, True
    if name.startswith("convolution") or name == "conv2d":
        ts = tensors_in(args)
        if len(ts) >= 2 and outs:
            w = ts[1]
            return 2.0 * outs[0].numel() * (w.numel() / max(1, w.shape[0])), True
    n_in = max([t.numel() for t in tensors_in(args)] + [0])
    n_out = sum(t.numel() for t in outs)
    return float(max(n_in, n_out)), False


def _float_dtype(tensors: list) -> str:
    """The op's data dtype: its narrowest floating tensor's (a cast's 16-bit side decides)."""
    names = [str(t.dtype).replace("torch.", "") for t in tensors if t.is_floating_point()]
    for n in ("bfloat16", "float16", "float32"):
        if n in names:
            return n
    return names[0] if names else ""


_DIM_ARG = {"_softmax", "_log_softmax", "cumsum", "cumprod"}                         # (self, dim, ...)
_SHAPE_ARG = {"native_layer_norm", "_fused_rms_norm"}                               # (self, normalized_shape, ...)
_REDUCING = {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "logsumexp",
             "linalg_vector_norm", "norm", "var", "std", "var_mean", "std_mean"}


def _row_len(name: str, a: tuple, ins: list, outs: list) -> int:
    """Length of the dimension a row-wise op reduces or normalises (0 when it is not one)."""
    if not ins or not ins[0].dim():
        return 0
    x = ins[0]
    if name in _DIM_ARG and len(a) > 1 and isinstance(a[1], int):
        return int(x.shape[a[1]])
    if name in _SHAPE_ARG and len(a) > 1 and isinstance(a[1], (list, tuple)):
        n = 1
        for d in a[1]:
            n *= int(d)
        return n
    if name in _REDUCING and outs and 0 < outs[0].numel() < x.numel():
        dims = a[1] if len(a) > 1 else None
        dims = [dims] if isinstance(dims, int) else list(dims) if isinstance(dims, (list, tuple)) else []
        if [d % x.dim() for d in dims] == [x.dim() - 1]:     # the last dimension: per-row results
            return int(x.shape[-1])
    return 0


def _attention_as_kernels(a: tuple, kw: dict) -> list[EagerOp]:
    """A fused scaled-dot-product-attention call (the CPU's ``_scaled_dot_product_flash_attention_for_cpu``)
    priced as eager mode on the NPU is modelled here: separate kernels for q k^T (cube), the scale, the mask
    (causal or given), the row softmax and P v (cube), each moving its tensors through GM."""
    q, k, v = a[0], a[1], a[2]
    lead = [int(d) for d in q.shape[:-2]]
    sq, d, sk, dv = int(q.shape[-2]), int(q.shape[-1]), int(k.shape[-2]), int(v.shape[-1])
    n_s = sq * sk
    for x in lead:
        n_s *= x
    n_o = n_s // sk * dv
    es = q.element_size()
    dt = _float_dtype([q])
    s_t, o_t = [n_s, es], [n_o, es]
    causal = bool(a[4]) if len(a) > 4 and isinstance(a[4], bool) else bool(kw.get("is_causal", False))
    masked = causal or tensors_in(kw.get("attn_mask")) != []
    ops = [EagerOp("bmm", nbytes(q) + nbytes(k), n_s * es, 2.0 * n_s * d, True, dt, [[int(q.numel()), es], [int(k.numel()), es]],
                   [s_t]),
           EagerOp("mul", n_s * es, n_s * es, float(n_s), False, dt, [s_t], [s_t])]
    if masked:
        ops.append(EagerOp("add", n_s * es, n_s * es, float(n_s), False, dt, [s_t], [s_t]))
    ops += [EagerOp("_softmax", n_s * es, n_s * es, float(n_s), False, dt, [s_t], [s_t], sk),
            EagerOp("bmm", n_s * es + nbytes(v), n_o * es, 2.0 * n_o * sk, True, dt, [s_t, [int(v.numel()), es]], [o_t])]
    return ops


def record_ops(fn: Callable, *args, **kwargs) -> tuple[list[EagerOp], Any]:
    """Run ``fn(*args, **kwargs)`` once and list the kernels eager mode would launch."""
    import torch  # optional: torch (only the reference worker, which has it, records eager ops)
    from torch.utils._python_dispatch import TorchDispatchMode  # optional: torch

    ops: list[EagerOp] = []

    class _Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, a=(), kw=None):
            kw = kw or {}
            res = func(*a, **kw)
            name = func.overloadpacket.__name__.rstrip("_") if hasattr(func, "overloadpacket") else str(func)
            if getattr(func, "is_view", False) or name in _FREE:
                return res
            if name.startswith("_scaled_dot_product") and len(a) >= 3:
                ops.extend(_attention_as_kernels(a, kw))     # math-path kernels, as eager runs them on the NPU
                return res
            if name == "gelu" and kw.get("approximate") == "tanh":
                name = "gelu_tanh"          # a different kernel recipe (eager_ops)
            outs = tensors_in(res)
            ins, seen = [], set()
            for t in tensors_in(a) + tensors_in(kw):
                key = (t.data_ptr(), t.numel(), t.dtype)
                if key not in seen:
                    seen.add(key)
                    ins.append(t)
            fl, cube = _flops(name, (a, kw), outs)
            ops.append(EagerOp(name, sum(nbytes(t) for t in ins), sum(nbytes(t) for t in outs), fl, cube,
                               _float_dtype(ins + outs), [[int(t.numel()), t.element_size()] for t in ins],
                               [[int(t.numel()), t.element_size()] for t in outs], _row_len(name, a, ins, outs)))
            return res

    with torch.no_grad(), _Recorder():
        result = fn(*args, **kwargs)
    return ops, result


def op_time_us(op: EagerOp, costs: CostTable) -> float:
    """One eager kernel. A vector operator: its library kernel modelled like a drafted kernel
    (``eager_kernel``). A cube operator (or one recorded without its tensors, by an older kgen):
    launch overhead + max(GM traffic at the chip's bandwidth, flops at peak) + start-up."""
    if not op.cube and (op.ins or op.outs):
        r = recipe(op.name, op.dtype, [int(s) for _, s in op.ins], [int(s) for _, s in op.outs])
        return _library_kernel_us([Stream(int(n), int(s)) for n, s in op.ins],
                                  [Stream(int(n), int(s)) for n, s in op.outs], r, costs, op.row)
    mem_bw = min(costs.peak_gm_bytes_per_s, costs.vector_cores * costs.mte2_gm_bytes_per_cycle * costs.clock_hz)
    mem_s = op.bytes / mem_bw
    peak = costs.peak_cube_flops * _CUBE_RATE.get(op.dtype, 1.0) if op.cube else costs.peak_vector_flops
    comp_s = op.flops / peak
    startup_s = (costs.block_start_cycles + 2 * (costs.mte_latency_cycles + costs.mte_issue_cycles)) / costs.clock_hz
    return costs.launch_overhead_us + (max(mem_s, comp_s) + startup_s) * 1e6


def baseline(fn: Callable, *args, costs: CostTable | None = None, soc: str | None = None, **kwargs) -> EagerBaseline:
    """Record ``fn`` and price it as an eager chain and as a roofline."""
    costs = costs or load(soc)
    ops, result = record_ops(fn, *args, **kwargs)
    seen, in_bytes = set(), 0
    for t in tensors_in(args) + tensors_in(kwargs):
        key = (t.data_ptr(), t.numel(), t.dtype)
        if key not in seen:
            seen.add(key)
            in_bytes += nbytes(t)
    out_bytes = sum(nbytes(t) for t in tensors_in(result))
    return from_ops(ops, in_bytes, out_bytes, costs)


def from_ops(ops: list[EagerOp], input_bytes: int, output_bytes: int, costs: CostTable) -> EagerBaseline:
    per = [op_time_us(o, costs) for o in ops]
    flops = sum(o.flops for o in ops)
    cube_flops = sum(o.flops for o in ops if o.cube)
    mem_us = (input_bytes + output_bytes) / costs.peak_gm_bytes_per_s * 1e6
    comp_us = (cube_flops / costs.peak_cube_flops + (flops - cube_flops) / costs.peak_vector_flops) * 1e6
    if comp_us > mem_us:
        roof, basis = comp_us, f"{flops:.3g} flop of the reference at peak compute"
    else:
        roof, basis = mem_us, f"{input_bytes + output_bytes} bytes of the reference's inputs+outputs at {costs.hbm_gbps:.0f} GB/s"
    return EagerBaseline(ops, sum(per), input_bytes, output_bytes, flops, roof, basis, per)
