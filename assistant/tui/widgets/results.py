"""The results panel: per-case table, modelled (or measured) time, bound, speedup, and pipe busy chart.

Reads only the bench report dict (docs/report-schema.md; per-case ``performance`` is
docs/performance-model.md's PerfReport). The chart is text, so it shows in every terminal. A profiled
bench names each case's timeline picture and Chrome trace in the report's ``artifacts``: the picture is
drawn with half-block cells where the terminal has 24-bit colour, and ``o`` opens it in the system's
image viewer everywhere (the text chart stays as the fallback).
"""
from __future__ import annotations

import os

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from assistant.tui.widgets.picture import ViewerError, half_blocks, open_in_viewer, supports_pictures

COLUMNS = ("case", "result", "time us", "speedup", "bound", "shape", "dtype", "max abs err")
DROP_ORDER = (7, 6, 5, 3, 4)
"""Columns left out, in this order, while the table is wider than the results tab (the shown case's detail
still has them all): max abs err, dtype, shape, speedup, bound; case, result and time always stay."""
CELL_PADDING = 1      # DataTable's default, on each side of a cell
PIPE_ORDER = ("MTE2", "V", "MTE3", "S", "MTE1", "M", "FIX")
BAR = 24


def _shape(c: dict) -> str:
    shapes = c.get("input_shapes") or []
    if not shapes:
        return "-"
    return "x".join(str(d) for d in shapes[0]) + (f" (+{len(shapes) - 1})" if len(shapes) > 1 else "")


def short_bound(bound: str) -> str:
    return bound.split(" (")[0] if bound else "-"


def case_rows(report: dict) -> list[tuple[str, ...]]:
    rows = []
    for c in report.get("cases", []):
        outs = c.get("outputs") or []
        err = f"{max(o['max_abs_error'] for o in outs):.3g}" if outs else "-"
        p = c.get("performance") or {}
        t = p.get("time_us", p.get("modelled_us"))
        sp = p.get("speedup_vs_eager")
        rows.append((str(c.get("case_id", "")), str(c.get("status", "")).upper(), f"{t:.2f}" if t is not None else "-",
                     f"{sp:.2f}x" if sp else "-", short_bound(p.get("bound", "")) if p else "-", _shape(c),
                     (c.get("dtypes") or ["-"])[0], err))
    return rows


def fitting_columns(rows: list[tuple[str, ...]], width: int) -> list[int]:
    """The indexes of the columns (of ``COLUMNS``) to show so the table is at most ``width`` cells wide;
    every column when ``width`` is not known yet (0: not laid out)."""
    widths = [max([len(COLUMNS[j])] + [len(r[j]) for r in rows]) + 2 * CELL_PADDING for j in range(len(COLUMNS))]
    keep = list(range(len(COLUMNS)))
    for j in DROP_ORDER:
        if width <= 0 or sum(widths[k] for k in keep) <= width:
            break
        keep.remove(j)
    return keep


def summary(report: dict) -> Text:
    cases = report.get("cases", [])
    passed = sum(1 for c in cases if c.get("status") == "pass")
    verdict = ("CORRECT", "bold green") if report.get("correct") else ("INCORRECT", "bold red")
    if not report.get("correct") and cases and all(c.get("status") in ("pass", "unverified") for c in cases):
        verdict = ("UNVERIFIED (ran, nothing verified)", "bold yellow")
    if not report.get("compiled", True):
        t = Text.assemble((f"{report.get('task', '')}  ", "bold"), ("BUILD FAILED", "bold red"))
        for line in build_error_lines(report):
            t.append(f"\n{line}", style="red")
        if report.get("message"):
            t.append(f"\n{report['message']}", style="yellow")
        return t
    t = Text.assemble((f"{report.get('task', '')}  ", "bold"), verdict, f"  {passed}/{len(cases)} cases")
    perf = report.get("performance") or {}
    if perf:
        times = perf.get("modelled_us") or []
        src = perf.get("source", "modelled")
        if len(times) == 1:
            t.append(f"\n{src} time: {times[0]:.2f} us", style="")
        elif times:    # the cases are different shapes: their times are not added up (the table has each)
            t.append(f"\n{src} time per case: {min(times):.2f} to {max(times):.2f} us ({len(times)} cases)", style="")
        geo = perf.get("geomean_speedup_vs_eager")
        if geo:
            t.append(f"   speedup vs PyTorch eager: {geo:.2f}x (geomean)")
        bounds = {short_bound(b) for b in perf.get("bound") or []}
        if bounds:
            t.append(f"\nbound: {', '.join(sorted(bounds))}")
    if report.get("message"):
        t.append(f"\n{report['message']}", style="yellow")
    return t


