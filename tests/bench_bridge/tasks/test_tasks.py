"""Task formats: csv cases typed like pandas, spec validation, format detection, and the reference
worker run on a team-written NPUKernelBench-format task (with its torch_npu imports)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench_bridge.tasks import TaskError, load_task
from bench_bridge.tasks.csvcases import read_cases

DATA = Path(__file__).resolve().parents[2] / "data" / "tasks"


def test_csv_columns_are_typed_like_pandas(tmp_path):
    f = tmp_path / "test_cases.csv"
    f.write_text("case_id;shape;alpha;n;dtype\n0;[4, 8];2.0;16;float16\n1;[3];0.5;8;float32\n")
    cases = read_cases(f)
    assert [c.id for c in cases] == ["0", "1"]
    assert cases[0].params["alpha"] == 2.0 and isinstance(cases[1].params["alpha"], float)
    assert cases[0].params["n"] == 16 and isinstance(cases[0].params["n"], int)
    assert cases[0].params["shape"] == "[4, 8]"
    assert cases[0].params.dtype == "float16"  # attribute access like a pandas Series


def test_csv_bool_and_float_columns_match_pandas(tmp_path):
    pd = pytest.importorskip("pandas")
    f = tmp_path / "test_cases.csv"
    f.write_text("case_id;affine;training;momentum;eps;k;shape\n"
                 "0;True;1;0.1;1e-5;2.0;[1, 2]\n1;False;0;0.2;1e-6;3.0;[4]\n")
    cases = read_cases(f)
    frame = pd.read_csv(f, sep=";")
    for i, c in enumerate(cases):
        for col in frame.columns:
            want = frame.iloc[i][col]
            want = want.item() if hasattr(want, "item") else want
            got = c.params[col]
            assert got == want and type(got) is type(want), (col, got, want)
    assert cases[0].params["affine"] is True and cases[1].params["affine"] is False
    assert cases[0].params["k"] == 2.0 and isinstance(cases[0].params["k"], float)


def test_csv_malformed_row_names_file_and_line(tmp_path):
    f = tmp_path / "test_cases.csv"
    f.write_text("case_id;shape;dtype\n0;[4];float16\n1;[3]\n")
    with pytest.raises(TaskError, match=r"test_cases.csv:3: expected 3 ';'-separated fields"):
        read_cases(f)


def test_spec_errors_name_the_key(tmp_path):
    (tmp_path / "ref.py").write_text("class Model: pass\n")
    spec = tmp_path / "t.toml"
    spec.write_text('reference = "ref.py"\n[[cases]]\ninputs = [{shape = [4], dtype = "float17"}]\n')
    with pytest.raises(TaskError, match=r"cases\[0\].inputs\[0\]: unknown dtype 'float17'"):
        load_task(spec)
    spec.write_text('reference = "missing.py"\n')
    with pytest.raises(TaskError, match="does not exist"):
        load_task(spec)


def test_spec_inputs_take_values_and_absent_tensors_in_the_forward_order(tmp_path):
    """``{value = ...}`` is the argument itself and ``{absent = true}`` None, in place between the tensors (a
    layer norm's normalized_shape list before an optional weight it is not given)."""
    import torch

    from bench_bridge.tasks.worker import spec_inputs
    (tmp_path / "ref.py").write_text("class Model: pass\n")
    spec = tmp_path / "t.toml"
    spec.write_text('reference = "ref.py"\n[[cases]]\ninputs = [{shape = [2, 8], dtype = "float16"}, {value = [8]}, '
                    '{absent = true}, {shape = [8], dtype = "float16"}]\nargs = [1e-5]\n')
    case = load_task(spec).cases[0]
    vals = spec_inputs(case.params, torch.Generator().manual_seed(0))
    assert [type(v).__name__ for v in vals] == ["Tensor", "list", "NoneType", "Tensor", "float"]
    assert vals[1] == [8] and vals[2] is None and tuple(vals[3].shape) == (8,) and vals[3].dtype == torch.float16


def test_format_detection():
    t = load_task(DATA / "npukb_scaled_add")
    assert t.format == "npukernelbench" and t.project is not None and len(t.cases) == 3
    k = load_task(DATA / "kernelbench_relu.py")
    assert k.format == "kernelbench" and len(k.cases) == 1
    with pytest.raises(TaskError, match="not a task directory"):
        load_task(DATA)


def test_worker_runs_reference_with_npu_imports_and_records_call_order(tmp_path):
    src = tmp_path / "task"
    shutil.copytree(DATA / "npukb_scaled_add", src)
    with (src / "validation" / "test_cases.csv").open("a") as f:
        f.write("3;[16];-1.0;float32\n")  # the reference rejects negative alpha
    task = load_task(src)
    (tmp_path / "task.json").write_text(json.dumps(task.to_json_dict()))
    r = subprocess.run([sys.executable, "-m", "bench_bridge.tasks.worker", "prepare", str(tmp_path / "task.json"), str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    entries = json.loads((tmp_path / "cases.json").read_text())
    e = entries[0]
    assert e["status"] == "ok"
    # ModelNew calls scaled_add(x, y, alpha): two tensors then the scalar attr
    assert e["call"]["name"] == "scaled_add"
    assert [a["kind"] for a in e["call"]["args"]] == ["input", "input", "scalar"]
    x = np.load(tmp_path / e["dir"] / "in_0.npy")
    y = np.load(tmp_path / e["dir"] / "in_1.npy")
    ref = np.load(tmp_path / e["dir"] / "ref_0.npy")
    alpha = e["inputs"][2]["value"]
    np.testing.assert_allclose(ref.astype(np.float32), (x.astype(np.float32) + alpha * y.astype(np.float32)), rtol=2e-3, atol=2e-3)
    # bfloat16 case travels as uint16 bits
    bf = next(en for en in entries if en["params"]["dtype"] == "bfloat16")
    assert bf["inputs"][0]["dtype"] == "bfloat16"
    assert np.load(tmp_path / bf["dir"] / "in_0.npy").dtype == np.uint16
    # the failing case reports the reference's own line
    bad = next(en for en in entries if en["status"] == "error")
    assert "module.py" in bad["message"] and "ValueError" in bad["message"]
