"""Custom-operator projects on the emulator: describe, build per dtype combination, run cases.

The projects under tests/data/projects/ are written by the kgen team. Every case is checked against a
reference computed here with numpy/torch; tiling bytes are decoded with struct.unpack to check the
host-side layout matches the kernel-side struct.
"""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

import numpy as np
import pytest
import torch

from bench_bridge.project import build_project, describe_project, run_project, snake_case

PROJECTS = Path(__file__).resolve().parents[2] / "data" / "projects"
_CACHE: dict = {}


def project(name: str):
    if name not in _CACHE:
        p = describe_project(PROJECTS / name)
        assert p.ok, "\n".join(d.format() for d in p.diagnostics)
        _CACHE[name] = p
    return _CACHE[name]


def built(name: str, combo: int = 0):
    key = (name, combo)
    if key not in _CACHE:
        b = build_project(project(name), combo)
        assert b.ok, "\n".join(d.format() for d in b.diagnostics)
        _CACHE[key] = b
    return _CACHE[key]


def codes(r):
    return [d.code for d in r.diagnostics if d.severity == "error"]


def ok(r):
    assert r.ok, "\n".join(d.format() for d in r.diagnostics) + (r.run.stderr[-2000:] if r.run else "")
    return r


# ---- describe ----------------------------------------------------------------------------------

def test_snake_case():
    assert snake_case("AddCustom") == "add_custom"
    assert snake_case("Conv2DCustom") == "conv2_d_custom"
    assert snake_case("GatherV2Custom") == "gather_v2_custom"
    assert snake_case("MSELoss") == "mse_loss"


def test_describe_elt_add():
    p = project("elt_add")
    assert p.op_type == "EltAdd" and p.kernel_name == "elt_add"
    assert p.num_combos == 3
    assert [p.combo(k)["x"] for k in range(3)] == ["DT_FLOAT", "DT_FLOAT16", "DT_BF16"]
    assert [i.name for i in p.inputs] == ["x", "y"] and [o.name for o in p.outputs] == ["z"]
    assert all(f == "FORMAT_ND" for f in p.inputs[0].formats)
    assert p.has_infer_shape and p.has_tiling and p.kernel_source.name == "elt_add.cpp"
    c = p.tiling_classes["EltAddTilingData"]
    assert (c.size, [(f["name"], f["offset"]) for f in c.fields]) == (16, [("totalLength", 0), ("perCore", 8), ("tileLength", 12)])
    assert p.default_tiling_class() == "EltAddTilingData"
    assert p.match_combo([np.float16, np.float16]) == 1
    assert p.match_combo([torch.bfloat16, "bfloat16"]) == 2
    assert p.match_combo([np.int32, np.int32]) is None


def test_describe_attrs():
    p = project("scale_shift")
    got = [(a.name, a.kind, a.required, a.has_default, a.default) for a in p.attrs]
    assert got == [("alpha", "float", False, True, 1.0), ("shift", "int", True, False, None), ("relu", "bool", False, True, False),
                   ("mode", "str", False, True, "fast"), ("dims", "list_int", False, True, [1, 2])]


def test_describe_follow_and_format_list():
    p = project("sum_diff")
    assert p.num_combos == 2
    assert p.inputs[1].dtypes == ["DT_FLOAT", "DT_FLOAT16"]      # b follows a
    assert p.outputs[0].formats == ["FORMAT_ND", "FORMAT_ND"]    # FormatList expands to every combination


def test_describe_bad_directory(tmp_path):
    p = describe_project(tmp_path / "nope")
    assert not p.ok and "no such project directory" in p.diagnostics[0].message
    (tmp_path / "proj" / "op_host").mkdir(parents=True)
    p = describe_project(tmp_path / "proj")
    assert not p.ok and "no .cpp" in p.diagnostics[0].message


# ---- elementwise, tails, three dtypes ----------------------------------------------------------

