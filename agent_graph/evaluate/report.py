"""summary.json, summary.md and the PNG charts of an evaluation (pictures with Pillow, a kgen dependency)."""
from __future__ import annotations

import json
import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from agent_graph.evaluate.types import EvalSummary

W, H, PAD = 640, 360, 48
BAR = (52, 120, 198)
GRID = (220, 220, 220)


def write_summary(summary: EvalSummary, folder: Path) -> None:
    summary.charts = charts(summary, folder)
    (folder / "summary.json").write_text(json.dumps(summary.to_dict(), indent=2, sort_keys=True) + "\n")
    (folder / "summary.md").write_text(render_md(summary))


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def render_md(s: EvalSummary) -> str:
    m = s.metrics
    out = [f"# kgen eval: {s.suite}", "",
           f"generator `{s.generator}`, k = {s.k}, backend `{s.backend}`: {s.tasks} tasks, {s.candidates} candidates", ""]
    if s.weighted_score is not None:
        out += [f"**Weighted score (level weights 0.2 / 0.3 / 0.5): {s.weighted_score:.2f}**", ""]
    out += ["| metric | value |", "|---|---|",
            f"| tasks scored (skipped) | {m.get('tasks', 0)} ({m.get('skipped', 0)}) |",
            f"| mean task score | {m.get('score', 0):.2f} |",
            f"| compile@1 / compile@{s.k} | {_pct(m.get('compile@1'))} / {_pct(m.get('compile@k'))} |" if s.k > 1 else
            f"| compile@1 | {_pct(m.get('compile@1'))} |",
            f"| correct@1 / correct@{s.k} | {_pct(m.get('correct@1'))} / {_pct(m.get('correct@k'))} |" if s.k > 1 else
            f"| correct@1 | {_pct(m.get('correct@1'))} |"]
    for p, v in m.get("fast_p_vs_eager", {}).items():
        out.append(f"| {p} vs modelled eager | {_pct(v)} |")
    if m.get("tasks_with_golden_time"):
        for p, v in m.get("fast_p_vs_golden", {}).items():
            out.append(f"| {p} vs golden ({m['tasks_with_golden_time']} tasks) | {_pct(v)} |")
    out.append("")
    if s.charts:
        out += [f"![{name}]({path})" for name, path in sorted(s.charts.items())] + [""]
    for title, table in (("Levels", s.levels), ("Categories", s.categories)):
        if table:
            out += [f"## {title}", "", "| group | tasks | score | compiled | correct | correct@k |", "|---|---|---|---|---|---|"]
            out += [f"| {g} | {r['tasks']} | {r.get('score', 0):.2f} | {r.get('compiled', 0)} | {r.get('correct', 0)} | "
                    f"{_pct(r.get('correct@k'))} |" for g, r in table.items()]
            out.append("")
    if s.error_classes:
        out += ["## Error classes of failed candidates", "", "| class | candidates |", "|---|---|"]
        out += [f"| {c} | {n} |" for c, n in sorted(s.error_classes.items(), key=lambda kv: (-kv[1], kv[0]))] + [""]
    out += ["## Tasks", "", "| task | status | cases | score | speedup vs eager | vs golden | reason |", "|---|---|---|---|---|---|---|"]
    for r in s.per_task:
        if r["skipped"]:
            out.append(f"| {r['task']} | skipped | - | - | - | - | {_cell(r['message'])} |")
            continue
        status = "pass" if r["correct"] else ("fail" if r["compiled"] else
                                               "no candidate" if r["stage"] == "generate" else
                                               "not tested" if r["error_class"] == "harness" else "build fail")
        sp = "-" if r["speedup_vs_eager"] is None else f"{r['speedup_vs_eager']:.2f}x"
        sg = "-" if r["speedup_vs_golden"] is None else f"{r['speedup_vs_golden']:.2f}x"
        out.append(f"| {r['task']} | {status} | {r['cases_passed']}/{r['cases']} | {r['score']:.1f} | {sp} | {sg} | "
                   f"{_cell(r['message'])} |")
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return " ".join(str(text or "").replace("|", "\\|").split())[:200]


def charts(s: EvalSummary, folder: Path) -> dict[str, str]:
    """levels.png (score per level, or per category without levels) and speedup.png (histogram)."""
    made: dict[str, str] = {}
    by_level = len(s.levels) > 1 or not s.categories      # one level: its categories say more
    groups = s.levels if by_level else s.categories
    if groups:
        _bars({g.rsplit("/", 1)[-1]: r.get("score", 0.0) for g, r in groups.items()},
              "score per level" if by_level else "score per category", folder / "levels.png")
        made["levels"] = "levels.png"
    speedups = [r["speedup_vs_eager"] for r in s.per_task if not r["skipped"] and r.get("speedup_vs_eager")]
    if speedups:
        _histogram(speedups, folder / "speedup.png")
        made["speedup"] = "speedup.png"
    return made


def _canvas(title: str):
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    d.text((PAD, 12), title, fill="black", font=font)
    return img, d, font


def _bars(values: dict[str, float], title: str, path: Path, top: float = 100.0) -> None:
    img, d, font = _canvas(title)
    x0, y0, x1, y1 = PAD, PAD, W - PAD // 2, H - PAD
    for frac in (0, 0.25, 0.5, 0.75, 1.0):
        y = y1 - (y1 - y0) * frac
        d.line([(x0, y), (x1, y)], fill=GRID)
        d.text((4, y - 6), f"{top * frac:g}", fill="black", font=font)
    n = max(1, len(values))
    slot = (x1 - x0) / n
    for i, (name, v) in enumerate(values.items()):
        bx = x0 + i * slot + slot * 0.15
        by = y1 - (y1 - y0) * max(0.0, min(v, top)) / top
        d.rectangle([bx, by, bx + slot * 0.7, y1], fill=BAR)
        d.text((bx, max(y0, by - 14)), f"{v:.1f}" if top == 100.0 else f"{v:g}", fill="black", font=font)
        d.text((bx, y1 + 6), name[-int(slot // 6) or -1:], fill="black", font=font)
    img.save(path)


def _histogram(speedups: list[float], path: Path) -> None:
    """Tasks per speedup bin (log2 bins: <0.25, 0.25-0.5, ..., >=8)."""
    edges = [0.25, 0.5, 0.8, 1.0, 1.5, 2.0, 4.0, 8.0]
    labels = ["<0.25"] + [f"{a:g}-{b:g}" for a, b in zip(edges, edges[1:])] + [">=8"]
    counts = [0] * len(labels)
    for v in speedups:
        counts[sum(v >= e for e in edges)] += 1
    top = float(max(counts)) or 1.0
    top = float(math.ceil(top))
    _bars(dict(zip(labels, map(float, counts))), f"tasks by modelled speedup vs eager ({len(speedups)} correct)", path, top)
