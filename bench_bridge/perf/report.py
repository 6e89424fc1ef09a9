"""What the performance model tells the user: ``PerfReport`` (JSON-able, and as text)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bench_bridge.perf import lines
from bench_bridge.perf.costs import CostTable
from bench_bridge.perf.model import WORK_PIPES, LaunchResult

PIPE_LABEL = {"MTE2": "MTE2 (GM->UB copies)", "MTE3": "MTE3 (UB->GM copies)", "V": "V (vector unit)",
              "S": "S (scalar issue)", "M": "M (cube unit)", "MTE1": "MTE1 (L1->L0 copies)", "FIX": "FIX (L0C->out)"}


@dataclass
class LaunchPerf:
    kernel: str
    launch: int
    blocks: int
    active_cores: int
    waves: int
    time_us: float
    makespan_us: float
    pipe_busy: dict[str, float]
    bound: str
    gm_read_bytes: int
    gm_write_bytes: int


@dataclass
class PerfReport:
    soc: str
    modelled_us: float                       # all launches, launch overheads included
    launch_overhead_us: float                # the part of modelled_us spent launching
    pipe_busy: dict[str, float]              # pipe -> busy fraction of the cores' block time
    bound: str                               # the pipe / resource that bounds the kernel
    execution_bound: str                     # the same, ignoring the launch overhead (what bounds the cores)
    gm_read_bytes: int
    gm_write_bytes: int
    achieved_gbps: float                     # (read + write) / modelled time
    peak_gbps: float                         # HBM bandwidth of the SoC
    vector_elem_ops: float = 0.0             # element operations the kernel ran on the vector unit
    peak_vector_gops: float = 0.0            # all vector cores, fp16 elements per second / 1e9
    launches: list[LaunchPerf] = field(default_factory=list)
    roofline_us: float | None = None         # reference bytes (or flops) / peak, no launch overhead
    roofline_basis: str = ""
    eager_us: float | None = None            # modelled PyTorch-eager chain of the reference
    eager_ops: int | None = None
    measured_us: float | None = None         # on the npu backend: the measured kernel time
    notes: list[str] = field(default_factory=list)
    hot_lines: list[dict] = field(default_factory=list)   # lines.HotLine dicts, most time first: they add up to modelled_us

    @property
    def time_us(self) -> float:
        """Measured time when there is one, else the modelled time."""
        return self.measured_us if self.measured_us is not None else self.modelled_us

    @property
    def gm_bytes(self) -> int:
        return self.gm_read_bytes + self.gm_write_bytes

    @property
    def roofline_fraction(self) -> float | None:
        """Roofline time / kernel time (1.0 = at the roofline)."""
        if self.roofline_us is None or self.time_us <= 0:
            return None
        return self.roofline_us / self.time_us

    @property
    def speedup_vs_eager(self) -> float | None:
        if self.eager_us is None or self.time_us <= 0:
            return None
        return self.eager_us / self.time_us

    def with_reference(self, eager) -> "PerfReport":
        """Attach an ``eager.EagerBaseline``: roofline of the task and the modelled eager time."""
        self.eager_us = eager.time_us
        self.eager_ops = len(eager.ops)
        self.roofline_us, self.roofline_basis = eager.roofline_us, eager.roofline_basis
        return self

    def with_measured(self, us: float | None) -> "PerfReport":
        self.measured_us = us
        return self

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(time_us=self.time_us, source="measured" if self.measured_us is not None else "modelled",
                 gm_bytes=self.gm_bytes, roofline_fraction=self.roofline_fraction,
                 speedup_vs_eager=self.speedup_vs_eager)
        return d

    def render_text(self) -> str:
        out = [f"performance ({'measured on NPU, model alongside' if self.measured_us is not None else 'modelled'}, "
               f"SoC {self.soc})"]
        if self.measured_us is not None:
            out.append(f"  measured kernel time   {self.measured_us:10.2f} us")
        out.append(f"  modelled kernel time   {self.modelled_us:10.2f} us  (launch overhead {self.launch_overhead_us:.2f} us)")
        out.append(f"  bound by               {self.bound}")
        if self.execution_bound != self.bound:
            out.append(f"  cores bound by         {self.execution_bound}")
        busy = ", ".join(f"{p} {f * 100:.0f}%" for p, f in sorted(self.pipe_busy.items(), key=lambda kv: -kv[1]) if f > 0.005)
        out.append(f"  pipe busy              {busy or '-'}")
        out.append(f"  GM bytes moved         {_bytes(self.gm_read_bytes)} read, {_bytes(self.gm_write_bytes)} written")
        out.append(f"  GM bandwidth           {self.achieved_gbps:.1f} GB/s achieved of {self.peak_gbps:.0f} GB/s peak "
                   f"({self.achieved_gbps / self.peak_gbps * 100 if self.peak_gbps else 0:.1f}%)")
        if self.roofline_us is not None:
            frac = self.roofline_fraction or 0.0
            out.append(f"  roofline bound         {self.roofline_us:10.2f} us ({self.roofline_basis}); kernel at "
                       f"{frac * 100:.1f}% of it ({1 / frac if frac else float('inf'):.1f}x away)")
        if self.eager_us is not None:
            out.append(f"  PyTorch eager (model)  {self.eager_us:10.2f} us over {self.eager_ops} kernel(s); "
                       f"speedup {self.speedup_vs_eager:.2f}x")
        for ln in self.launches if len(self.launches) > 1 else []:
            out.append(f"  launch {ln.launch} {ln.kernel}: {ln.time_us:.2f} us, {ln.blocks} blocks, bound by {ln.bound}")
        out += [f"  note: {n}" for n in self.notes]
        out += lines.render([lines.HotLine(**h) for h in self.hot_lines])
        return "\n".join(out)


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return str(n)


def pipe_busy(res: LaunchResult) -> dict[str, float]:
    total = sum(b.duration for b in res.blocks)
    if total <= 0:
        return {}
    pipes = ("S",) + WORK_PIPES
    return {p: sum(b.busy.get(p, 0.0) for b in res.blocks) / total for p in pipes
            if any(b.busy.get(p, 0.0) for b in res.blocks)}


def bound_of(res: LaunchResult, busy: dict[str, float], launch: bool = True) -> str:
    if launch and res.time_us > 0 and res.launch_overhead_us > 0.5 * res.time_us:
        return "launch overhead (the kernel's work is shorter than launching it)"
    if not busy:
        return "nothing traced"
    top = max(busy, key=busy.get)
    if busy[top] < 0.5:
        return f"{PIPE_LABEL.get(top, top)}, latency-bound (no pipe busy more than half the time: waits on copies/dependencies)"
    if top in ("MTE2", "MTE3") and res.gm_limited:
        return f"GM bandwidth (HBM shared by {res.active_cores} cores; {PIPE_LABEL[top]} busiest)"
    return PIPE_LABEL.get(top, top)


def build_report(results: list[LaunchResult], costs: CostTable) -> PerfReport:
    launches = []
    for r in results:
        busy = pipe_busy(r)
        launches.append(LaunchPerf(r.kernel, r.launch, len(r.blocks), r.active_cores, r.waves, r.time_us,
                                   r.makespan / r.clock_mhz, busy, bound_of(r, busy),
                                   sum(b.gm_read for b in r.blocks), sum(b.gm_write for b in r.blocks)))
    total = sum(ln.time_us for ln in launches)
    overhead = sum(r.launch_overhead_us for r in results)
    # pipe busy over all launches, weighted by block time
    weights: dict[str, float] = {}
    denom = sum(sum(b.duration for b in r.blocks) for r in results)
    for r in results:
        for p, f in pipe_busy(r).items():
            weights[p] = weights.get(p, 0.0) + f * sum(b.duration for b in r.blocks) / (denom or 1)
    main_r = max(results, key=lambda r: r.makespan) if results else None
    execution = bound_of(main_r, pipe_busy(main_r), launch=False) if main_r else "no kernel launch traced"
    if len(results) == 1:
        bound = launches[0].bound
    elif results:
        main = max(launches, key=lambda ln: ln.time_us)
        bound = main.bound if overhead <= 0.5 * total else "launch overhead (several short launches)"
    else:
        bound = "no kernel launch traced"
    rd = sum(ln.gm_read_bytes for ln in launches)
    wr = sum(ln.gm_write_bytes for ln in launches)
    achieved = (rd + wr) / (total * 1e-6) / 1e9 if total > 0 else 0.0
    notes = []
    if any(r.waves > 1 for r in results):
        notes.append("more blocks than cores: the blocks ran in waves")
    elems = sum(b.vector_elems for r in results for b in r.blocks)
    return PerfReport(costs.soc, total, overhead, weights, bound, execution, rd, wr, achieved, costs.hbm_gbps, elems,
                      costs.peak_vector_flops / 1e9, launches, notes=notes,
                      hot_lines=[h.to_dict() for h in lines.hot_lines(results)])
