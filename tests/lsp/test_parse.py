"""lsp.parse: AscendC qualifiers blanked (same length), calls/declarations/kernels extracted, positions."""
from __future__ import annotations

from lsp.parse import blank, parse, word_at

KERNEL = '''extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    __gm__ half* p = (__gm__ half*)x;
    AscendC::LocalTensor<half> t = q.AllocTensor<half>();
    AscendC::DataCopy<half>(t, g[8], 64);
}
int main() { k<<<8, nullptr, s>>>(a, b); }
'''


def test_blank_keeps_length_and_positions():
    b = blank(KERNEL)
    assert len(b) == len(KERNEL)
    assert "__aicore__" not in b and "__gm__" not in b and "<<<" not in b
    assert b.index("void k(") == KERNEL.index("void k(")


def test_tree_has_no_errors_on_ascendc():
    u = parse(KERNEL)
    assert not u.has_errors()


def test_calls_and_kernel():
    u = parse(KERNEL)
    dc = next(c for c in u.calls if c.name == "DataCopy")
    assert dc.scope == "AscendC" and dc.template_args == ("half",) and dc.args == ("t", "g[8]", "64")
    assert dc.function == "k"
    al = next(c for c in u.calls if c.name == "AllocTensor")
    assert al.obj == "q" and al.args == ()
    (k,) = [f for f in u.functions if f.name == "k"]
    assert k.is_kernel and [p[1] for p in k.params] == ["x", "tiling"]
    assert not next(f for f in u.functions if f.name == "main").is_kernel
    assert u.type_of("t", "k") == "AscendC::LocalTensor<half>"


def test_positions_round_trip_with_non_ascii():
    text = "// é 😀\nint x = 1;\n"
    u = parse(text)
    off = text.encode().index(b"x =")
    assert u.position(off) == (1, 4)
    assert u.offset(1, 4) == off
    assert u.position(len(u.data)) == (2, 0)
    assert u.offset(99, 0) == len(u.data)
    assert word_at(u, 1, 4)[0] == "x"


def test_constants():
    u = parse("constexpr uint32_t TILE = 1000;\n#define N 7\nconst int M{3};\n")
    assert u.constants["TILE"] == "1000" and u.constants["N"] == "7" and u.constants["M"] == "3"


def test_malformed_input_does_not_raise():
    for t in ["", "{{{", "AscendC::", "<<<", "\x00\x01", "void f( { AscendC::DataCopy(", "}" * 1000]:
        u = parse(t)
        assert u.text == t


def test_other_position_encodings():
    text = "/* é😀 */ int x = 1;\n"
    off = text.encode().index(b"x =")
    for enc, col in (("utf-8", off), ("utf-16", 14), ("utf-32", 13)):
        u = parse(text, encoding=enc)
        assert u.position(off) == (0, col), enc
        assert u.offset(0, col) == off, enc
