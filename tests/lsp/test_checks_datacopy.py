"""DataCopy of a constant, non-32-byte-aligned length, and the DataCopy -> DataCopyPad fix."""
from __future__ import annotations

from lsp.actions import apply
from lsp.checks import check_text
from lsp.checks.datacopy import CODE

HEAD = """constexpr uint32_t TILE = {n};
AscendC::GlobalTensor<half> xGm;
void f() {{
    AscendC::LocalTensor<half> x;
    AscendC::LocalTensor<float> y;
"""


def _dc(body, n=1024):
    text = HEAD.format(n=n) + body + "}\n"
    return text, [f for f in check_text(text) if f.code == CODE]


def test_unaligned_constant_gm_to_ub_and_fix():
    text, (f,) = _dc("    AscendC::DataCopy(x, xGm, 100);\n")
    assert "100 half elements = 200 bytes" in f.message and "DataCopyPad" in f.message
    fixed = apply(text, f.fixes[0])
    assert ("AscendC::DataCopyPad(x, xGm, AscendC::DataCopyExtParams(1, static_cast<uint32_t>((100) * sizeof(half)), "
            "0, 0, 0), AscendC::DataCopyPadExtParams<half>(false, 0, 0, 0));") in fixed
    assert [g for g in check_text(fixed) if g.code == CODE] == []


def test_unaligned_ub_to_gm_fix_has_no_pad_params():
    text, (f,) = _dc("    AscendC::DataCopy(xGm[8], x, TILE);\n", n=10)
    fixed = apply(text, f.fixes[0])
    assert "AscendC::DataCopyPad(xGm[8], x, AscendC::DataCopyExtParams(1, static_cast<uint32_t>((TILE) * sizeof(half)), 0, 0, 0));" in fixed


def test_constant_expression_and_element_type():
    _, fs = _dc("    AscendC::DataCopy(y, y, TILE / 2 + 1);\n", n=64)    # 33 floats = 132 bytes
    assert len(fs) == 1 and "132 bytes" in fs[0].message
    _, fs = _dc("    AscendC::DataCopy(y, y, TILE / 2);\n", n=64)        # 32 floats = 128 bytes
    assert fs == []


def test_aligned_unknown_or_params_are_quiet():
    for body in ("    AscendC::DataCopy(x, xGm, TILE);\n", "    AscendC::DataCopy(x, xGm, len);\n",
                 "    AscendC::DataCopy(x, xGm, params);\n", "    AscendC::DataCopy(x, xGm, 16);\n",
                 "    AscendC::DataCopy(z, w, 3);\n"):          # 16 half = 32 bytes; unknown tensors
        assert _dc(body)[1] == [], body
