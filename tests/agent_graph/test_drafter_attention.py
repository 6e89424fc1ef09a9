"""Attention in the offline drafter: what it refuses, in one sentence naming the op and its shape, and that
differently written references are read as the same attention (plans only: the suite references under
tests/data/drafter/attn_* and sdpa_* are built and verified by the suite tests), and heads wider than one
128-column tile (built and verified here: the suite runs a quarter of its references by default)."""
from __future__ import annotations

from pathlib import Path

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified

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


def test_heads_wider_than_one_tile_take_fewer_query_rows_per_item(tmp_path):
    # attn_wide_head: heads of 320 (fp32: P V in base blocks of 64 columns) and 1000 (fp16, padded to 1008: blocks
    # of 16 columns); the accumulator of BLOCK_Q rows x the padded head stays in UB, so BLOCK_Q drops to 16
    d = assert_verified(SUITE / "attn_wide_head" / "kgen-task.toml", tmp_path)
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "constexpr uint32_t BLOCK_Q = 16;" in kernel and "AddColumns(acc, pv, rows, c0);" in kernel
    assert "constexpr int32_t BLOCK_Q = 16;" in host and "PvColumns(headPad)" in host


def test_a_head_too_wide_for_the_accumulator_is_refused_in_one_sentence(tmp_path):
    ref = tmp_path / "attn_huge_head.py"
    ref.write_text(DROPOUT_REF.replace(", dropout_p=0.1, is_causal=True", "").replace("16, 8)", "16, 4096)"))
    d = draft(ref)
    assert isinstance(d, Unsupported) and not d.user_error
    msg = str(d)
    assert "\n" not in msg and "head dimension of 4096" in msg and "16 query rows" in msg, msg
