"""TilingBaseClass (tiling/tiling_base.h): the working fields derived classes share (blockDim_,
workspaceSize_, tilingKey_) and the step order of DoTiling. Expected values by hand."""
from __future__ import annotations

from pathlib import Path

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


def test_derived_class_fills_the_shared_fields(tmp_path):
    res = build([HERE / "cpp" / "tiling_base_fields.cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path)
    assert r.ok, r.stderr
    # 1000 rows / 32 per core = 32 cores (<= 40: key 1); workspace 16 MiB + 32 * 64 bytes
    assert r.stdout.strip() == f"status=0 key=1 block=32 ws={16 * 1024 * 1024 + 32 * 64}"
