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


# ---- tiling classes: tiling/tiling_base.h + tiling/tiling_templates_registry.h --------------------

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bench_bridge.project import build_project, describe_project, run_project  # noqa: E402

TMPL = HERE.parents[2] / "tests" / "data" / "projects" / "tmpl_scale"


@pytest.fixture(scope="module")
def tmpl_build():
    p = describe_project(TMPL)
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    return b


@pytest.mark.parametrize("n,key,factor", [(1500, 2, 3.0), (300, 1, -0.5)])
def test_registry_tries_classes_in_priority_order(tmpl_build, n, key, factor):
    # priority 10 (TmplScaleLarge) declines n < 1024 with IsCapable() false; priority 20 takes it
    x = np.linspace(-4, 4, n).astype(np.float32)
    r = run_project(tmpl_build, [x], [((n,), np.float32)])
    assert r.ok, "\n".join(d.format() for d in r.diagnostics) + (r.run.stderr[-2000:] if r.run else "")
    assert r.tiling_key == key  # DoTiling set the key from GetTilingKey() of the class that ran
    np.testing.assert_array_equal(r.outputs[0], x * np.float32(factor))
    total, per_core = (int(v) for v in np.frombuffer(r.tiling_bytes[:8], dtype=np.uint32))
    assert total == n and r.block_dim == -(-n // per_core)  # PostTiling of that class wrote the tiling
