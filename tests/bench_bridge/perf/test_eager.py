"""The modelled eager baseline: each aten op as a library kernel with its copies AND its vector work.

Expected times are computed here by hand from the cost table (launch, block start, scalar issue,
DMA, vector repeats), or compared between ops whose difference the rules fix.
"""
from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")

from bench_bridge import perf  # noqa: E402
from bench_bridge.perf.costs import load  # noqa: E402
from bench_bridge.perf.eager_kernel import Stream, library_launch  # noqa: E402
from bench_bridge.perf.eager_ops import recipe  # noqa: E402

C = load("910B2")


def test_one_block_exp_matches_a_hand_computed_timeline():
    """8 float32 elements: one 32-byte block on one core, one tile. Scalar issue in program order
    (one InitBuffer per queue first),
    each copy = issue + bytes/rate then its DMA latency, the Exp waits for the copy-in (DeQue),
    the copy-out waits for the Exp (VECOUT DeQue)."""
    base = perf.eager_baseline(torch.exp, torch.randn(8))
    assert [o.name for o in base.ops] == ["exp"] and base.ops[0].ins == [[8, 4]] and base.ops[0].outs == [[8, 4]]
    s, lat, sync = C.scalar_issue_cycles, C.mte_latency_cycles, C.sync_cycles
    rate2 = min(C.mte2_gm_bytes_per_cycle, C.hbm_bytes_per_cycle)   # one active core: its own MTE rate
    rate3 = min(C.mte3_gm_bytes_per_cycle, max(C.mte2_gm_bytes_per_cycle, C.mte3_gm_bytes_per_cycle))
    # two InitBuffer (input and output queue), AllocTensor, then the DataCopy issued at 4s
    copy_in_end = 4 * s + C.mte_issue_cycles + 32 / rate2
    exp_start = copy_in_end + lat + sync                            # DeQue: the data has landed
    exp_end = exp_start + C.vector_startup_cycles + 1 * C.vector_cycles_per_repeat("Exp")
    out_start = exp_end + sync                                      # VECOUT DeQue
    block = out_start + C.mte_issue_cycles + 32 / rate3 + lat
    expect_us = C.launch_overhead_us + (C.block_start_cycles + block) / C.clock_mhz
    assert base.time_us == pytest.approx(expect_us, rel=1e-9)


def test_a_chain_of_n_elementwise_ops_costs_about_n_single_op_kernels():
    x = torch.randn(128, 1024)
    one = perf.eager_baseline(torch.relu, x).time_us
    chain = perf.eager_baseline(lambda a: torch.relu(torch.relu(torch.relu(torch.relu(a)))), x)
    assert [o.name for o in chain.ops] == ["relu"] * 4
    assert chain.time_us == pytest.approx(sum(chain.per_op_us))
    assert chain.time_us == pytest.approx(4 * one, rel=1e-6)
    mixed = perf.eager_baseline(lambda a: torch.exp(a * 2.0 + 1.0).sigmoid(), x)
    assert len(mixed.ops) == 4
    assert 3.9 * one < mixed.time_us < 4.5 * one


def test_a_compute_heavy_op_costs_more_than_a_copy_of_the_same_size():
    x = torch.randn(100_000)
    copy = perf.eager_baseline(torch.clone, x)
    exp = perf.eager_baseline(torch.exp, x)
    assert copy.ops[0].flops == exp.ops[0].flops            # the old model priced them alike
    assert exp.time_us > copy.time_us
    # the vector work is charged in full: every tile's Exp at the transcendental class's cycles per
    # 256-byte repeat plus the instruction start-up, pipelined behind the copies (fill/drain shows)
    r_exp = recipe("exp", "float32", [4], [4])
    r_cp = recipe("clone", "float32", [4], [4])
    one = [Stream(100_000, 4)]
    ln = library_launch(one, one, r_exp, C)
    t_exp = perf.model.simulate(ln, C)
    t_cp = perf.model.simulate(library_launch(one, one, r_cp, C), C)
    vec = [e for b in ln.blocks for e in b.events if e.pipe == "V"]
    assert sum(e.bytes for e in vec) == 100_000 * 4
    assert sum(b.busy["V"] for b in t_exp.blocks) == pytest.approx(
        sum(C.vector_startup_cycles + math.ceil(e.bytes / 256) * 4 for e in vec))   # Exp: 4 cycles/repeat
    assert all(b.busy["V"] == 0 for b in t_cp.blocks)
    assert t_exp.makespan > t_cp.makespan


