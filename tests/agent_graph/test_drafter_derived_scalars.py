"""Numbers a reference computes in Python from its forward float arguments (``-beta * x``, ``gain * beta``,
``1 - gain``): the host computes them from the runtime attributes (in double, from each value as written, as
Python computes them) and hands them to the kernel, so cases with other values (zeros, -1, two arguments of equal
value) share one kernel; a mode flag and the float16 code path choose kernels by key, and the
host reads only those. The rule (``canonical._derived``) by hand; the team task drafted, built and verified."""
from pathlib import Path

from agent_graph.drafter.analysis import ScaledAttr
from agent_graph.drafter.canonical import _derived, _perturbed
from tests.agent_graph.drafter_checks import assert_verified, write_reference

TASK = Path(__file__).resolve().parents[1] / "data" / "tasks" / "input_groups" / "derived_scalars.py"


def _moved(attrs: dict[str, float]) -> dict[str, float]:
    return {name: _perturbed(v, k) for k, (name, v) in enumerate(attrs.items())}


def _fit(attrs: dict[str, float], fn):
    """What ``_derived`` reads a constant ``fn(values)`` as, from the two exports' values."""
    moved = _moved(attrs)
    return _derived(attrs, moved, fn(attrs), fn(moved))


def test_a_negation_an_offset_and_a_product_by_hand():
    attrs = {"beta": 2.0, "gain": 0.5}
    assert _fit(attrs, lambda v: -v["beta"]) == ScaledAttr((("beta", 1),), -1.0, 0.0)
    assert _fit(attrs, lambda v: 1 - v["gain"]) == ScaledAttr((("gain", 1),), -1.0, 1.0)
    assert _fit(attrs, lambda v: v["beta"] * v["gain"] * 0.5) == ScaledAttr((("beta", 1), ("gain", 1)), 0.5)
    assert _fit(attrs, lambda v: 3.0 / v["beta"]) == ScaledAttr((("beta", -1),), 3.0)


def test_equal_values_and_zeros_still_say_which_argument():
    # beta == gain: only the way each moved tells them apart; gain == 0: the product is 0 in one export only
    assert _fit({"beta": 2.0, "gain": 2.0}, lambda v: -v["gain"]) == ScaledAttr((("gain", 1),), -1.0, 0.0)
    assert _fit({"beta": 4.0, "gain": 0.0}, lambda v: v["beta"] * v["gain"]) == \
        ScaledAttr((("beta", 1), ("gain", 1)), 1.0)


def test_a_number_unrelated_to_the_arguments_is_not_read_as_one():
    attrs = {"beta": 2.0, "gain": 0.5}
    moved = _moved(attrs)
    assert _derived(attrs, moved, 0.731, 0.919) is None


def test_derived_numbers_share_one_kernel_per_mode(tmp_path):
    d = assert_verified(TASK, tmp_path)
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    dispatch = host[host.index("uint32_t key = 0;"):host.index("if (key == 0)")]
    # the mode chooses the kernel; no rank, unit dimension or value of a float argument does
    assert "if (keep)" in dispatch and "rank0" not in dispatch and "unitDims" not in dispatch
    assert "beta ==" not in dispatch and "gain ==" not in dispatch
    tiling = next(t for p, t in d.plan.files.items() if p.endswith("_tiling.h"))
    for number in ("-beta", "beta * gain", "1 - gain", "0.5 * beta * gain"):      # one tiling number each
        assert f"));   // {number}\n" in host and f"// {number} (the host computes it)" in tiling
    assert "static double AsWritten(float value)" in host and "-attr0_" not in kernel and "attr0_ * attr1_" not in kernel
    assert "-2.5f" not in kernel and "0.375f" not in kernel    # no case's own value of -beta or beta*gain*0.5


def test_a_template_that_takes_no_runtime_expression_still_plans_one_case(tmp_path):
    # a column sum's epilogue takes numbers, not attribute expressions: with one case, 1 - alpha is its value
    ref = write_reference(tmp_path, "x.sum(dim=0) * (1 - alpha)", "torch.randn(12, 40), 0.25", sig="x, alpha: float")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "0.75f" in kernel


def test_a_number_derived_from_an_attribute_is_rounded_once_from_the_value_written(tmp_path):
    """``m.lerp(g, 1 - beta1)`` in bfloat16 with beta1 = 0.9: Python computes 1 - 0.9 in double and PyTorch
    rounds it to float once (0.1f); the attribute reaches the op as the float 0.9f, and 1.0f - 0.9f is three float
    ulps from 0.1f, enough to move about 30 of these 6,600 bfloat16 results by one bfloat16 ulp (beyond the 1e-3
    tolerance; the kernel computed it so before). The host computes it from 0.9 as written, in double."""
    ref = write_reference(tmp_path, "m.lerp(g, 1 - beta1)",
                          "torch.randn(33, 200).bfloat16(), torch.randn(33, 200).bfloat16(), 0.9", sig="m, g, beta1: float")
    d = assert_verified(ref, tmp_path)
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "tiling.set_attr1(static_cast<float>(-AsWritten(tiling.get_attr0()) + 1.0));   // 1 - beta1" in host
