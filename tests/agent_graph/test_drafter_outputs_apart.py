"""References whose results no one template computes together (a norm's gradient: dx row by row, dgamma summed over
the rows), and vector stages whose intermediate result is float32 while the op's input is 16-bit: one staged op,
each result computed by its own stages, drafted, built and verified on the emulator on every case."""
import re

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference, write_spec

RMS_GRAD = ("[dy * gamma * rstd - (dy * gamma * x * rstd.pow(3)).sum(dim=-1, keepdim=True) * x / 96, "
            "(dy * x * rstd).sum(dim=0)]")


def _files(d):
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    host = next(t for p, t in d.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    return kernel, host


def test_a_sum_over_rows_of_a_16bit_product_with_a_float_statistic(tmp_path):
    # dy, x float16, rstd float32 [M, 1]: the product is float32 (type promotion), summed over the rows: a row
    # stage writes the float32 product to the workspace, a column stage sums it
    ref = write_reference(tmp_path, "(dy * x * rstd).sum(dim=0)",
                          "torch.rand(40, 72).half(), torch.rand(40, 72).half(), torch.rand(40, 1)", sig="dy, x, rstd")
    d = assert_verified(ref, tmp_path)
    assert d.plan.template == "staged"
    kernel, host = _files(d)
    assert "ge::DT_FLOAT" in host                       # the intermediate's dtype, not x's
    assert re.search(r"using \w+ = float;", kernel)     # the stages read and write it as float


def test_an_rms_norm_gradient_returns_dx_and_dgamma(tmp_path):
    ref = write_reference(tmp_path, RMS_GRAD, "torch.rand(40, 96), torch.rand(40, 96), torch.rand(40, 1), "
                          "torch.rand(96)", sig="dy, x, rstd, gamma")
    d = assert_verified(ref, tmp_path)
    kernel, host = _files(d)
    assert len(d.plan.params.outputs) == 2
    assert host.count('this->Output("') == 2
    # dx's stage writes the op's first output, dgamma's last stage the second; one intermediate in the workspace
    assert len(re.findall(r"GM_ADDR inter\d+ = workspace", kernel)) == 1


def test_an_rms_norm_gradient_in_bfloat16_with_float_statistics(tmp_path):
    ref = write_reference(tmp_path, RMS_GRAD, "torch.rand(33, 96).bfloat16(), torch.rand(33, 96).bfloat16(), "
                          "torch.rand(33, 1), torch.rand(96)", sig="dy, x, rstd, gamma")
    d = assert_verified(ref, tmp_path)
    assert [o.dtypes for o in d.plan.params.outputs] == [["float32"], ["float32"]]


def test_a_layer_norm_gradient_with_three_results(tmp_path):
    # dx (per row), dgamma and dbeta (over the rows): three results, two of them column sums
    body = ("[(dy * gamma - (dy * gamma).mean(-1, keepdim=True) - (x - mean) * rstd * rstd * "
            "(dy * gamma * (x - mean)).mean(-1, keepdim=True)) * rstd, (dy * (x - mean) * rstd).sum(0), dy.sum(0)]")
    ref = write_reference(tmp_path, body, "torch.rand(24, 64), torch.rand(24, 64), torch.rand(24, 1), "
                          "torch.rand(24, 1) + 0.5, torch.rand(64)", sig="dy, x, mean, rstd, gamma")
    d = assert_verified(ref, tmp_path)
    assert len(d.plan.params.outputs) == 3


def test_results_computed_by_nothing_are_refused(tmp_path):
    # a sort is no template's: the reference's own refusal stands, in one sentence
    ref = write_reference(tmp_path, "[x.sum(0), torch.linalg.svdvals(x)]", "torch.rand(8, 8)")
    d = draft(ref)
    assert isinstance(d, Unsupported) and d.reason and "\n" not in d.reason



def test_a_number_that_is_each_cases_row_length_is_the_kernels_row_length(tmp_path):
    # x / x.shape[-1] traces to 96.0 in one case and 200.0 in the other (same dtype): before, two op graphs
    ref = write_spec(tmp_path, "x - x.sum(-1, keepdim=True) * x / x.shape[-1]", "x",
                [['{ shape = [7, 96], dtype = "float32" }'], ['{ shape = [5, 200], dtype = "float32" }'],
                 ['{ shape = [3, 4, 40], dtype = "float32" }']])
    d = assert_verified(ref, tmp_path / "out")
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert "static_cast<float>(cols_)" in kernel
    assert "96.0" not in kernel and "200.0" not in kernel


def test_a_gradient_over_rows_of_several_lengths(tmp_path):
    # the RMS norm gradient with its row length read from x: dx and dgamma for three sizes, float16 and float32
    body = RMS_GRAD.replace("/ 96", "/ x.shape[-1]")
    t = ['{{ shape = [{m}, {n}], dtype = "{d}" }}', '{{ shape = [{m}, {n}], dtype = "{d}" }}',
         '{{ shape = [{m}, 1], dtype = "float32" }}', '{{ shape = [{n}], dtype = "float32" }}']
    cases = [[s.format(m=m, n=n, d=dt) for s in t] for m, n, dt in ((16, 64, "float16"), (9, 160, "float16"),
                                                                    (12, 96, "float32"))]
    d = assert_verified(write_spec(tmp_path, body, "dy, x, rstd, gamma", cases), tmp_path / "out")
    assert len(d.plan.params.outputs) == 2
