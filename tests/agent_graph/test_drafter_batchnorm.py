"""Batch norm with batch statistics (template ``batch_norm``, agent_graph/drafter/bnplan.py): the module in
training mode and the functional, its running-statistics update left out of the op, a chain after it, and the
refusals. Verified kernels: the suite references bn_train_2d, bn_train_1d_gelu, bn_functional_half and
staged_linear_batchnorm_relu (tests/data/drafter)."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.canonical import analyse_canonical
from tests.agent_graph.drafter_checks import assert_verified, write_reference


def _ref(tmp: Path, init: str, body: str, inputs: str) -> Path:
    return write_reference(tmp, body, inputs, init)


def test_running_statistics_are_not_op_inputs_or_results():
    """A module's running mean/var/count updates are module state: the op reads x and writes the norm only."""
    m = torch.nn.BatchNorm2d(6)
    g = analyse_canonical(m.train(), [torch.randn(3, 6, 4, 5)])
    assert len(g.inputs) == 1 and g.inputs[0].shape == (3, 6, 4, 5) and len(g.outputs) == 1
    bn = [n for n in g.nodes if n.op == "batch_norm"]
    assert len(bn) == 1 and bn[0].args[1:] == [1.0, 0.0, 1e-5]
    assert all(n.op in ("batch_norm", "identity", "view") for n in g.nodes), [n.op for n in g.nodes]


def test_batch_norm3d_with_momentum_and_a_clamp_verifies(tmp_path):
    """BatchNorm3d (momentum given, eps changed) over [N, C, D, H, W], then a clamp: statistics over N, D, H, W."""
    ref = _ref(tmp_path, "self.bn = nn.BatchNorm3d(5, eps=1e-3, momentum=0.3)", "self.bn(x).clamp(-1.0, 1.5)",
               "torch.randn(3, 5, 4, 6, 7)")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert d.plan.template == "batch_norm" and "constexpr float EPS = 0.001f;" in kernel
    assert "Maxs(row, row, -1.0f, len);" in kernel and "Mins(row, row, 1.5f, len);" in kernel


def test_ops_before_the_norm_are_recomputed_in_each_pass(tmp_path):
    """x * tanh(softplus(x)) (a Mish written out: x read twice) before a BatchNorm2d: the statistics are those
    of the activation, every pass applies it to the rows it loads."""
    ref = _ref(tmp_path, "self.bn = nn.BatchNorm2d(6)", "self.bn(x * torch.tanh(F.softplus(x)))",
               "torch.randn(4, 6, 7, 9)")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert kernel.count("// the ops before the norm") == 2 and "Mul(row, row, v0, len);" in kernel


@pytest.mark.parametrize("init, body, inputs, words", [
    ("self.bn = nn.BatchNorm2d(4)\n                nn.init.uniform_(self.bn.weight)", "self.bn(x)",
     "torch.randn(2, 4, 5, 5)", "per-channel weight or bias"),
    ("", "F.batch_norm(x, None, None, training=True)", "torch.randn(2, 4, 9).bfloat16()", "bfloat16"),
])
def test_batch_norm_forms_outside_the_template_are_refused(tmp_path, init, body, inputs, words):
    d = draft(_ref(tmp_path, init, body, inputs))
    assert isinstance(d, Unsupported) and not d.user_error and words in d.reason, d


@pytest.mark.parametrize("body, inputs", [
    # the batch norm one vector stage, the rest another (each verified 1/1 by kgen generate by hand)
    ("F.batch_norm(x, None, None, training=True).sigmoid()", "torch.randn(2, 4, 9).half()"),   # a 16-bit chain after
    ("torch.softmax(F.batch_norm(x, None, None, training=True), dim=1)", "torch.randn(2, 4, 9)"),
    ("F.batch_norm(x.cumsum(-1), None, None, training=True)", "torch.randn(2, 4, 9)"),       # a scan before
])
def test_batch_norm_with_what_its_template_does_not_take_runs_in_stages(tmp_path, body, inputs):
    d = draft(_ref(tmp_path, "", body, inputs))
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d
