"""aclrtFree / aclrtFreeHost on pointers the runtime did not hand out (acl/acl.h): the documented runtime
returns an error code and frees nothing, so the program keeps running. Team-written host program."""
from __future__ import annotations

from bench_bridge.sim import build, run

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    std::vector<float> v(64, 1.0f);
    void* host = nullptr;
    void* dev = nullptr;
    aclrtMallocHost(&host, 256);
    aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    int r1 = aclrtFreeHost(v.data());                        // a std::vector's buffer: refused
    int r2 = aclrtFreeHost(host);                            // fine
    int r3 = aclrtFreeHost(host);                            // twice: refused
    int r4 = aclrtFree(static_cast<char*>(dev) + 32);        // inside an allocation, not its start: refused
    int r5 = aclrtFree(dev);                                 // fine
    int r6 = aclrtFree(dev);                                 // twice: refused
    int r7 = aclrtFreeHost(nullptr);                         // null: nothing to do
    std::printf("%d %d %d %d %d %d %d %.1f\n", r1 != 0, r2, r3 != 0, r4 != 0, r5, r6 != 0, r7, v[63]);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""


def test_foreign_and_double_frees_are_refused_not_crashes(tmp_path):
    src = tmp_path / "acl_free.cpp"
    src.write_text(PROGRAM)
    res = build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path)
    assert r.ok, r.stderr  # no double free / invalid free abort
    assert r.stdout.strip() == "1 0 1 1 0 1 0 1.0"
    assert r.stderr.count("not freed") == 4


LAST_ERROR = r"""
#include <cstdio>
#include "acl/acl.h"

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    int before = aclrtGetLastError(ACL_RT_THREAD_LEVEL);     // nothing failed yet
    int bad = aclrtSetDevice(3);                              // the emulator has device 0 only: an error code
    int peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);     // that code, kept
    int got = aclrtGetLastError(ACL_RT_THREAD_LEVEL);         // that code, cleared
    int after = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    std::printf("%d %d %d %d\n", before, bad != 0 && peek == bad, got == bad, after);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""


def test_get_last_error_reports_and_clears_the_last_failed_call(tmp_path):
    # aclrtGetLastError(ACL_RT_THREAD_LEVEL): the code of the last failed runtime call, cleared by the read;
    # aclrtPeekAtLastError: the same, not cleared (the 09_log example calls the first)
    src = tmp_path / "acl_last_error.cpp"
    src.write_text(LAST_ERROR)
    res = build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [], cwd=tmp_path)
    assert r.ok, r.stderr
    assert r.stdout.strip() == "0 1 1 0"
