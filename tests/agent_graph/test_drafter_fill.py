"""Results of one value (``zeros_like(x)``, ``torch.full(x.shape, v)``, ``x.new_ones(x.shape)``) and inputs the
program never reads: drafted, built and verified on the emulator; the kernel copies in nothing it does not read and
its Init binds only what it uses; a one-value result of a shape no input has is refused in one sentence."""
import re
from pathlib import Path

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference


def _kernel(d) -> str:
    return next(t for p, t in d.files.items() if p.startswith("op_kernel/"))


def test_zeros_like_writes_zeros_without_reading_its_input(tmp_path):
    # odd size (37 x 300: a tail in the last 32-byte block); the values of x must not matter (inf and nan in it)
    ref = write_reference(tmp_path, "torch.zeros_like(x)",
                          "torch.tensor([float('inf'), float('nan')]).repeat(5550)[:11100].reshape(37, 300)")
    d = assert_verified(ref, tmp_path)
    kernel = _kernel(d)
    assert "Duplicate(" in kernel and "0.0f" in kernel
    assert "DataCopyPad(xt" not in kernel and "iq0_" not in kernel      # nothing copied in
    assert re.search(r"Init\(GM_ADDR y\b", kernel), "Init binds only the output"


def test_full_and_ones_results_in_half(tmp_path):
    # three outputs of one value each, three spellings, float16
    ref = write_reference(tmp_path, "torch.full(x.shape, 2.5, dtype=x.dtype), x.new_ones(x.shape), "
                          "torch.full_like(x, -3.0)", "torch.randn(3, 5, 7).half()")
    d = assert_verified(ref, tmp_path)
    assert [n.op for n in d.plan.graphs[0].nodes].count("fill") == 3


def test_an_unused_forward_input_is_neither_bound_nor_copied(tmp_path):
    ref = write_reference(tmp_path, "x * 2 + 1", "torch.randn(33, 65), torch.randn(33, 65)", sig="x, unused")
    d = assert_verified(ref, tmp_path)
    kernel = _kernel(d)
    entry = re.search(r"__global__ __aicore__ void \w+\(([^)]*)\)", kernel).group(1)
    assert "GM_ADDR unused" in entry                      # the op's signature keeps it
    init = re.search(r"void Init\(([^)]*)\)", kernel).group(1)
    assert "unused" not in init and "xg1_" not in kernel and "iq1_" not in kernel


def test_a_list_of_zeros_like(tmp_path):
    # the foreach template: the input list is never read, each output item written with zeros
    ref = write_reference(tmp_path, "[torch.zeros_like(x) for x in xs]",
                          "[torch.randn(4, 6), torch.randn(9).half().float(), torch.randn(1)]", sig="xs")
    d = assert_verified(ref, tmp_path)
    assert d.plan.template == "foreach"
    assert "xsList_" not in _kernel(d)


def test_a_constant_result_of_another_shape_is_refused(tmp_path):
    ref = write_reference(tmp_path, "torch.zeros(x.shape[0], 2 * x.shape[1])", "torch.randn(4, 6)")
    d = draft(ref)
    assert isinstance(d, Unsupported)
    assert "aten.full" in d.reason and "of shape [4, 12]" in d.reason, d.reason



def test_a_number_computed_from_a_one_value_tensor_fills_the_result(tmp_path):
    # ones_like(x) * 3 folds to a number (no tensor op): the result is filled with it; bfloat16, odd 3-D shape
    ref = write_reference(tmp_path, "torch.zeros(x.size(), dtype=x.dtype), torch.ones_like(x) * 3",
                          "torch.randn(7, 13, 5).bfloat16()")
    d = assert_verified(ref, tmp_path)
    assert _kernel(d).count("Duplicate(") == 2


def test_a_result_of_a_shape_the_call_passes_holds_a_one_element_input(tmp_path):
    # team task: torch.full(shape, value.item(), dtype=value.dtype) (NPUKernelBench's Fill kind): int32, float16,
    # bfloat16, float32 (value.item() is a double on the way: the round trip is exact) and bool (the export keeps a
    # bool item as it is); shapes [1] to [3, 5, 7]; one kernel reads the value, the host sizes by the output
    d = assert_verified(Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_fill_value", tmp_path)
    kernel = _kernel(d.plan)
    assert "sv0_ = static_cast<float>(xg0_.GetValue(0));" in kernel and "DataCopyPad(xt0" not in kernel
    assert "GetOutputShape(0)" in next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
