"""Host-side API gaps that NPUKernelBench golden answers ran into (issue #3), reproduced by a kgen team
test program (tests/bench_bridge/sim/cpp/npukb_contexts.cpp). Expected values by hand from the documented
behaviour named in each header."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def contexts_out(tmp_path_factory):
    res = build([HERE / "cpp" / "npukb_contexts.cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path_factory.mktemp("ctx"))
    assert r.ok, r.stderr
    return r.stdout.splitlines() + ["STDERR"] + r.stderr.splitlines()


def test_end_tiling_data_def_closes_the_class_with_its_semicolon(contexts_out):
    # int32 at 0, int64 at 8 (aligned to its size) -> 16 bytes
    assert contexts_out[0] == "tiling size=16 mode=3 total=1000"


def test_infer_shape_through_extended_kernel_context(contexts_out):
    # a dynamic list of three inputs is one IR entry with three instances; DT_INT32 = 3
    assert contexts_out[1] == "infer st=0 outs=3 ins=3 ir0=3 name=Demo dt2=3"
    assert contexts_out[2:5] == ["out=2,3", "out=4", "out=5,6,7"]


def test_infer_shape_range_reads_inputs_and_writes_outputs(contexts_out):
    assert contexts_out[5] == "range st=0 null_in=1"
    assert contexts_out[6:8] == ["ymin=1,8,1", "ymax=64,8,1"]


def test_tiling_context_instance_queries_through_the_base(contexts_out):
    # xs starts at instance 1 with 2 instances; bias (IR 2) is absent; w (IR 3) is DT_INT8 = 2; DT_BF16 = 27
    assert contexts_out[8] == "tiling xs=1+2 bias=0 w_dt=2 opt_bias_null=1 dyn1_dt=27 dyn2_null=1"


def test_ops_error_check_macros(contexts_out):
    # y missing -> 1; rank 5 -> 2; rank 2 -> 0; null attrs -> GRAPH_FAILED (0xFFFFFFFF); attrs -> 0
    assert contexts_out[9] == "ops_error 1 2 0 null=4294967295 ok=0"
    err = contexts_out[contexts_out.index("STDERR") + 1:]
    assert "[ERROR] Chk: y is nullptr" in err
    assert "[ERROR] Chk: rank 5 above 4" in err
    assert "[ERROR] Chk: attrs is nullptr" in err
    assert not any("rank 2 ok" in line for line in err)  # debug messages are dropped without KGEN_HOST_LOG=1


def test_ascendc_extern_c_is_empty_outside_op_test_builds(contexts_out):
    assert contexts_out[10] == "extern_c 5 5"


def test_unknown_dim_markers_and_status_codes(contexts_out):
    assert contexts_out[11] == "status 0 4294967295"  # ge::SUCCESS / ge::FAILED after `using namespace ge`
    assert contexts_out[12] == "unknown -1 -2 1 -2 1"


def test_a_list_attribute_read_as_an_int_gives_its_capacity_with_a_warning(contexts_out):
    # CANN's list storage starts with its capacity: GetInt on a 3-element list reads 3 (a hardware run
    # would not stop); the emulator says so
    assert contexts_out[13] == "list_as_int 3 list_size 3"
    err = "\n".join(contexts_out[contexts_out.index("STDERR") + 1:])
    assert "batch_shape" in err and "capacity" in err and "attr-type" in err


def test_a_check_supported_callback_reads_an_empty_graph_operator(contexts_out):
    # ReverseSequence's CheckSupported reads ge::Operator input/output descs and attributes; kgen registers
    # such a callback but never calls it, so an Operator holds nothing (empty shapes, GetAttr fails)
    assert contexts_out[14] == "operator dims=0 y=0 attr=1 seq_dim=7 dt=4"
