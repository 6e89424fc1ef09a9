"""Attention in the offline drafter: what it refuses, in one sentence naming the op and its shape, and that
differently written references are read as the same attention (plans only: no build; the suite
references under tests/data/drafter/attn_* and sdpa_* are built and verified by the suite tests)."""
from __future__ import annotations

from pathlib import Path

from agent_graph.drafter import Unsupported, draft

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"

DROPOUT_REF = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, dropout_p=0.1, is_causal=True)


def get_inputs():
    return [torch.randn(1, 2, 16, 8), torch.randn(1, 2, 16, 8), torch.randn(1, 2, 16, 8)]


def get_init_inputs():
    return []
'''


def test_dropout_in_training_mode_is_refused_in_one_sentence(tmp_path):
    ref = tmp_path / "attn_dropout.py"
    ref.write_text(DROPOUT_REF)
    d = draft(ref)
    assert isinstance(d, Unsupported)
    msg = str(d)
    assert "\n" not in msg and not d.user_error
    assert "dropout" in msg and "native_dropout" in msg and "[1, 2, 16, 16]" in msg


def test_spellings_of_causal_attention_plan_the_same_kernel_structure():
    """F.scaled_dot_product_attention(is_causal=True), a GPT-style block with a tril buffer and heads split
    from [B, T, C], and bmm + masked_fill(tril == 0): each one causal flash-attention kernel with offset 0."""
    hosts = {}
    for name in ("sdpa_causal", "attn_mha_split", "attn_masked_fill"):
        d = draft(SUITE / name / "kgen-task.toml")
        assert not isinstance(d, Unsupported), str(d)
        assert d.plan.template == "attention"
        files = d.plan.files
        kernel = next(t for p, t in files.items() if p.startswith("op_kernel/"))
        hosts[name] = next(t for p, t in files.items() if p.endswith(".cpp") and p.startswith("op_host/"))
        assert "constexpr bool CAUSAL = true;" in kernel
        assert "set_causalOffset(static_cast<int32_t>(0))" in hosts[name]
    assert "[B, S, H * D]" in hosts["attn_mha_split"]            # heads split from the embedding
    assert "1.0f / std::sqrt(static_cast<float>(D))" in hosts["attn_mha_split"]
    assert "[B, S, D] (one head)" in hosts["attn_masked_fill"]    # bmm over [N, S, D]