def test_memory_bound_ops_approach_the_hbm_bound_at_large_sizes():
    x = torch.randn(4_000_000)
    base = perf.eager_baseline(torch.exp, x)
    hbm_us = 2 * x.numel() * 4 / C.peak_gm_bytes_per_s * 1e6
    # the model's HBM sharing settles within 2% of the bandwidth (model.simulate's fixed point)
    assert hbm_us / 1.02 + C.launch_overhead_us < base.time_us < 1.1 * (hbm_us + C.launch_overhead_us)


def test_compute_dtype_rules():
    # fp16 element-wise: native half; fp16 softmax/layer_norm/sum: float32 with casts in and out
    assert recipe("add", "float16", [2, 2], [2]).compute_bytes == 2 and not recipe("add", "float16", [2, 2], [2]).widen
    for name in ("_softmax", "native_layer_norm", "sum", "mse_loss"):
        r = recipe(name, "float16", [2], [2])
        assert r.widen and r.compute_bytes == 4, name
    # bf16: no bfloat16 vector arithmetic on A2 -> float32 for every computing op, copies stay 16-bit
    assert recipe("add", "bfloat16", [2, 2], [2]).widen
    assert not recipe("clone", "bfloat16", [2], [2]).widen and recipe("clone", "bfloat16", [2], [2]).apis == ()
    assert recipe("_to_copy", "float16", [2], [4]).apis == ("Cast",)
    assert not recipe("no_such_op", "float32", [4], [4]).known


def test_fp16_transcendental_activations_compute_in_float_like_ops_nn_sigmoid():
    # ops-nn's Atlas A2 Sigmoid kernel: half -> float Cast, Muls(-1), Exp, Adds(1), Div, Cast back (RINT)
    r = recipe("sigmoid", "float16", [2], [2])
    assert r.widen and r.compute_bytes == 4 and r.apis == ("Muls", "Exp", "Adds", "Div")
    x16 = torch.randn(64, 32, dtype=torch.float16)
    ops = perf.eager_baseline(lambda t: torch.nn.functional.gelu(t, approximate="tanh"), x16).ops
    assert [o.name for o in ops] == ["gelu_tanh"]          # the tanh form has its own recipe: x / (1 + exp(-2u))
    assert recipe("gelu_tanh", "float16", [2], [2]).apis == ("Mul", "Mul", "Axpy", "Muls", "Exp", "Adds", "Div")
    for name in ("gelu", "gelu_tanh", "silu", "tanh", "exp", "elu", "softplus"):
        assert recipe(name, "float16", [2], [2]).widen, name
    for name in ("relu", "leaky_relu", "clamp", "hardswish", "maximum", "where"):   # arithmetic/selection: native half
        assert not recipe(name, "float16", [2], [2]).widen, name
    ins, outs = [Stream(19200, 2)], [Stream(19200, 2)]
    ev = library_launch(ins, outs, recipe("sigmoid", "float16", [2], [2]), C).blocks[0].events
    assert [e.api for e in ev if e.pipe == "V"] == ["Cast", "Muls", "Exp", "Adds", "Div", "Cast"]
    assert all(e.elem == 4 for e in ev if e.pipe == "V" and e.api != "Cast")


def test_a_high_level_math_api_costs_the_passes_the_emulator_traces_for_it():
    # the emulator traces Erf(dst, src, n) on float as 3 live temporary nodes + 1 = 4 passes over the data
    ins, outs = [Stream(4096, 4)], [Stream(4096, 4)]
    ev = library_launch(ins, outs, recipe("erf", "float32", [4], [4]), C).blocks[0].events
    erf = [e for e in ev if e.api == "Erf"]
    per_tile = sum(e.bytes for e in ev if e.pipe == "MTE2")
    assert erf and erf[0].bytes == 4 * per_tile


def test_widened_bf16_add_pays_the_casts_that_fp16_does_not():
    x16 = torch.randn(64, 300, dtype=torch.float16)
    xb = x16.to(torch.bfloat16)
    ops16 = perf.eager_baseline(torch.add, x16, x16.clone()).ops
    opsb = perf.eager_baseline(torch.add, xb, xb.clone()).ops
    r16 = recipe("add", ops16[0].dtype, [2, 2], [2])
    rb = recipe("add", opsb[0].dtype, [2, 2], [2])
    ins, outs = [Stream(19200, 2)] * 2, [Stream(19200, 2)]
    casts = lambda r: [e for e in library_launch(ins, outs, r, C).blocks[0].events if e.api == "Cast"]  # noqa: E731
    assert casts(r16) == [] and len(casts(rb)) == 3                  # two inputs widened, one output narrowed
    assert perf.eager.op_time_us(opsb[0], C) > perf.eager.op_time_us(ops16[0], C)


