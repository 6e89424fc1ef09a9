"""Latency on a ~500-line kernel: diagnostics (parse + every check) and hover, in-process and over
stdio. The budget in the issue is 100 ms for diagnostics; the asserts leave room for a loaded CI box
and the measured medians are printed (pytest -s)."""
from __future__ import annotations

import statistics
import time

from lsp.checks import run
from lsp.hover import hover
from lsp.parse import parse, reparse
from tests.lsp.client import ROOT, LspClient
from tests.lsp.kernels import big_kernel


def _median_ms(fn, n=15):
    fn()
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1000)
    return statistics.median(ts)


def test_diagnostics_and_hover_latency_in_process():
    text = big_kernel(500)
    assert text.count("\n") >= 500
    diag = _median_ms(lambda: run(parse(text)))
    line = text.split("\n").index(next(l for l in text.split("\n") if "AscendC::DataCopy(x" in l))
    col = text.split("\n")[line].index("DataCopy") + 2
    unit = parse(text)
    hov = _median_ms(lambda: hover(unit, line, col))
    assert hover(unit, line, col) is not None
    off = unit.offset(line, col)
    units = [parse(text) for _ in range(16)]
    incr = _median_ms(lambda: run(reparse(units.pop(), [(((line, col), (line, col)), " ")])))
    print(f"\n500-line kernel: diagnostics {diag:.1f} ms, hover {hov:.2f} ms, edit+reparse+checks {incr:.1f} ms")
    assert off > 0
    assert diag < 100 * 3          # 100 ms budget, x3 for a shared 2-core box
    assert hov < 50


def test_latency_over_stdio():
    text = big_kernel(500)
    c = LspClient(timeout=20)
    try:
        c.initialize()
        warm = (ROOT / "tests/lsp/data/warm.asc").as_uri()     # the server has warmed up once this answers
        c.open(warm, "void f() {}\n")
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == warm)
        uri = (ROOT / "tests/lsp/data/big.asc").as_uri()
        t0 = time.perf_counter()
        c.open(uri, text)
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
        first = (time.perf_counter() - t0) * 1000
        line = text.split("\n").index(next(l for l in text.split("\n") if "AscendC::DataCopy(x" in l))
        ts = []
        for _ in range(10):
            t0 = time.perf_counter()
            r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 22}})
            ts.append((time.perf_counter() - t0) * 1000)
            assert r is not None
        hov = statistics.median(ts)
        print(f"\nstdio, 500 lines: didOpen -> publishDiagnostics {first:.0f} ms, hover round trip {hov:.1f} ms")
        assert first < 1000 and hov < 200
    finally:
        c.close()
