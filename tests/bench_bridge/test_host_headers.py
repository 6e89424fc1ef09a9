"""Host-side headers of the emulator that op_host code compiles against (kgen team test programs;
expected values computed by hand)."""
from __future__ import annotations

from pathlib import Path

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


def test_platform_info_brings_std_names_into_scope(tmp_path):
    res = build([HERE / "cpp" / "host_headers.cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path)
    assert r.ok, r.stderr
    assert r.stdout.strip() == "dims=120"  # 4 * 5 * 6
