"""The same math written three ways drafts to verified kernels (issue 17's spelling suite).

Each operator is written as a functional call, as a tensor method or module (with its scalar as a module
attribute given to ``__init__``) and decomposed by hand (with its scalar as a forward argument). The
canonical front end (core ATen through ``torch.export``) reads what the torch.fx front end's spellings
miss; every spelling is drafted, built and verified on the emulator against its own reference.
"""
from __future__ import annotations

import textwrap

import pytest

from tests.agent_graph.drafter_checks import assert_verified

HEADER = "import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

# op -> (input expressions, [(spelling, __init__ args, init body, forward signature, forward body, forward extras)])
X = "torch.randn(7, 129)"
SPELLINGS: dict[str, tuple[list[str], list[tuple[str, str, str, str, str, list[str]]]]] = {
    "leaky_relu": ([X], [
        ("functional", "", "", "x", "F.leaky_relu(x, 0.1)", []),
        ("module", "slope", "self.act = nn.LeakyReLU(slope)", "x", "self.act(x)", []),
        ("by_hand", "", "", "x, slope", "torch.where(x > 0, x, x * slope)", ["0.1"])]),
    "elu": ([X], [
        ("functional", "", "", "x", "F.elu(x, 0.7)", []),
        ("module", "alpha", "self.act = nn.ELU(alpha=alpha)", "x", "self.act(x)", []),
        ("by_hand", "", "", "x, alpha: float", "F.elu(x, alpha=alpha)", ["0.7"])]),
    "hardtanh": ([X], [
        ("functional", "", "", "x", "F.hardtanh(x, -0.5, 0.5)", []),
        ("method", "lo, hi", "self.lo, self.hi = lo, hi", "x", "x.clamp(self.lo, self.hi)", []),
        ("by_hand", "", "", "x, lo, hi", "x.clamp_min(lo).clamp_max(hi)", ["-0.5", "0.5"])]),
    "softplus": ([X], [
        ("functional", "", "", "x", "F.softplus(x)", []),
        ("module", "", "self.act = nn.Softplus()", "x", "self.act(x)", []),
        ("by_hand", "", "", "x", "torch.log1p(torch.exp(x))", [])]),
    "gelu_tanh": (["torch.randn(16, 96).half()"], [
        ("functional", "", "", "x", 'F.gelu(x, approximate="tanh")', []),
        ("module", "", 'self.act = nn.GELU(approximate="tanh")', "x", "self.act(x)", []),
        ("by_hand", "", "", "x",
         "0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))", [])]),
    "silu": ([X], [
        ("functional", "", "", "x", "F.silu(x)", []),
        ("method", "", "", "x", "x * x.sigmoid()", []),
        ("by_hand", "", "", "x", "x / (1 + torch.exp(-x))", [])]),
    "softmax": ([X], [
        ("functional", "", "", "x", "F.softmax(x, dim=-1)", []),
        ("method", "dim", "self.dim = dim", "x", "x.softmax(self.dim)", []),
        ("by_hand", "", "", "x",
         "torch.exp(x - x.max(dim=-1, keepdim=True).values) / torch.exp(x - x.max(dim=-1, keepdim=True).values)"
         ".sum(-1, keepdim=True)", [])]),
    "log_softmax": ([X], [
        ("functional", "", "", "x", "F.log_softmax(x, -1)", []),
        ("module", "", "self.act = nn.LogSoftmax(dim=1)", "x", "self.act(x)", []),
        ("by_hand", "", "", "x", "x - torch.logsumexp(x, dim=-1, keepdim=True)", [])]),
    "layer_norm": (["torch.randn(6, 200)"], [
        ("functional", "", "", "x", "F.layer_norm(x, (x.shape[-1],), eps=1e-6)", []),
        ("module", "n, eps", "self.ln = nn.LayerNorm(n, eps=eps)", "x", "self.ln(x)", []),
        ("by_hand", "", "", "x, eps: float",
         "(x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + eps)", ["1e-6"])]),
    "rms_norm": (["torch.randn(9, 160)"], [
        ("functional", "", "", "x", "x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)", []),
        ("method", "eps", "self.eps = eps", "x", "x.div(x.square().mean(dim=-1, keepdim=True).add(self.eps).sqrt())", []),
        ("by_hand", "", "", "x, eps: float", "x / torch.sqrt(torch.mean(x * x, dim=-1, keepdim=True) + eps)", ["1e-6"])]),
    "l2_normalize": (["torch.randn(12, 333)"], [
        ("functional", "", "", "x", "F.normalize(x, dim=-1)", []),
        ("method", "", "", "x", "x / x.norm(p=2, dim=1, keepdim=True).clamp_min(1e-12)", []),
        ("by_hand", "", "", "x, eps: float", "x / torch.linalg.vector_norm(x, dim=-1, keepdim=True).clamp(min=eps)",
         ["1e-12"])]),
    "mse_loss": ([X, X], [
        ("functional", "", "", "x, y", "F.mse_loss(x, y)", []),
        ("module", "", "self.loss = nn.MSELoss()", "x, y", "self.loss(x, y)", []),
        ("by_hand", "", "", "x, y", "((x - y) ** 2).mean()", [])]),
    "logsumexp": ([X], [
        ("functional", "", "", "x", "torch.logsumexp(x, dim=-1)", []),
        ("method", "", "", "x", "x.logsumexp(1)", []),
        ("by_hand", "", "", "x",
         "(x - x.amax(-1, keepdim=True)).exp().sum(-1).log() + x.amax(-1, keepdim=True).squeeze(-1)", [])]),
    "reverse_cumsum": ([X], [
        ("functional", "", "", "x", "torch.flip(torch.cumsum(torch.flip(x, [1]), 1), [1])", []),
        ("method", "dim", "self.dim = dim", "x", "x.flip(self.dim).cumsum(self.dim).flip(self.dim)", []),
        ("by_hand", "", "", "x", "x.sum(-1, keepdim=True) - x.cumsum(-1) + x", [])]),
    "addcmul": ([X, X, X], [
        ("functional", "", "", "x, a, b", "torch.addcmul(x, a, b, value=0.5)", []),
        ("method", "v", "self.v = v", "x, a, b", "x.addcmul(a, b, value=self.v)", []),
        ("by_hand", "", "", "x, a, b, v: float", "x + v * a * b", ["0.5"])]),
    "hardsigmoid": (["torch.randn(33, 65) * 4"], [
        ("functional", "", "", "x", "F.hardsigmoid(x)", []),
        ("module", "", "self.act = nn.Hardsigmoid()", "x", "self.act(x)", []),
        ("by_hand", "", "", "x", "F.relu6(x + 3.0) / 6.0", [])]),
    "row_mean": (["torch.randn(5, 3, 40)"], [
        ("functional", "", "", "x", "torch.mean(x, dim=-1)", []),
        ("method", "", "", "x", "x.mean(2)", []),
        ("by_hand", "", "", "x", "x.sum(-1) / x.shape[-1]", [])]),
}
INIT_ARGS = {("leaky_relu", "module"): "[0.1]", ("elu", "module"): "[0.7]", ("hardtanh", "method"): "[-0.5, 0.5]",
             ("softmax", "method"): "[-1]", ("layer_norm", "module"): "[200, 1e-6]", ("rms_norm", "method"): "[1e-6]",
             ("reverse_cumsum", "method"): "[1]", ("addcmul", "method"): "[0.5]"}