def _elt_blocks(n, itemsize, cores=48):
    align = 32 // itemsize
    blocks = -(-n // align)
    c = max(1, min(cores, blocks))
    per = -(-blocks // c) * align
    return -(-n // per), per


@pytest.mark.parametrize("combo,dt", [(0, torch.float32), (1, torch.float16), (2, torch.bfloat16)])
@pytest.mark.parametrize("shape", [(1,), (1000,), (48 * 4096 + 17,), (3, 333)])
def test_elt_add(combo, dt, shape):
    torch.manual_seed(sum(shape) + combo)
    x, y = torch.randn(shape, dtype=dt), torch.randn(shape, dtype=dt)
    r = ok(run_project(built("elt_add", combo), [x, y], [(shape, dt)]))
    ref = (x.float() + y.float()).to(dt).float().numpy()   # one rounding of the exact float sum (RNE)
    np.testing.assert_array_equal(r.outputs[0].astype(np.float32), ref)
    n = int(np.prod(shape))
    blocks, per = _elt_blocks(n, torch.empty(0, dtype=dt).element_size())
    assert r.block_dim == blocks
    total, per_core, tile = struct.unpack("<QII", r.tiling_bytes)
    assert (total, per_core, tile) == (n, per, 2048 if combo == 0 else 4096)
    assert r.workspace_bytes == 0 and r.tiling_key == 0


def test_no_matching_dtype_combination():
    x = np.ones(64, np.int32)
    r = run_project(built("elt_add", 0), [x, x], [((64,), np.int32)])
    assert not r.ok and codes(r) == ["no-dtype-combination"]
    assert "DT_INT32" in r.diagnostics[0].message and "DT_BF16" in r.diagnostics[0].message


def test_dtype_combination_of_another_build():
    x = np.ones(64, np.float16)
    r = run_project(built("elt_add", 0), [x, x], [((64,), np.float16)])
    assert not r.ok and codes(r) == ["dtype-combination-mismatch"] and "combination 1" in r.diagnostics[0].message


def test_wrong_input_count():
    r = run_project(built("elt_add", 0), [np.ones(8, np.float32)], [((8,), np.float32)])
    assert not r.ok and codes(r) == ["bad-inputs"]


# ---- attributes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n,attrs", [
    (37, {"shift": 3}),
    (1000, {"alpha": -2.5, "shift": -1, "relu": True}),
    (4096, {"alpha": 0.125, "shift": 7, "relu": False, "mode": "precise", "dims": [4, 5, 6]}),
])
def test_scale_shift(n, attrs):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    r = ok(run_project(built("scale_shift"), [x], [((n,), np.float32)], attrs))
    alpha = np.float32(attrs.get("alpha", 1.0))
    ref = (x * alpha).astype(np.float32) + np.float32(attrs["shift"])
    if attrs.get("relu"):
        ref = np.maximum(ref, 0)
    np.testing.assert_array_equal(r.outputs[0], ref)
    total, per, a, shift, relu, mode_len, dims_sum = struct.unpack("<IIfiBB6xq", r.tiling_bytes)
    assert (total, a, shift, relu) == (n, alpha, attrs["shift"], int(attrs.get("relu", False)))
    assert mode_len == len(attrs.get("mode", "fast")) and dims_sum == sum(attrs.get("dims", [1, 2]))


def test_none_for_an_optional_attribute_takes_its_default_and_a_number_for_a_list_is_a_list_of_one():
    # a forward argument left at its default None (F.pad's value in a reflect case); torch.split's
    # split_size_or_sections, an int in some cases and a list in others, declared ListInt
    x = np.arange(64, dtype=np.float32)
    r = ok(run_project(built("scale_shift"), [x], [((64,), np.float32)], {"alpha": None, "shift": 2, "dims": 9}))
    np.testing.assert_array_equal(r.outputs[0], x + 2)            # alpha: the OpDef's default 1.0
    assert struct.unpack("<IIfiBB6xq", r.tiling_bytes)[-1] == 9    # dims: [9]


def test_required_attribute_missing():
    r = run_project(built("scale_shift"), [np.ones(8, np.float32)], [((8,), np.float32)], {})
    assert not r.ok and codes(r) == ["bad-attrs"] and "shift" in r.diagnostics[0].message


def test_unknown_attribute():
    r = run_project(built("scale_shift"), [np.ones(8, np.float32)], [((8,), np.float32)], {"shift": 1, "beta": 2})
    assert not r.ok and codes(r) == ["bad-attrs"] and "beta" in r.diagnostics[0].message


# ---- broadcast, nested tiling struct ------------------------------------------------------------

@pytest.mark.parametrize("rows,cols", [(5, 7), (100, 64), (49, 1000)])
def test_add_row_bias(rows, cols):
    rng = np.random.default_rng(rows * cols)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    b = rng.standard_normal(cols).astype(np.float32)
    r = ok(run_project(built("add_row_bias"), [x, b], [((rows, cols), np.float32)]))
    np.testing.assert_array_equal(r.outputs[0], x + b[None, :])
    per = -(-rows // 48)
    used = -(-rows // per)
    assert r.block_dim == used
    r0, c0, flags, per_t, last = struct.unpack("<IIH2xII", r.tiling_bytes)
    assert (r0, c0, flags, per_t, last) == (rows, cols, 1, per, rows - per * (used - 1))


# ---- row-wise reduction, failing TilingFunc, InferShape check ------------------------------------

@pytest.mark.parametrize("rows,cols", [(1, 5), (100, 300), (97, 2049)])
def test_row_sum(rows, cols):
    x = np.random.default_rng(cols).standard_normal((rows, cols)).astype(np.float32)
    r = ok(run_project(built("row_sum"), [x], [((rows,), np.float32)]))
    np.testing.assert_allclose(r.outputs[0], x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-4)
    assert not [d for d in r.diagnostics if d.code == "infer-shape-mismatch"]


def test_row_sum_tiling_func_fails():
    r = run_project(built("row_sum"), [np.ones((2, 3, 4), np.float32)], [((2,), np.float32)])
    assert not r.ok and "tiling-failed" in codes(r)
    assert "expected a 2-D input" in r.run.stdout


def test_row_sum_infer_shape_mismatch_is_reported():
    x = np.ones((16, 8), np.float32)
    r = run_project(built("row_sum"), [x], [((16, 1), np.float32)])
    assert [d for d in r.diagnostics if d.code == "infer-shape-mismatch" and "[16,]" in d.message]


# ---- multi-output -------------------------------------------------------------------------------

@pytest.mark.parametrize("combo,dt", [(0, np.float32), (1, np.float16)])
@pytest.mark.parametrize("n", [3, 250, 4099])
def test_sum_diff(combo, dt, n):
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n).astype(dt), rng.standard_normal(n).astype(dt)
    r = ok(run_project(built("sum_diff", combo), [a, b], [((n,), dt), ((n,), dt)]))
    np.testing.assert_array_equal(r.outputs[0], (a.astype(np.float32) + b.astype(np.float32)).astype(dt))
    np.testing.assert_array_equal(r.outputs[1], (a.astype(np.float32) - b.astype(np.float32)).astype(dt))


# ---- tiling key ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [8, 1001])
def test_keyed_act(n):
    x = np.random.default_rng(n).uniform(-3, 3, n).astype(np.float32)
    r = ok(run_project(built("keyed_act"), [x], [((n,), np.float32)], {"mode": 0}))
    assert r.tiling_key == 1
    np.testing.assert_allclose(r.outputs[0], np.exp(x.astype(np.float64)), rtol=2e-7)
    r = ok(run_project(built("keyed_act"), [x], [((n,), np.float32)], {"mode": 1}))
    assert r.tiling_key == 2
    np.testing.assert_array_equal(r.outputs[0], np.abs(x))


def test_tiling_key_without_branch():
    r = run_project(built("keyed_act"), [np.ones(8, np.float32)], [((8,), np.float32)], {"mode": 2})
    assert not r.ok and codes(r) == ["tiling-key-unmatched"] and "7" in r.diagnostics[0].message


# ---- workspace ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 777, 20000])
def test_ws_triple(n):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    r = ok(run_project(built("ws_triple"), [x], [((n,), np.float32)]))
    np.testing.assert_array_equal(r.outputs[0], x + np.float32(2) * x)
    assert r.workspace_sizes == [16 * 1024 * 1024 + 4 * n]


# ---- standard C++ struct tiling ------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 100, 3001])
def test_plain_struct_tiling(n):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    r = ok(run_project(built("plain_neg"), [x], [((n,), np.float32)]))
    np.testing.assert_array_equal(r.outputs[0], -x)
    total, per, scale = struct.unpack("<IIf", r.tiling_bytes)
    assert (total, scale) == (n, -1.0) and r.block_dim == -(-n // per)


# ---- build errors are located in the user's files -------------------------------------------------

def test_kernel_compile_error_names_the_file(tmp_path):
    dst = tmp_path / "keyed_act"
    shutil.copytree(PROJECTS / "keyed_act", dst)
    k = dst / "op_kernel" / "keyed_act.cpp"
    k.write_text(k.read_text().replace("AscendC::Abs(v, v, n);", "AscendC::Abs(v, v, undefined_name);"))
    p = describe_project(dst)
    assert p.ok
    b = build_project(p, 0)
    assert not b.ok
    err = [d for d in b.diagnostics if d.severity == "error"][0]
    assert err.file.endswith("op_kernel/keyed_act.cpp") and "undefined_name" in err.message
    assert "AscendC::Abs(v, v, undefined_name)" in k.read_text().splitlines()[err.line - 1]


def test_among_combinations_of_one_dtype_the_nd_one_is_chosen():
    # AddSigmoidMulReduceSumD's OpDef lists FRACTAL_NZ, NHWC and ND for float16 inputs and its tiling branches
    # on the input's format; PyTorch tensors are ND, so the framework runs the ND combination
    from bench_bridge.project.model import OpProject, ParamInfo

    fmts = ["FORMAT_FRACTAL_NZ", "FORMAT_NHWC", "FORMAT_ND"]
    p = OpProject(path=Path("nz"), op_type="Nz", kernel_name="nz", inputs=[ParamInfo("x", "required", ["DT_FLOAT16"] * 3, fmts)],
                  outputs=[ParamInfo("y", "required", ["DT_FLOAT16"] * 3, fmts)])
    assert p.match_combo([np.float16]) == 2
    p.inputs[0].formats = ["FORMAT_FRACTAL_NZ"] * 3
    assert p.match_combo([np.float16]) == 0