MAX_BUILD_LINES = 30


def build_error_lines(report: dict, limit: int = MAX_BUILD_LINES) -> list[str]:
    """A failed build's diagnostics, ``file:line: severity: message`` each (errors first)."""
    diags = sorted(report.get("build_diagnostics") or [], key=lambda d: d.get("severity") != "error")
    lines = [f"{d.get('file', '')}:{d.get('line', 0)}: {d.get('severity', 'error')}: {d.get('message', '')}"
             for d in diags[:limit]]
    if len(diags) > limit:
        lines.append(f"(+{len(diags) - limit} more)")
    return lines


def pipe_chart(pipe_busy: dict[str, float], width: int = BAR) -> Text:
    """One bar per pipe: its busy fraction of the cores' block time (the performance model's figure)."""
    names = [p for p in PIPE_ORDER if p in pipe_busy] + sorted(p for p in pipe_busy if p not in PIPE_ORDER)
    out = Text()
    for name in names:
        frac = max(0.0, min(1.0, float(pipe_busy[name])))
        full = round(frac * width)
        out.append(f"{name:<5}")
        out.append("█" * full, style="cyan")
        out.append("░" * (width - full), style="dim")
        out.append(f" {frac * 100:5.1f}%\n")
    return out


HOT_ROWS = 6
MAX_FINDINGS = 5


def case_findings(case: dict, limit: int = MAX_FINDINGS) -> list[tuple[str, str]]:
    """The emulator's findings of a case as (``file:line: severity: message [code]``, severity), each once
    (the same finding on several cores is one), without the one the case's message already is."""
    seen, out = set(), []
    for d in case.get("diagnostics") or []:
        sev = d.get("severity", "")
        if sev not in ("error", "warning"):
            continue
        code = d.get("code", "")
        text = (f"{os.path.basename(str(d.get('file', '')))}:{d.get('line', 0)}: {sev}: {d.get('message', '')}"
                + (f" [{code}]" if code and code != "compile" else ""))
        if text in seen or d.get("message", "") in (case.get("message") or ""):
            continue
        seen.add(text)
        out.append((text, sev))
    return out[:limit]


def hot_lines_text(hot: list[dict], rows: int = HOT_ROWS) -> Text:
    """A case's hot lines (PerfReport.hot_lines): share of the modelled time, pipe, the line (its file's
    name) or the call when the trace names no lines; the rest in one row."""
    out = Text()
    for h in hot[:rows]:
        site = f"{os.path.basename(h['file'])}:{h['line']}" if h.get("line") else h.get("site", "")
        calls = ", ".join((h.get("apis") or [])[:3])
        out.append(f"{h.get('percent', 0.0):5.1f}% ", style="bold")
        out.append(f"{h.get('pipe', ''):<6} {site}" + (f"  {calls}" if calls and calls not in site else "") + "\n")
    rest = hot[rows:]
    if rest:
        out.append(f"{sum(h.get('percent', 0.0) for h in rest):5.1f}% ({len(rest)} more)\n", style="dim")
    return out


def _case_artifact(report: dict, case: dict | None, key: str) -> str:
    """The case's own file from the report's ``artifacts`` (docs/report-schema.md, version 2); a report
    without per-case entries falls back to its one picture (or a ``timeline_png`` an older report put
    beside the figures)."""
    arts = report.get("artifacts") or {}
    per_case = arts.get("cases") or {}
    if case is not None and str(case.get("case_id")) in per_case:
        return str(per_case[str(case.get("case_id"))].get(key) or "")
    if per_case:
        return ""              # profiled, but not this case (it did not run): no other case's picture
    for holder in (case.get("performance") if case else None, report.get("performance"), arts, report):
        if holder and holder.get(key):
            return str(holder[key])
    return ""


def timeline_png(report: dict, case: dict | None) -> str:
    return _case_artifact(report, case, "timeline_png")


def trace_json(report: dict, case: dict | None) -> str:
    return _case_artifact(report, case, "trace")


