"""Missing GET_TILING_DATA in a kernel entry that takes a tiling argument, and its fix."""
from __future__ import annotations

from lsp.actions import apply
from lsp.checks import check_text
from lsp.checks.tiling import CODE

K = 'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {{\n{body}}}\n'


def _t(body):
    text = K.format(body=body)
    return text, [f for f in check_text(text) if f.code == CODE]


def test_missing_and_fixed():
    text, (f,) = _t("    KernelX op; op.Init(x);\n")
    assert "GET_TILING_DATA(tilingData, tiling)" in f.message
    assert text[f.span[0]:f.span[1]] == "tiling"
    fixed = apply(text, f.fixes[0])
    assert "{\n    GET_TILING_DATA(tilingData, tiling);\n    KernelX op;" in fixed
    assert [g for g in check_text(fixed) if g.code == CODE] == []


def test_present_is_quiet():
    assert _t("    GET_TILING_DATA(td, tiling);\n")[1] == []


def test_non_kernel_functions_are_quiet():
    text = "__aicore__ inline void helper(GM_ADDR tiling) { }\n"
    assert [f for f in check_text(text) if f.code == CODE] == []
