"""Latency of kgen's language server on a ~500-line kernel: diagnostics (parse + every check),
an edit (incremental re-parse + checks), hover and completion, in process; and didOpen ->
publishDiagnostics and hover round trips over stdio against the real server.

    python benchmarks/lsp_latency.py [--lines 500] [--rounds 30]

Goal (issue 9): diagnostics under 100 ms for a 500-line file."""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def timed(fn, rounds: int) -> list[float]:
    fn()
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=30)
    a = ap.parse_args()

    from lsp.checks import run
    from lsp.completion import complete
    from lsp.hover import hover
    from lsp.parse import parse, reparse
    from tests.lsp.client import LspClient
    from tests.lsp.kernels import big_kernel

    text = big_kernel(a.lines)
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "AscendC::DataCopy(x" in l)
    col = lines[line].index("DataCopy") + 2
    unit = parse(text)
    units = [parse(text) for _ in range(a.rounds + 1)]
    rows = [
        ("diagnostics (parse + checks)", timed(lambda: run(parse(text)), a.rounds)),
        ("edit (incremental re-parse + checks)",
         timed(lambda: run(reparse(units.pop(), [(((line, col), (line, col)), " ")])), a.rounds)),
        ("hover", timed(lambda: hover(unit, line, col), a.rounds)),
        ("completion", timed(lambda: complete(unit, line, col), a.rounds)),
    ]
    c = LspClient(timeout=30)
    try:
        c.initialize()
        opens, hovers = [], []
        for i in range(min(a.rounds, 10)):
            uri = (ROOT / f"tests/lsp/data/bench{i}.asc").as_uri()
            t0 = time.perf_counter()
            c.open(uri, text)
            c.wait_notification("textDocument/publishDiagnostics", lambda p, u=uri: p["uri"] == u)
            opens.append((time.perf_counter() - t0) * 1000)
        for _ in range(a.rounds):
            t0 = time.perf_counter()
            c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}})
            hovers.append((time.perf_counter() - t0) * 1000)
        rows += [("stdio: didOpen -> publishDiagnostics", opens), ("stdio: hover round trip", hovers)]
    finally:
        c.close()
    print(f"{len(lines)}-line kernel, {a.rounds} rounds")
    print(f"{'':40s} {'p50 ms':>8s} {'p95 ms':>8s}")
    for name, xs in rows:
        print(f"{name:40s} {statistics.median(xs):8.2f} {pct(xs, 95):8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
