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
from tests.bench_bridge.sim.harness import SimProgram

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


# ---- GatherMask -------------------------------------------------------------------------------------
GM = {"gm_f16": (np.float16, np.uint16), "gm_f32": (np.float32, np.uint32), "gm_i32": (np.int32, np.uint32)}
BUILTIN = {1: lambda j: j % 2 == 0, 2: lambda j: j % 2 == 1, 3: lambda j: j % 4 == 0, 4: lambda j: j % 4 == 1,
           5: lambda j: j % 4 == 2, 6: lambda j: j % 4 == 3, 7: lambda j: True}


def gm_ref(x, pat, pattern, counter, mask, rep, blk, srep, prep):
    """The documented selection: element j of repeat r at r*srep blocks + (j // e)*blk blocks + j % e."""
    ts = x.dtype.itemsize
    e, per = 32 // ts, (mask if counter else 256 // ts)
    bits = 8 * pat.dtype.itemsize
    out = []
    for r in range(rep):
        for j in range(per):
            if pattern:
                keep = BUILTIN[pattern](j)
            else:
                word = r * prep * (32 // pat.dtype.itemsize) + j // bits
                keep = (int(pat[word]) >> (j % bits)) & 1
            if keep:
                out.append(x[(r * srep + (j // e) * blk) * e + j % e])
    return np.array(out, x.dtype)


@pytest.mark.parametrize("case", list(GM))
@pytest.mark.parametrize("pattern,counter,mask,rep,blk,srep,prep", [
    (1, 0, 0, 2, 1, 8, 0), (2, 0, 0, 3, 1, 8, 0), (3, 0, 0, 1, 1, 8, 0), (6, 0, 0, 2, 2, 16, 0), (7, 0, 0, 2, 1, 8, 0),
    (0, 0, 0, 2, 1, 8, 0), (0, 0, 0, 2, 1, 8, 1), (2, 1, 70, 2, 1, 8, 0), (7, 1, 30, 3, 1, 4, 0), (0, 1, 45, 2, 1, 8, 0),
])
def test_gather_mask(prog, case, pattern, counter, mask, rep, blk, srep, prep):
    dt, ut = GM[case]
    n = 1024
    rng = np.random.default_rng(pattern * 10 + rep)
    x = (rng.standard_normal(n) * 100).astype(dt) if dt != np.int32 else rng.integers(-999, 999, n).astype(dt)
    pat = rng.integers(0, np.iinfo(ut).max, 64, dtype=np.uint64).astype(ut)
    pat[0] = {np.uint16: 0x9999, np.uint32: 0x99999999}[ut]  # the page's example: elements 0 and 3 of every 4
    res = prog.run(case, x=x, pat=pat, pattern=pattern, counter=counter, mask=mask, rep=rep, blk=blk, srep=srep, prep=prep)
    ref = gm_ref(x, pat, pattern, counter, mask, rep, blk, srep, prep)
    y = res.out("y", dt)
    np.testing.assert_array_equal(y[:ref.size], ref)
    assert res.out("cnt", np.int64)[:3].tolist() == [ref.size] * 3


def test_gather_mask_unpad_form(prog):
    """The UnPad way of using it: counter mode, pattern 7, mask = kept columns, one repeat per row."""
    h, w, keep = 5, 32, 29
    x = np.arange(h * w * 4 // 4 * 8, dtype=np.float16)[:1024]
    res = prog.run("gm_f16", x=x, pat=np.zeros(64, np.uint16), pattern=7, counter=1, mask=keep, rep=h, srep=w * 2 // 32)
    np.testing.assert_array_equal(res.out("y", np.float16)[:h * keep], x[:h * w].reshape(h, w)[:, :keep].reshape(-1))


def test_gather_mask_bad_pattern(prog):
    res = prog.run("gm_f16", x=np.zeros(1024, np.float16), pat=np.zeros(64, np.uint16), pattern=9, rep=1, expect_ok=False)
    assert res.errors and res.errors[0].code == "gathermask-pattern"


def test_user_defined_tbufpool_lays_out_its_own_buffers(prog):
    # EXTERN_IMPL_BUFPOOL: the pool takes its region after the pipe's first buffer (64 bytes); its InitBuffer places a
    # queue, a TBuf and a queue one after another (n floats each); Reset hands the region out again (second round)
    n = 256
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    res = prog.run("extpool", x=x, y=y)
    z = res.out("z", np.float32)
    np.testing.assert_array_equal(z[:n], x + y)
    np.testing.assert_array_equal(z[n:], x * y)
    assert res.out("info", np.uint32).tolist() == [64, 4 * n, 4 * n, 3]
