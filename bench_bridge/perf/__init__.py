"""kgen's performance model: the emulator's instruction trace -> a modelled kernel time.

Public API:
    profile(trace_file, soc=None, cores=None, reference=None) -> PerfReport
        model every launch in a trace (``bench_bridge.sim.run(..., trace=True).trace_file`` or
        ``kgen sim run --trace``); ``reference`` an ``eager.EagerBaseline`` adds the task's
        roofline and the modelled PyTorch-eager speedup
    PerfReport.to_dict() / .render_text() / .with_measured(us)
    write_chrome_trace(report, path)    Chrome-trace JSON (Perfetto, chrome://tracing)
    write_png(report, path)             timeline + pipe busy + roofline picture
    eager_baseline(fn, *inputs, soc=None) -> EagerBaseline
    load_costs(soc=None) -> CostTable   the documented cost table (costs_910b.toml over the SoC table's facts)
The SoC defaults to $KGEN_SOC, else the SoC table's default (bench_bridge/soc.toml).
"""
from __future__ import annotations

from pathlib import Path

from bench_bridge.perf import chrome_trace as _chrome
from bench_bridge.perf.costs import CostTable
from bench_bridge.perf.costs import load as load_costs
from bench_bridge.perf.eager import EagerBaseline
from bench_bridge.perf.eager import baseline as eager_baseline
from bench_bridge.perf.events import Launch, load_trace
from bench_bridge.perf.model import LaunchResult, simulate
from bench_bridge.perf.report import PerfReport, build_report

__all__ = ["CostTable", "EagerBaseline", "PerfReport", "eager_baseline", "load_costs", "model_launches", "profile",
           "write_chrome_trace", "write_png"]


def model_launches(launches: list[Launch], soc: str | None = None, cores: int | None = None,
                   reference: EagerBaseline | None = None) -> PerfReport:
    """Model already-loaded launches (see ``events.load_trace`` / ``events.synthetic``)."""
    costs = load_costs(soc)
    results = [simulate(ln, costs, cores) for ln in launches]
    rep = build_report(results, costs)
    if reference is not None:
        rep.with_reference(reference)
    elif rep.gm_bytes:
        rep.roofline_us = rep.gm_bytes / costs.peak_gm_bytes_per_s * 1e6
        rep.roofline_basis = "the kernel's own GM bytes at peak bandwidth (no reference given)"
    object.__setattr__(rep, "results", results)  # not a dataclass field: kept out of to_dict()
    return rep


def profile(trace_file: str | Path, soc: str | None = None, cores: int | None = None,
            reference: EagerBaseline | None = None) -> PerfReport:
    """Model the launches recorded in ``trace_file``."""
    return model_launches(load_trace(trace_file), soc, cores, reference)


def _results(report_or_trace) -> tuple[list[LaunchResult], PerfReport]:
    if isinstance(report_or_trace, PerfReport):
        return getattr(report_or_trace, "results", []), report_or_trace
    rep = profile(report_or_trace)
    return rep.results, rep


def write_chrome_trace(report_or_trace, path: str | Path, max_events: int = 200_000) -> Path:
    """Write the modelled timeline of a PerfReport (or of a trace file) as Chrome-trace JSON."""
    results, _ = _results(report_or_trace)
    return _chrome.write_chrome_trace(results, path, max_events)


def write_png(report_or_trace, path: str | Path, max_cores: int = 8) -> Path:
    """Write the timeline + roofline picture of a PerfReport (or of a trace file) as PNG (needs Pillow)."""
    from bench_bridge.perf import timeline_png  # lazy: Pillow (~15 ms to import) only when a picture is drawn

    results, rep = _results(report_or_trace)
    return timeline_png.write_png(results, rep, path, max_cores)
