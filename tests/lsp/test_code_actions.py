"""Code actions: the quick fixes of the findings under a range, applied to a real kernel, and the
result builds and runs correctly on the emulator."""
from __future__ import annotations

from pathlib import Path

from lsp.actions import actions, apply
from lsp.checks import check_text
from lsp.parse import parse

ROOT = Path(__file__).resolve().parents[2]
ADD = (ROOT / "examples/add/add.asc").read_text()


def _broken() -> str:
    # 1000 half = 2000 bytes per tile: every DataCopy is unaligned; a misspelled API; a missing FreeTensor
    t = ADD.replace("constexpr uint32_t TILE = 1024;", "constexpr uint32_t TILE = 1000;")
    t = t.replace("        outZ_.FreeTensor(z);\n", "")
    return t.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Addd(z, x, y, TILE);")


def _fix_all(text: str) -> str:
    """Apply the preferred fix of the first fixable finding until none is left."""
    for _ in range(20):
        u = parse(text)
        acts = [a for a in actions(u, 0, len(u.data)) if a.preferred]
        if not acts:
            return text
        text = apply(text, acts[0].fix)
    raise AssertionError("fixes do not converge")


def test_actions_only_under_the_range():
    text = _broken()
    u = parse(text)
    off = text.encode().index(b"Addd")
    acts = actions(u, off + 1, off + 1)
    assert acts[0].title == "Replace 'Addd' with 'Add'" and acts[0].preferred
    assert all(a.title.startswith("Replace 'Addd' with") for a in acts) and not any(a.preferred for a in acts[1:])
    assert actions(u, 0, 5) == []


def test_fixes_clear_the_findings():
    text = _broken()
    codes = sorted(f.code for f in check_text(text))
    assert codes == ["datacopy-unaligned"] * 3 + ["queue-balance", "unknown-api"]
    fixed = _fix_all(text)
    assert check_text(fixed) == []
    assert fixed.count("DataCopyPad(") == 3 and "AscendC::Add(z, x, y, TILE);" in fixed
    assert "static_cast<uint32_t>((TILE) * sizeof(half)), 0, 0, 0));\n        outZ_.FreeTensor(z);\n    }" in fixed


def test_fixed_kernel_builds_and_runs(tmp_path):
    from bench_bridge.sim import build, run

    src = tmp_path / "add_fixed.asc"
    src.write_text(_fix_all(_broken()))
    res = build([str(src)], output=str(tmp_path / "add_fixed"))
    assert res.ok, [d.format() for d in res.diagnostics]
    r = run(res.binary, timeout=60)
    assert r.ok and "PASS" in r.stdout, r.stdout[-2000:]
