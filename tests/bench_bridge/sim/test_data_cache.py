"""DataCacheCleanAndInvalid (kgen_sim/data_cache.h): both documented forms compile and leave GM as
the scalar stores wrote it (expected values computed here)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


def test_flush_then_dma_read_sees_scalar_stores(tmp_path):
    res = build([HERE / "cpp" / "data_cache.cpp"], include_dirs=[HERE / "cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, ["dcci"], cwd=tmp_path)
    assert r.ok, r.stderr
    out = np.fromfile(tmp_path / "out.bin", dtype=np.int32)
    np.testing.assert_array_equal(out, np.tile(2 * (10 + np.arange(8)), 4))
