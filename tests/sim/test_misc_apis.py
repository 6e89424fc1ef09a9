"""Small APIs found missing by running real kernels: PopStackBuffer (all free UB as one tensor),
AscendCUtils (sizes, mask helpers, SetOverflow's CTRL[48] bit), ShapeInfo with a DataFormat, and the
lib/<family>/kernel_operator_<x>_intf.h install paths real kernels include."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
import torch

from bench_bridge.sim import INCLUDE_DIR, build
from tests.sim.harness import SimProgram

prog = SimProgram.fixture("misc_apis.cpp")
UB = 196608  # Unified Buffer bytes of a dav-2201 vector core


@pytest.mark.parametrize("reserve", [1024, 4000, 65536])
def test_pop_stack_buffer_is_the_rest_of_ub(prog, reserve):
    x = np.linspace(-6, 6, 256, dtype=np.float32)
    res = prog.run("popstack", x=x, reserve=reserve)
    ok, size, offset = res.out("out", np.uint32)[:3].tolist()
    start = (reserve + 31) // 32 * 32          # the next 32-byte boundary after TPipe's buffers
    assert ok == 1 and offset == start and size == (UB - start) // 4
    ref = torch.sigmoid(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(res.out("y", np.float32)[:256], ref, rtol=1e-6, atol=1e-7)


def test_pop_stack_buffer_with_nothing_left(prog):
    res = prog.run("popstack", x=np.zeros(256, np.float32), reserve=UB)
    assert res.out("out", np.uint32)[0] == 0
    assert [d.code for d in res.warnings] == ["popstack-no-room"]


def test_ascendc_utils(prog):
    x = np.arange(64, dtype=np.float32)
    res = prog.run("utils", x=x)
    assert res.out("out", np.int32).tolist() == [16, 32, 16, 8, 8, 1, 0, 1]
    y = res.out("y", np.float32)
    lanes = np.array([(0xF0F0 >> i) & 1 for i in range(64)], bool)  # SetMask(high 0, low 0xF0F0)
    ref = np.where(lanes, x + 100, x)
    ref[:20] *= 2                                                     # then SetMask<float>(20): lanes 0..19
    np.testing.assert_array_equal(y, ref)


@pytest.mark.parametrize("form,expect", [
    (0, [2, 2, 0, 48, 32, 0, 0, 48, 32, 0, 0]),        # (dim, shape): ND, original = shape
    (1, [4, 4, 1, 2, 3, 16, 16, 2, 3, 16, 16]),        # (dim, shape, NZ)
    (2, [4, 2, 1, 2, 3, 16, 16, 48, 32, 0, 0]),        # (dim, shape, oriDim, oriShape, NZ)
])
def test_shape_info_forms(prog, form, expect):
    res = prog.run("shapeinfo", form=form)
    assert res.out("out", np.uint32).tolist() == expect


def test_shape_info_too_many_dimensions(prog):
    res = prog.run("shapeinfo", form=3, expect_ok=False)
    assert res.errors and res.errors[0].code == "shapeinfo-dim"
    assert res.errors[0].file.endswith("misc_apis.cpp")


@pytest.mark.slow
def test_every_lib_install_path_compiles():
    """Each header under include/lib/ (the install layout kernels include) builds in one program."""
    headers = sorted(str(p.relative_to(INCLUDE_DIR)) for p in (Path(INCLUDE_DIR) / "lib").rglob("*.h"))
    assert "lib/sigmoid/kernel_operator_sigmoid_intf.h" in headers and "lib/math/kernel_operator_power_intf.h" in headers
    src = Path(tempfile.mkdtemp(prefix="kt-lib-")) / "all_lib.cpp"
    src.write_text("".join(f'#include "{h}"\n' for h in headers) + "int main() { return 0; }\n")
    res = build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics)
