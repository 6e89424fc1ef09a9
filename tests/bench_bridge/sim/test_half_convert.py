"""half <-> bfloat16_t conversions in kernel code (kgen_sim/half.h), checked against torch's own
rounding of the same values (float -> float16 -> bfloat16 and float -> bfloat16 -> float16)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


def test_half_to_bf16_and_back_round_like_torch(tmp_path):
    res = build([HERE / "cpp" / "half_convert.cpp"], include_dirs=[HERE / "cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    x = np.array([0.0, 1.1, -3.14159, 65504.0, 1e-5, 0.33333, 1234.567, -0.0078125], dtype=np.float32)
    x.tofile(tmp_path / "x.bin")
    r = run(res.binary, ["convert"], cwd=tmp_path)
    assert r.ok, r.stderr
    h2b = np.fromfile(tmp_path / "h2b.bin", dtype=np.uint16)
    b2h = np.fromfile(tmp_path / "b2h.bin", dtype=np.uint16)
    t = torch.from_numpy(x)
    want_h2b = t.to(torch.float16).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
    want_b2h = t.to(torch.bfloat16).to(torch.float16).view(torch.int16).numpy().view(np.uint16)
    np.testing.assert_array_equal(h2b, want_h2b)
    np.testing.assert_array_equal(b2h, want_b2h)
