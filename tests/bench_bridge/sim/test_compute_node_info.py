"""TilingContext::GetComputeNodeInfo (exe_graph/runtime/compute_node_info.h): instances grouped by IR
input/output, as a TilingFunc reads a dynamic (tensor-list) input's size. Expected values by hand."""
from __future__ import annotations

from pathlib import Path

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


def test_instances_are_grouped_by_ir_index(tmp_path):
    res = build([HERE / "cpp" / "compute_node_info.cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path)
    assert r.ok, r.stderr
    assert r.stdout.splitlines() == [
        "name=Demo type=DemoType ir_in=4 ir_out=2 in=5 out=3",
        "in0 start=0 num=1",  # x
        "in1 start=1 num=3",  # xs: the list of three
        "in2 start=4 num=0",  # bias: optional, absent -> no instance, starts where y does
        "in3 start=4 num=1",  # y
        "out0 start=0 num=1",
        "out1 start=1 num=2",
        # DT_FLOAT16 = 1, DT_INT32 = 3 (ge::DataType numbering)
        "td2=1 td4=3 null_ir=1 null_td=1 attrs=1",
    ]
