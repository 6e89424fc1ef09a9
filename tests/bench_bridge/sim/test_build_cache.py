"""The emulator build cache: reuse when nothing changed, rebuild when anything that matters did."""
from __future__ import annotations

import shutil
import subprocess

from bench_bridge.sim import compiler

KERNEL = """#include "kernel_operator.h"
#include "params.h"
#include "tikicpulib.h"
__global__ __aicore__ void k(GM_ADDR x) {
  AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x, 8); g.SetValue(0, VALUE);
}
int main() { uint8_t *x = (uint8_t *)AscendC::GmAlloc(32); k<<<1, nullptr, nullptr>>>(x);
  printf("%d\\n", *(int32_t *)x); AscendC::GmFree(x); }
"""


def test_headers_digest_depends_on_where_the_headers_are(tmp_path, monkeypatch):
    """A PCH records absolute header paths: two checkouts sharing one cache must not share a PCH."""
    here = compiler._headers_digest()
    copy = tmp_path / "include"
    shutil.copytree(compiler.INCLUDE_DIR, copy)
    monkeypatch.setattr(compiler, "INCLUDE_DIR", copy)
    assert compiler._headers_digest() != here


def test_second_build_is_cached_and_a_changed_user_header_rebuilds(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    (tmp_path / "params.h").write_text("#define VALUE 7\n")
    first = compiler.build([src])
    assert first.ok, first.diagnostics
    second = compiler.build([src])
    assert second.ok and second.cached and second.binary == first.binary
    (tmp_path / "params.h").write_text("#define VALUE 9\n")  # an include the source names, not a source
    third = compiler.build([src])
    assert third.ok and not third.cached
    assert subprocess.run([str(third.binary)], capture_output=True, text=True).stdout.strip() == "9"



MAIN = """#include <cstdio>
#include "kernel_operator.h"
int run_kernel();
int main() { printf("%d %d\\n", run_kernel(), __CCE_AICORE__); return 0; }
"""


def _part(d, value: int):
    d.mkdir()
    (d / "part.cpp").write_text(f'#include "kernel_operator.h"\nint run_kernel() {{ return {value}; }}\n')
    return d / "part.cpp"


def _run(binary) -> str:
    return subprocess.run([str(binary)], capture_output=True, text=True, timeout=60).stdout.strip()


def test_a_translation_unit_shared_by_two_builds_is_compiled_once(tmp_path):
    """The object of an identical translation unit (same text, flags, headers) is reused by another
    build, as a project's harness main and host code are by each dtype combination."""
    (tmp_path / "shared").mkdir()
    main = tmp_path / "shared" / "main.cpp"
    main.write_text(MAIN)
    first = compiler.build([main, _part(tmp_path / "a", 3)])
    assert first.ok, first.diagnostics
    second = compiler.build([main, _part(tmp_path / "b", 4)])
    assert second.ok and not second.cached and second.reused_objects == 1      # main.o from the object cache
    # every build sees the 910B AI Core version, as ccec defines it (kernel-launch programs too)
    assert _run(first.binary) == "3 220" and _run(second.binary) == "4 220"


def test_a_shared_object_is_not_reused_when_a_user_directory_shadows_an_emulator_header(tmp_path):
    (tmp_path / "shared").mkdir()
    main = tmp_path / "shared" / "main.cpp"
    main.write_text(MAIN)
    warm = compiler.build([main, _part(tmp_path / "c", 5)])
    assert warm.ok, warm.diagnostics
    # another source's directory is searched (-iquote) before the emulator's headers: its own
    # kernel_operator.h is what main.cpp includes in this build, so main.o must be compiled again
    part = _part(tmp_path / "d", 6)
    (tmp_path / "d" / "kernel_operator.h").write_text(
        '#include_next "kernel_operator.h"\n#undef __CCE_AICORE__\n#define __CCE_AICORE__ 200\n')
    res = compiler.build([main, part])
    assert res.ok, res.diagnostics
    assert res.reused_objects == 0 and _run(res.binary) == "6 200"


HOST = """#include <cstdio>
#include "kernel_operator.h"
#include "shape.h"
int run_kernel();
int main() { printf("%d %d\\n", run_kernel(), SHAPE); return 0; }
"""


def test_an_object_is_reused_on_a_longer_search_path_that_finds_the_same_headers(tmp_path):
    """A project's host source is compiled once for all of its dtype combinations: each combination's build
    has its own folder on the include path, and the host source includes nothing from there."""
    (tmp_path / "host").mkdir()
    host = tmp_path / "host" / "main.cpp"
    host.write_text(HOST)
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "shape.h").write_text("#define SHAPE 32\n")
    first = compiler.build([host, _part(tmp_path / "a", 1)], include_dirs=[tmp_path / "inc"])
    assert first.ok, first.diagnostics
    combo = tmp_path / "combo2"
    combo.mkdir()
    (combo / "dtypes.h").write_text("#define DTYPE_X half\n")
    second = compiler.build([host, _part(tmp_path / "b", 2)], include_dirs=[combo, tmp_path / "inc"])
    assert second.ok and second.reused_objects == 1 and _run(second.binary) == "2 32"
    # a folder earlier on the path that holds its own shape.h: the host source now includes that one
    (combo / "shape.h").write_text("#define SHAPE 64\n")
    third = compiler.build([host, _part(tmp_path / "c", 3)], include_dirs=[combo, tmp_path / "inc"])
    assert third.ok and third.reused_objects == 0 and _run(third.binary) == "3 64"