def test_every_core_gets_whole_32_byte_blocks():
    ln = library_launch([Stream(1000, 2)], [Stream(1000, 2)], recipe("exp", "float16", [2], [2]), C)
    copies = [sum(e.bytes for e in b.events if e.pipe == "MTE2") for b in ln.blocks]
    assert sum(copies) == 2000 and len(ln.blocks) <= C.vector_cores
    assert all(c % 32 == 0 for c in copies[:-1])


def test_recorded_ops_round_trip_through_json_like_dicts():
    """bench_case rebuilds EagerOp(**dict) from the worker's JSON: the new fields survive."""
    import json

    from bench_bridge.perf.eager import EagerOp, from_ops

    base = perf.eager_baseline(lambda a: torch.softmax(a, -1), torch.randn(16, 100, dtype=torch.float16))
    ops = [EagerOp(**json.loads(json.dumps(dict(o.__dict__)))) for o in base.ops]
    again = from_ops(ops, base.input_bytes, base.output_bytes, C)
    assert again.time_us == pytest.approx(base.time_us)
    # an op recorded without its tensors (older reports) is priced by bytes as before
    old = EagerOp("add", 4000, 2000, 1000.0)
    assert perf.eager.op_time_us(old, C) > C.launch_overhead_us


def test_a_row_reduction_of_long_rows_needs_block_then_whole_reduce():
    # one ReduceSum gives one value per call: per-row sums of rows longer than one 256-byte repeat take
    # BlockReduceSum over the tile (one value per 32-byte block) and WholeReduceSum (one value per row)
    r = recipe("sum", "float32", [4], [4])
    long_rows = library_launch([Stream(96 * 256, 4)], [Stream(96, 4)], r, C, row=256).blocks[0].events
    v = [(e.api, e.bytes) for e in long_rows if e.pipe == "V"]
    n = sum(e.bytes for e in long_rows if e.pipe == "MTE2")
    assert v == [("BlockReduceSum", n), ("WholeReduceSum", n // 8)]
    short_rows = library_launch([Stream(96 * 64, 4)], [Stream(96, 4)], r, C, row=64).blocks[0].events
    assert [e.api for e in short_rows if e.pipe == "V"] == ["ReduceSum"]      # a repeat per row: one instruction
    x = torch.randn(96, 256)
    assert perf.eager_baseline(lambda t: t.sum(-1), x).ops[0].row == 256
    assert perf.eager_baseline(lambda t: torch.softmax(t, -1), x).ops[0].row == 256
    assert perf.eager_baseline(torch.relu, x).ops[0].row == 0
    assert perf.eager_baseline(lambda t: t.sum(0), x).ops[0].row == 0           # an inner dimension: column adds
    assert perf.eager_baseline(lambda t: torch.argmax(t, dim=-1), x).ops[0].row == 256


def test_fused_sdpa_is_priced_as_the_eager_kernels_of_its_math():
    """The CPU runs F.scaled_dot_product_attention as one fused call; eager mode on the NPU is modelled as
    q k^T (cube), the scale, the causal mask, the row softmax and P v (cube), as a hand-written reference
    records them, each kernel's bytes and flops from the shapes."""
    import math

    import torch
    import torch.nn.functional as F

    from bench_bridge.perf.eager import record_ops

    q, k, v = torch.randn(2, 3, 40, 16), torch.randn(2, 3, 56, 16), torch.randn(2, 3, 56, 16)
    ops, out = record_ops(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=True), q, k, v)
    assert [o.name for o in ops] == ["bmm", "mul", "add", "_softmax", "bmm"]
    assert [o.cube for o in ops] == [True, False, False, False, True]
    scores = 2 * 3 * 40 * 56
    assert ops[0].flops == 2.0 * scores * 16 and ops[0].write_bytes == scores * 4
    assert ops[3].row == 56 and ops[3].ins == [[scores, 4]]
    assert ops[4].flops == 2.0 * (2 * 3 * 40 * 16) * 56 and ops[4].write_bytes == out.numel() * 4
    manual, _ = record_ops(lambda a, b, c: torch.softmax(a @ b.transpose(-2, -1) / math.sqrt(16), -1) @ c, q, k, v)
    assert [o.flops for o in manual if o.cube] == [o.flops for o in ops if o.cube]