CASES = [(op, s[0]) for op, (_, ss) in SPELLINGS.items() for s in ss]


def _reference(op: str, spelling: str) -> str:
    inputs, ss = SPELLINGS[op]
    _, init_sig, init_body, sig, body, extras = next(s for s in ss if s[0] == spelling)
    init = ""
    if init_sig or init_body:
        init = (f"    def __init__(self{', ' + init_sig if init_sig else ''}):\n        super().__init__()\n"
                f"        {init_body or 'pass'}\n\n")
    return (HEADER + "\n\nclass Model(nn.Module):\n" + init + f"    def forward(self, {sig}):\n        return {body}\n\n\n"
            f"def get_inputs():\n    torch.manual_seed(0)\n    return [{', '.join(inputs + extras)}]\n\n\n"
            f"def get_init_inputs():\n    return {INIT_ARGS.get((op, spelling), '[]')}\n")


def test_every_operator_has_three_spellings():
    assert len(SPELLINGS) >= 15
    assert all({s[0] for s in ss} >= {"functional", "by_hand"} and len(ss) == 3 for _, ss in SPELLINGS.values())


@pytest.mark.parametrize("op,spelling", CASES)
def test_spelling_drafts_a_verified_kernel(op, spelling, tmp_path):
    ref = tmp_path / f"{op}_{spelling}.py"
    ref.write_text(textwrap.dedent(_reference(op, spelling)))
    assert_verified(ref, tmp_path)


def test_module_weights_are_op_inputs_and_the_project_benches_on_its_own(tmp_path):
    # a learned per-column scale and a [C]-shaped buffer read from the module (not forward inputs): the op takes
    # them after the forward's tensor, and the written kgen-task.toml lists the forward's tensor only
    ref = tmp_path / "weighted.py"
    ref.write_text(HEADER + textwrap.dedent("""

        class Model(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.scale = nn.Parameter(torch.randn(n))
                self.register_buffer("shift", torch.linspace(-1.0, 1.0, n))

            def forward(self, x):
                return torch.tanh(x * self.scale + self.shift)


        def get_inputs():
            return [torch.randn(13, 72)]


        def get_init_inputs():
            return [72]
        """))
    d = assert_verified(ref, tmp_path, standalone=True)
    assert [p.name for p in d.plan.params.inputs][1:] == ["p_scale", "b_shift"], d.plan.params.inputs
    spec = (tmp_path / "project" / "kgen-task.toml").read_text()
    assert "inputs = [{ shape = [13, 72], dtype = \"float32\" }]" in spec, spec
