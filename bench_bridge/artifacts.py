"""The files a profiled bench leaves behind (``BenchReport.artifacts``, docs/report-schema.md): per
profiled case a Chrome-trace JSON of the modelled timeline and its PNG picture, written while the
bench runs (the performance model's result is at hand then), so the report names files that outlive
the process that benched: the terminal app, the language server's child process and the VS Code
results view show them without re-running anything.

Where: ``BenchOptions.artifacts_dir`` when given (the language server passes its per-target folder),
else a fresh run folder ``<kgen cache>/bench/<task>-<time>-<random>/``; the newest ``KEEP_RUNS`` run
folders are kept, fewer when together they would pass ``KEEP_BYTES`` (a trace can be tens of MB).
"""
from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path
from bench_bridge import perf
from bench_bridge.events import BenchEventSink, BenchNote, ignore
from bench_bridge.report import Artifacts
from bench_bridge.sim.compiler import cache_root

KEEP_RUNS = 20
KEEP_BYTES = 512 << 20
TRACE_SUFFIX = ".trace.json"
PNG_SUFFIX = ".timeline.png"


def runs_root() -> Path:
    return cache_root() / "bench"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "x"


class ArtifactWriter:
    """Collects the artifacts of one bench; the folder is made on the first file written."""

    def __init__(self, task: str, folder: Path | None = None, say: BenchEventSink | None = None):
        self.task = task
        self.given = Path(folder).resolve() if folder is not None else None
        self.folder: Path | None = None
        self.say = say or ignore
        self.artifacts = Artifacts()
        self._stems: set[str] = set()

    def set_build_dir(self, binary: Path | None) -> None:
        """The folder of the (first) emulator executable of this bench."""
        if binary is not None and self.artifacts.build_dir is None:
            self.artifacts.build_dir = str(Path(binary).resolve().parent)

    def _dir(self) -> Path:
        if self.folder is None:
            if self.given is not None:
                self.given.mkdir(parents=True, exist_ok=True)
                for old in [*self.given.glob(f"case-*{TRACE_SUFFIX}"), *self.given.glob(f"case-*{PNG_SUFFIX}")]:
                    old.unlink(missing_ok=True)   # a previous bench's cases: not this report's
                self.folder = self.given
            else:
                root = runs_root()
                root.mkdir(parents=True, exist_ok=True)
                stamp = time.strftime("%Y%m%d-%H%M%S")
                self.folder = Path(tempfile.mkdtemp(prefix=f"{_safe(self.task)}-{stamp}-", dir=root))
                _prune(root, self.folder)
            self.artifacts.dir = str(self.folder)
        return self.folder

    def _stem(self, case_id: str) -> str:
        stem = f"case-{_safe(case_id)}"
        k = 2
        while stem in self._stems:      # two ids that read the same once made file-name safe
            stem = f"case-{_safe(case_id)}-{k}"
            k += 1
        self._stems.add(stem)
        return stem

    def add_case(self, case_id: str, perf_report) -> None:
        """Write the trace and the picture of one profiled case (a ``bench_bridge.perf.PerfReport``).
        A picture that cannot be drawn leaves the report without it, with a progress note."""
        if perf_report is None:
            return
        folder = self._dir()
        stem = self._stem(case_id)
        entry: dict[str, str | None] = {"trace": None, "timeline_png": None}
        try:
            entry["trace"] = str(perf.write_chrome_trace(perf_report, folder / f"{stem}{TRACE_SUFFIX}"))
        except (OSError, ValueError) as e:
            self.say(BenchNote(f"case {case_id}: no trace file: {e}"))
        try:
            entry["timeline_png"] = str(perf.write_png(perf_report, folder / f"{stem}{PNG_SUFFIX}"))
        except Exception as e:  # noqa: BLE001 - Pillow missing or a drawing failure: the report stands without it
            self.say(BenchNote(f"case {case_id}: no timeline picture: {e}"))
        self.artifacts.cases[case_id] = entry
        if self.artifacts.case_id is None:
            self.artifacts.case_id = case_id
            self.artifacts.trace, self.artifacts.timeline_png = entry["trace"], entry["timeline_png"]


def _size(d: Path) -> int:
    total = 0
    for f in d.glob("*"):
        try:
            total += f.stat().st_size
        except OSError:
            pass
    return total


def _prune(root: Path, mine: Path) -> None:
    """Keep the newest ``KEEP_RUNS`` run folders while together under ``KEEP_BYTES``; remove the rest
    (never ``mine``, the one just made)."""
    def mtime(d: Path) -> float:
        try:
            return d.stat().st_mtime
        except OSError:          # removed meanwhile by another bench's pruning
            return 0.0

    try:
        dirs = sorted((d for d in root.iterdir() if d.is_dir()), key=mtime, reverse=True)
    except OSError:
        return
    used = 0
    for k, d in enumerate(dirs):
        if d == mine:
            continue
        used += _size(d)
        if k >= KEEP_RUNS or used > KEEP_BYTES:
            shutil.rmtree(d, ignore_errors=True)
