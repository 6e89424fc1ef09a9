"""Where the modelled time goes: the kernel's time split over the places in its source that spent it.

A *site* is a source line when the trace names one (an event's ``loc``, an index into its block's
``locs`` table, ``"file:line"``), else the AscendC call (``DataCopy``, ``Add``): traces written before
the emulator recorded call sites are split by API instead of by line.

The split, per block, covers the block's whole duration once:
  * while instructions run on the pipes, each moment is shared equally by the instructions running then
    (two overlapping copies and a vector op each take a third of that moment);
  * a moment when no pipe runs (the scalar unit issuing, a wait on a flag or a queue, the copies'
    latency) goes to the next instruction to start: the one the core was getting to;
    the tail after the last instruction goes to the last one that ended.
Per launch, the blocks' sites are added up and scaled so that they cover the launch's makespan (the
cores run blocks side by side; a site that takes 30% of the blocks' time takes 30% of the makespan), and
the launch overhead is one more row. So the rows add up to the modelled kernel time exactly. Each
site's *pipe* is the pipe that spent most of its share ("wait" for time spent waiting or issuing).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field

from bench_bridge.perf.model import BlockResult, LaunchResult, Span

OVERHEAD_SITE = "(launch overhead)"
WAIT_PIPE = "wait"
"""The "pipe" of time when no pipe ran: the scalar unit issuing, waits on flags/queues, copy latency."""


@dataclass
class HotLine:
    site: str                      # "file:line", an API name (no call sites traced), or OVERHEAD_SITE
    us: float                      # modelled microseconds of the kernel time spent there
    percent: float                 # of the modelled kernel time
    pipe: str                      # the pipe that spent most of it (WAIT_PIPE: issuing or waiting)
    apis: list[str] = field(default_factory=list)        # the AscendC calls made there, most time first
    pipe_us: dict[str, float] = field(default_factory=dict)
    file: str = ""
    line: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


def site_of(span: Span) -> str:
    """The span's source line, else its call and pipe (``DataCopy (MTE2)``: a copy in and a copy out differ)."""
    return span.site or f"{span.api} ({span.pipe})"


def block_sites(b: BlockResult) -> dict[tuple[str, str, str], float]:
    """Cycles of the block per (site, pipe, api); they add up to ``b.duration``."""
    out: dict[tuple[str, str, str], float] = defaultdict(float)
    spans = sorted(b.spans, key=lambda s: (s.start, s.end))
    if not spans:
        if b.duration > 0:
            out[("(no instruction traced)", WAIT_PIPE, "")] += b.duration
        return out
    cuts = sorted({0.0, b.duration, *(s.start for s in spans), *(s.end for s in spans)})
    cuts = [t for t in cuts if 0.0 <= t <= b.duration]
    starts = sorted(range(len(spans)), key=lambda i: spans[i].start)
    active: list[Span] = []
    nxt = 0            # next span (by start) not yet active
    last_ended: Span | None = None
    for t0, t1 in zip(cuts, cuts[1:]):
        if t1 <= t0:
            continue
        while nxt < len(starts) and spans[starts[nxt]].start <= t0:
            active.append(spans[starts[nxt]])
            nxt += 1
        still = []
        for s in active:
            if s.end <= t0:
                last_ended = s if last_ended is None or s.end >= last_ended.end else last_ended
            else:
                still.append(s)
        active = still
        dt = t1 - t0
        if active:
            share = dt / len(active)
            for s in active:
                out[(site_of(s), s.pipe, s.api)] += share
        else:
            owner = spans[starts[nxt]] if nxt < len(starts) else last_ended
            if owner is not None:
                out[(site_of(owner), WAIT_PIPE, owner.api)] += dt
    return out


def hot_lines(results: list[LaunchResult]) -> list[HotLine]:
    """The modelled time of ``results`` split over sites, most time first; ``us`` adds up to the launches'
    modelled time (launch overheads included)."""
    us: dict[str, float] = defaultdict(float)
    pipe_us: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    api_us: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    total = 0.0
    for r in results:
        total += r.time_us
        if r.launch_overhead_us > 0:
            us[OVERHEAD_SITE] += r.launch_overhead_us
            pipe_us[OVERHEAD_SITE]["launch"] += r.launch_overhead_us
        block_total = sum(b.duration for b in r.blocks)
        makespan_us = r.makespan / r.clock_mhz
        if block_total <= 0:
            if makespan_us > 0:
                us["(no instruction traced)"] += makespan_us
                pipe_us["(no instruction traced)"][WAIT_PIPE] += makespan_us
            continue
        scale = makespan_us / block_total
        memo: dict[int, dict] = {}
        for b in r.blocks:
            key = id(b.spans)          # blocks with identical traces share their spans (model memo)
            cyc = memo.get(key)
            if cyc is None:
                cyc = memo[key] = block_sites(b)
            for (site, pipe, api), c in cyc.items():
                t = c * scale
                us[site] += t
                pipe_us[site][pipe] += t
                if api:
                    api_us[site][api] += t
    out = []
    for site, t in us.items():
        pipes = dict(pipe_us[site])
        file, line = _split(site)
        out.append(HotLine(site, t, 100.0 * t / total if total > 0 else 0.0,
                           max(pipes, key=pipes.get) if pipes else WAIT_PIPE,
                           [a for a, _ in sorted(api_us[site].items(), key=lambda kv: -kv[1])], pipes, file, line))
    out.sort(key=lambda h: -h.us)
    return out


def _split(site: str) -> tuple[str, int]:
    file, _, line = site.rpartition(":")
    return (file, int(line)) if file and line.isdigit() else ("", 0)


def render(lines: list[HotLine], top: int = 10, indent: str = "  ") -> list[str]:
    """The hot-lines table: share of the time, microseconds, bounding pipe, site and its calls."""
    if not lines:
        return []
    files = {h.file for h in lines if h.line}
    one_file = next(iter(files)) if len(files) == 1 else ""
    if files:
        head = f"hot lines of {one_file}" if one_file else "hot lines"
    else:
        head = "hot instructions (the trace names no source lines: by call)"
    wheres = [f"line {h.line}" if one_file and h.line else h.site for h in lines[:top]]
    wheres = [w if len(w) <= 40 else "…" + w[-39:] for w in wheres]
    ww = max(len(w) for w in wheres + ["where"])
    out = [f"{indent}{head}, adding up to the modelled time:",
           f"{indent}{'%time':>6} {'us':>9}  {'pipe':<6} {'where':<{ww}}  calls"]
    for h, where in zip(lines[:top], wheres):
        out.append(f"{indent}{h.percent:>5.1f}% {h.us:>9.2f}  {h.pipe:<6} {where:<{ww}}  {', '.join(h.apis[:4])}".rstrip())
    rest = lines[top:]
    if rest:
        out.append(f"{indent}{sum(h.percent for h in rest):>5.1f}% {sum(h.us for h in rest):>9.2f}  {'':<6} "
                   f"({len(rest)} more)")
    return out
