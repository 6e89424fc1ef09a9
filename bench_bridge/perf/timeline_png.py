"""A PNG picture of the modelled run: per-core pipe timeline, pipe busy bars and a roofline.

Drawn with Pillow (no plotting library needed); the same picture serves the terminal app and
the VS Code extension. At most ``max_cores`` cores are drawn (the first ones, in core order).
"""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bench_bridge.perf.model import LaunchResult
from bench_bridge.perf.report import PerfReport

COLOURS = {"MTE2": (66, 133, 244), "V": (52, 168, 83), "MTE3": (234, 134, 0), "MTE1": (161, 66, 244),
           "M": (219, 68, 55), "FIX": (0, 172, 193), "S": (120, 120, 120)}
LANE_ORDER = ("MTE2", "V", "MTE3", "MTE1", "M", "FIX")
BG, FG, GRID = (255, 255, 255), (30, 30, 30), (225, 225, 225)


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: fixed bitmap font
        return ImageFont.load_default()


def render(results: list[LaunchResult], report: PerfReport, max_cores: int = 8, width: int = 1400):
    lanes = [p for p in LANE_ORDER if any(s.pipe == p for r in results for b in r.blocks for s in b.spans)] or ["V"]
    cores = sorted({b.core for r in results for b in r.blocks})[:max_cores]
    lane_h, core_gap, left, right = 14, 10, 110, 30
    top = 70
    tl_h = len(cores) * (len(lanes) * lane_h + core_gap) + 30
    bottom_h = 300
    height = top + tl_h + bottom_h + 20
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    f12, f14, f18 = _font(12), _font(14), _font(18)

    title = " + ".join(dict.fromkeys(r.kernel for r in results)) or "kernel"
    # the bound's explanation after the first comma goes on its own line: the title must fit the width
    bound, _, why = str(report.bound).partition(", ")
    d.text((left, 10), f"{title} on {report.soc} (modelled): {report.modelled_us:.2f} us, bound by {bound}",
           fill=FG, font=f18)
    if why:
        d.text((left + d.textlength(f"{title} on {report.soc} (modelled): {report.modelled_us:.2f} us, bound by {bound}", font=f18) + 8, 14),
               f"- {why}", fill=FG, font=f12)
    d.text((left, 36), f"GM {report.gm_bytes / 1e6:.3f} MB at {report.achieved_gbps:.0f} GB/s of {report.peak_gbps:.0f}; "
           f"launch overhead {report.launch_overhead_us:.1f} us"
           + (f"; eager {report.eager_us:.1f} us -> speedup {report.speedup_vs_eager:.2f}x" if report.eager_us else ""),
           fill=FG, font=f14)

    # ---- timeline (kernel execution only; launch overheads are in the header line) ----
    total_us = sum(r.makespan / r.clock_mhz for r in results) or 1.0
    plot_w = width - left - right
    x_of = lambda us: left + plot_w * us / total_us  # noqa: E731
    y = top
    for k in range(11):
        x = left + plot_w * k / 10
        d.line([(x, top - 4), (x, top + tl_h - 24)], fill=GRID)
        d.text((x - 10, top + tl_h - 20), f"{total_us * k / 10:.1f}", fill=FG, font=f12)
    d.text((width - right - 30, top + tl_h - 8), "us", fill=FG, font=f12)
    row_of = {}
    for c in cores:
        d.text((8, y + 2), f"core {c}", fill=FG, font=f14)
        for i, lane in enumerate(lanes):
            row_of[(c, lane)] = y + i * lane_h
            d.text((60, y + i * lane_h), lane, fill=COLOURS.get(lane, FG), font=f12)
        y += len(lanes) * lane_h + core_gap
    offset = 0.0
    for r in results:
        t0 = offset
        d.rectangle([x_of(t0), top - 6, x_of(t0 + r.makespan / r.clock_mhz), top - 2], fill=(190, 190, 190))
        for b in r.blocks:
            for s in b.spans:
                ry = row_of.get((b.core, s.pipe))
                if ry is None:
                    continue
                x0 = x_of(t0 + (b.start + s.start) / r.clock_mhz)
                x1 = x_of(t0 + (b.start + s.end) / r.clock_mhz)
                d.rectangle([x0, ry + 1, max(x0 + 1, x1), ry + lane_h - 2], fill=COLOURS.get(s.pipe, FG))
        offset = t0 + r.makespan / r.clock_mhz

    # ---- pipe busy bars ----
    by = top + tl_h + 20
    d.text((left, by), "pipe busy (share of the cores' block time)", fill=FG, font=f14)
    bar_w = 300
    for i, (p, frac) in enumerate(sorted(report.pipe_busy.items(), key=lambda kv: -kv[1])[:7]):
        yy = by + 26 + i * 24
        d.text((left - 60, yy), p, fill=FG, font=f12)
        d.rectangle([left, yy, left + bar_w, yy + 14], outline=GRID)
        d.rectangle([left, yy, left + bar_w * min(frac, 1.0), yy + 14], fill=COLOURS.get(p, FG))
        d.text((left + bar_w + 8, yy), f"{frac * 100:.0f}%", fill=FG, font=f12)

    # ---- roofline (log-log) ----
    _roofline(d, report, (width // 2 + 20, by, width - right, height - 20), f12, f14)
    return img


def _roofline(d, rep: PerfReport, box, f12, f14) -> None:
    x0, y0, x1, y1 = box
    d.text((x0, y0), "roofline (vector unit, fp16 element ops)", fill=FG, font=f14)
    px0, py0, px1, py1 = x0 + 50, y0 + 24, x1 - 10, y1 - 24
    d.rectangle([px0, py0, px1, py1], outline=FG)
    peak = max(rep.peak_vector_gops, 1e-9)            # Gop/s
    bw = max(rep.peak_gbps, 1e-9)                     # GB/s
    ai_lo, ai_hi = 1 / 64, 64.0
    p_lo, p_hi = peak / 1e4, peak * 2

    def pt(ai: float, perf: float) -> tuple[float, float]:
        fx = (math.log10(ai) - math.log10(ai_lo)) / (math.log10(ai_hi) - math.log10(ai_lo))
        fy = (math.log10(max(perf, p_lo)) - math.log10(p_lo)) / (math.log10(p_hi) - math.log10(p_lo))
        return px0 + (px1 - px0) * min(max(fx, 0), 1), py1 - (py1 - py0) * min(max(fy, 0), 1)

    ridge = peak / bw
    steps = [ai_lo * (ai_hi / ai_lo) ** (k / 60) for k in range(61)]
    d.line([pt(a, min(peak, bw * a)) for a in steps], fill=(80, 80, 80), width=2)
    d.text(pt(ai_lo * 1.5, bw * ai_lo * 1.5), f"{bw:.0f} GB/s", fill=FG, font=f12)
    d.text((pt(ridge, peak)[0] + 4, pt(ridge, peak)[1] - 14), f"{peak:.0f} Gop/s", fill=FG, font=f12)
    for k in range(-1, 2):
        d.text((pt(10.0 ** k, p_lo)[0] - 8, py1 + 4), f"{10.0 ** k:g}", fill=FG, font=f12)
    d.text((px1 - 80, py1 + 4), "op / byte", fill=FG, font=f12)
    if rep.gm_bytes > 0 and rep.vector_elem_ops > 0 and rep.time_us > 0:
        ai = rep.vector_elem_ops / rep.gm_bytes
        perf = rep.vector_elem_ops / (rep.time_us * 1e-6) / 1e9
        cx, cy = pt(ai, perf)
        d.ellipse([cx - 5, cy - 5, cx + 5, cy + 5], fill=(219, 68, 55))
        d.text((cx + 8, cy - 6), f"kernel {perf:.1f} Gop/s", fill=(219, 68, 55), font=f12)


def write_png(results: list[LaunchResult], report: PerfReport, path: str | Path, max_cores: int = 8) -> Path:
    path = Path(path)
    render(results, report, max_cores).save(path, format="PNG")
    return path