def case_detail(report: dict, case: dict | None) -> Group | Text:
    if case is None:
        return Text("")
    p = case.get("performance") or {}
    parts: list = [Text(f"case {case.get('case_id')}: {case.get('status')}", style="bold")]
    if case.get("message"):
        parts.append(Text(case["message"], style="red" if case.get("status") != "pass" else ""))
    for line, severity in case_findings(case):
        parts.append(Text(line, style="red" if severity == "error" else "yellow"))
    shapes, dtypes = case.get("input_shapes") or [], case.get("dtypes") or []
    if shapes:
        parts.append(Text("inputs: " + ", ".join("x".join(map(str, sh)) + (f" {dt}" if dt else "")
                                                  for sh, dt in zip(shapes, list(dtypes) + [""] * len(shapes))),
                          style="dim"))
    if p:
        parts.append(Text(f"{p.get('source', 'modelled')} {p.get('time_us', p.get('modelled_us', 0)):.2f} us "
                          f"(launch {p.get('launch_overhead_us', 0):.2f} us)   GM {p.get('achieved_gbps', 0):.1f} "
                          f"of {p.get('peak_gbps', 0):.0f} GB/s"))
        parts.append(Text("pipe busy (fraction of block time):", style="dim"))
        parts.append(pipe_chart(p.get("pipe_busy") or {}))
        parts.append(Text(f"bound: {p.get('bound', '-')}", style="yellow"))
        if p.get("execution_bound") and p.get("execution_bound") != p.get("bound"):
            parts.append(Text(f"cores bound by: {p['execution_bound']}", style="dim"))
        hot = p.get("hot_lines") or []
        if hot:
            parts.append(Text("where the time goes (adds up to the modelled time):", style="dim"))
            parts.append(hot_lines_text(hot))
    trace = trace_json(report, case)
    if trace:
        parts.append(Text(f"trace: {trace} (open in Perfetto / chrome://tracing)", style="dim"))
    png = timeline_png(report, case)
    if png:
        parts.append(Text(f"timeline picture: {png}" + (" (o: open)" if os.path.exists(png) else " (missing)"),
                          style="dim"))
        if os.path.exists(png) and supports_pictures():
            try:
                parts.append(half_blocks(png, 56))
            except OSError:
                pass      # not a picture Pillow can read: the path above is enough
    return Group(*parts)


class ResultsPanel(VerticalScroll):
    BINDINGS = [Binding("o", "open_timeline", "Open timeline")]

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.report: dict | None = None
        self.case: dict | None = None      # the case whose detail is shown
        self._columns: list[int] = list(range(len(COLUMNS)))

    def compose(self) -> ComposeResult:
        yield Static(Text("No results yet: cases, time, bound and speedup show here after a run.", style="dim"),
                     id="results-summary")
        table = DataTable(id="results-table", cursor_type="row", zebra_stripes=True, cell_padding=CELL_PADDING)
        table.add_columns(*COLUMNS)
        yield table
        yield Static("", id="results-detail")

    @property
    def table(self) -> DataTable:
        """The per-case table (it takes the keys when the results tab is shown)."""
        return self.query_one(DataTable)

    def show_report(self, report: dict | None) -> None:
        self.report = report
        table = self.table
        table.clear()
        table.display = True
        if not report:
            return
        self.query_one("#results-summary", Static).update(summary(report))
        table.display = bool(report.get("cases")) or report.get("compiled", True)
        self._fill_table()
        cases = report.get("cases") or []
        self._show_case(cases[0] if cases else None)

    def _fill_table(self) -> None:
        """The case rows, with the columns that fit the tab's width (the rest are in the case's detail)."""
        table = self.table
        rows = case_rows(self.report or {})
        keep = fitting_columns(rows, self.scrollable_content_region.width)
        self._columns = keep
        cursor = table.cursor_row
        table.clear(columns=True)
        table.add_columns(*[COLUMNS[j] for j in keep])
        for i, row in enumerate(rows):
            style = "green" if row[1] == "PASS" else "red"
            table.add_row(*[Text(row[j], style=style) if j == 1 else row[j] for j in keep], key=str(i))
        if rows and 0 < cursor < len(rows):
            table.move_cursor(row=cursor)

    def on_resize(self) -> None:
        if self.report and fitting_columns(case_rows(self.report), self.scrollable_content_region.width) != self._columns:
            self._fill_table()

    def _show_case(self, case: dict | None) -> None:
        self.case = case
        self.query_one("#results-detail", Static).update(case_detail(self.report or {}, case))

    def action_open_timeline(self) -> None:
        """Open the shown case's timeline picture with the system's image viewer."""
        png = timeline_png(self.report or {}, self.case) if self.report else ""
        if not png:
            self.notify("no timeline picture for this case (bench it with a profile)", severity="warning", timeout=4)
            return
        try:
            how = open_in_viewer(png)
        except ViewerError as e:
            self.notify(str(e), severity="error", timeout=6)
            return
        self.notify(f"opened {os.path.basename(png)} with {how}", timeout=3)

    @on(DataTable.RowHighlighted, "#results-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        if not self.report or event.row_key is None or event.row_key.value is None:
            return
        cases = self.report.get("cases") or []
        i = int(event.row_key.value)
        if 0 <= i < len(cases):
            self._show_case(cases[i])
