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
