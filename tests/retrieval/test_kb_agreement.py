"""The shipped knowledge base and the emulator agree: every API the emulator's headers declare
(``// @api`` lines) has a KB page, and every API named by a KB page exists in the emulator."""
from __future__ import annotations

import re
from pathlib import Path

from retrieval.corpus import load_kb
from retrieval.settings import KB_ROOT

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "bench_bridge" / "sim" / "include"
_API_LINE = re.compile(r"//\s*@api\s+(.*)$")
REQUIRED = ("title", "api", "namespace", "family", "header")


def emulator_apis() -> dict[str, str]:
    names: dict[str, str] = {}
    for h in sorted(INCLUDE.rglob("*.h")):
        for line in h.read_text(errors="replace").splitlines():
            m = _API_LINE.search(line.strip())
            if m:
                for n in m.group(1).split():
                    names.setdefault(n, str(h.relative_to(INCLUDE)))
    return names


def kb_apis() -> dict[str, str]:
    names: dict[str, str] = {}
    for p in load_kb():
        for n in p.apis:
            names.setdefault(n, p.id)
    return names


def test_every_emulator_api_has_a_page():
    kb = kb_apis()
    missing = {n: h for n, h in emulator_apis().items() if n not in kb}
    assert not missing, f"{len(missing)} emulator API(s) without a KB page: " + ", ".join(
        f"{n} ({h})" for n, h in sorted(missing.items()))


def test_every_page_api_exists_in_the_emulator():
    emu = emulator_apis()
    extra = {n: page for n, page in kb_apis().items() if n not in emu}
    assert not extra, f"{len(extra)} KB API name(s) the emulator does not declare: " + ", ".join(
        f"{n} ({p})" for n, p in sorted(extra.items()))


def test_every_page_has_front_matter():
    bad = []
    for p in load_kb():
        need = REQUIRED if p.id.startswith("api/") else ("title",)
        missing = [k for k in need if k not in p.meta]
        if p.id.startswith("api/") and not ("soc" in p.meta or "since" in p.meta):
            missing.append("soc/since")
        if p.id.startswith("api/") and not p.apis:
            missing.append("api (empty)")
        if missing:
            bad.append(f"{p.id}: {', '.join(missing)}")
    assert not bad, "pages with incomplete front matter: " + "; ".join(bad)


def test_api_pages_have_the_usual_sections():
    bad = []
    for p in load_kb():
        if not p.id.startswith("api/"):
            continue
        heads = {l[3:].strip().lower() for l in p.body.splitlines() if l.startswith("## ")}
        if "signature" not in heads:
            bad.append(p.id)
    assert not bad, "API pages without a '## Signature' section: " + ", ".join(bad)


def test_kb_is_all_english_prose_written_here():
    # the corpus is ours: no page carries CANN's licence header or copyright lines
    for f in KB_ROOT.rglob("*.md"):
        t = f.read_text()
        assert "Huawei Technologies Co" not in t and "CANN Open Software License" not in t, f


_DIAG_CALL = re.compile(r"\b(?:fail|warn|warn_once|error|note)[a-z_]*\(\s*\"([a-z0-9]+(?:-[a-z0-9]+)+)\"")


def emulator_codes() -> dict[str, str]:
    codes: dict[str, str] = {}
    for f in sorted((ROOT / "bench_bridge").rglob("*")):
        if f.suffix in (".h", ".py") and f.is_file():
            for m in _DIAG_CALL.finditer(f.read_text(errors="replace")):
                codes.setdefault(m.group(1), str(f.relative_to(ROOT)))
    return codes


def test_every_emulator_diagnostic_code_is_in_the_error_catalogue():
    documented = {str(c) for p in load_kb() if p.id.startswith("errors/") for c in (p.meta.get("codes") or [])}
    missing = {c: f for c, f in emulator_codes().items() if c not in documented}
    assert not missing, f"{len(missing)} diagnostic code(s) without an errors/ page: " + ", ".join(
        f"{c} ({f})" for c, f in sorted(missing.items()))
