"""Both emulator compilers, clang++ (the default when installed: bisheng is clang-based) and g++: every examples/*.asc builds, runs and passes with the compiler that is *not* the default
(tests/bench_bridge/sim/test_examples.py covers the default one), PCHs survive clang's validation (a touched but
unchanged header, a define that changes an emulator header), and diagnostics of both compilers'
formats, template instantiation notes included, are mapped back to the user's line."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from bench_bridge.sim import compiler, run
from bench_bridge.sim.diagnostics import parse_gcc

COMPILERS = compiler.find_compilers()
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples").glob("*/*.asc"))
DEFAULT_FAMILY = "clang" if compiler.is_clang(compiler.find_cxx()) else "gcc"
OTHERS = [f for f in COMPILERS if f != DEFAULT_FAMILY]
needs_clang = pytest.mark.skipif("clang" not in COMPILERS, reason="clang++ is not installed (scripts/test.sh installs clang-19)")


def test_the_default_is_clang_when_installed_unless_kgen_cxx_says(monkeypatch):
    monkeypatch.delenv("KGEN_CXX", raising=False)
    assert compiler.find_cxx() == COMPILERS.get("clang", COMPILERS.get("gcc", "g++"))
    monkeypatch.setenv("KGEN_CXX", "g++")
    assert compiler.find_cxx() == "g++"


@pytest.mark.parametrize("family,source", [(f, s) for f in OTHERS for s in EXAMPLES],
                         ids=[f"{f}-{s.stem}" for f in OTHERS for s in EXAMPLES])
def test_example_with_the_other_compiler(family, source):
    res = compiler.build([source], cxx=COMPILERS[family])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:]
    assert res.command[0] == COMPILERS[family]
    with tempfile.TemporaryDirectory(prefix=f"kgen-cc-{source.stem}-") as cwd:
        r = run(res.binary, cwd=cwd, timeout=120)
    assert r.returncode == 0 and not r.diagnostics, r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stdout.strip().splitlines()
    assert lines and re.search(r"\bPASS\b", lines[-1]) and not re.search(r"\bFAIL\b", r.stdout), r.stdout[-2000:]


KERNEL = """#include "kernel_operator.h"
#include "tikicpulib.h"
__global__ __aicore__ void k(GM_ADDR x) {
  AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x, 8);
#ifdef ASCENDC_CUBE_ONLY
  g.SetValue(0, 1);
#else
  g.SetValue(0, 2);
#endif
}
int main() { uint8_t *x = (uint8_t *)AscendC::GmAlloc(32); k<<<1, nullptr, nullptr>>>(x);
  printf("%d\\n", *(int32_t *)x); AscendC::GmFree(x); }
"""


@needs_clang
def test_clang_pch_survives_a_touched_header_and_is_built_where_it_is_used(tmp_path, monkeypatch):
    inc = tmp_path / "include"
    shutil.copytree(compiler.INCLUDE_DIR, inc)
    monkeypatch.setattr(compiler, "INCLUDE_DIR", inc)
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    cxx = COMPILERS["clang"]
    first = compiler.build([src], cxx=cxx)
    assert first.ok, [d.format() for d in first.diagnostics]
    pch = list((tmp_path / "cache" / "pch").glob("*/prelude.h.gch"))
    assert len(pch) == 1
    later = os.stat(inc / "kernel_operator.h").st_mtime + 100
    os.utime(inc / "kernel_operator.h", (later, later))        # touched, content unchanged: same key
    src.write_text(KERNEL + "// edited\n")
    second = compiler.build([src], cxx=cxx)
    assert second.ok and not second.cached, [d.format() for d in second.diagnostics] + [second.log[-2000:]]
    assert list((tmp_path / "cache" / "pch").glob("*/prelude.h.gch")) == pch
    out = subprocess.run([str(second.binary)], capture_output=True, text=True, timeout=60).stdout.strip()
    assert out == "2"


@needs_clang
def test_a_define_an_emulator_header_tests_gets_its_own_clang_pch(tmp_path, monkeypatch):
    """clang does not fall back to the plain header when a define would change it (g++ does), so
    ASCENDC_CUBE_ONLY, which the emulator headers test, is part of the clang PCH; DTYPE_X is not."""
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "cache"))
    cxx = COMPILERS["clang"]
    assert compiler._pch_defines(["ASCENDC_CUBE_ONLY", "DTYPE_X=half"], cxx) == ["ASCENDC_CUBE_ONLY"]
    assert compiler._pch_defines(["ASCENDC_CUBE_ONLY"], "g++") == []
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    res = compiler.build([src], defines=["ASCENDC_CUBE_ONLY"], cxx=cxx)
    assert res.ok, [d.format() for d in res.diagnostics]
    assert subprocess.run([str(res.binary)], capture_output=True, text=True, timeout=60).stdout.strip() == "1"


BAD = """#include "kernel_operator.h"
__global__ __aicore__ void k(GM_ADDR x) {
  AscendC::TPipe pipe; AscendC::TBuf<AscendC::TPosition::VECCALC> buf; pipe.InitBuffer(buf, 256);
  AscendC::LocalTensor<double> t = buf.Get<double>();
  AscendC::Duplicate(t, 1.0, 32);
}
int main() { k<<<1, nullptr, nullptr>>>(nullptr); }
"""


@pytest.mark.parametrize("family", sorted(COMPILERS))
def test_an_error_inside_an_emulator_template_lands_on_the_users_line(family, tmp_path):
    src = tmp_path / "bad.cpp"
    src.write_text(BAD)
    res = compiler.build([src], cxx=COMPILERS[family])
    assert not res.ok
    dup = [d for d in res.errors if "Duplicate supports" in d.message]
    assert dup, [d.format() for d in res.diagnostics]
    assert dup[0].file == str(src) and dup[0].line == 5, dup[0].format()
    assert any("emulator header" in n for n in dup[0].notes)


def test_clang_instantiation_notes_relocate_an_internal_error():
    inc = "/opt/kgen/include"
    out = (f"{inc}/kgen_sim/vec.h:40:5: error: static assertion failed due to requirement 'false': no\n"
           "   40 |     static_assert(false, \"no\");\n"
           f"{inc}/kgen_sim/vec.h:52:7: note: in instantiation of function template specialization 'A::f<double>' requested here\n"
           "/home/u/k.cpp:5:3: note: in instantiation of function template specialization 'A::g<double>' requested here\n"
           "/home/u/k.cpp:2:1: note: in call to 'h'\n"
           "/home/u/k.cpp:9:1: warning: unused variable 'z' [-Wunused-variable]\n")
    d = parse_gcc(out, (inc,))
    assert [(x.severity, x.file, x.line, x.column) for x in d] == [("error", "/home/u/k.cpp", 5, 3),
                                                                    ("warning", "/home/u/k.cpp", 9, 1)]
    assert any("vec.h:40" in n for n in d[0].notes)


def test_gcc_required_from_lines_relocate_an_internal_error():
    inc = "/opt/kgen/include"
    out = (f"{inc}/kgen_sim/vec.h: In instantiation of 'void A::f(T) [with T = double]':\n"
           "/home/u/k.cpp:5:3:   required from here\n"
           f"{inc}/kgen_sim/vec.h:40:5: error: static assertion failed: no\n")
    d = parse_gcc(out, (inc,))
    assert [(x.file, x.line, x.column) for x in d] == [("/home/u/k.cpp", 5, 3)]
