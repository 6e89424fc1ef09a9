"""bisheng's bracket function attributes (``[aicore]``, ``[host, aicore]``) are rewritten in the same
pass as ``<<<>>>`` launches, to blanks of the same length: lines and columns stay where the user wrote
them, in the sources given and in the user headers/kernels they include (Catlass-style macros)."""
from __future__ import annotations

import subprocess

from bench_bridge.sim import compiler
from bench_bridge.sim.launch_syntax import rewrite_attributes, rewrite_launches


def test_attributes_become_blanks_of_the_same_length():
    src = ("#define DEV __forceinline__ [aicore]\n"
           "#define HD __forceinline__ [host, aicore]\n"
           "__global__ [aicore] void k(int *a) { int host = 0; a[host] = 1; auto f = [host]() { return host; }; }\n"
           "template <> [aicore] void X::operator()<1>(int) {}\n"
           "[aicore] inline void g() {}\n")
    out = rewrite_attributes(src)
    assert [len(l) for l in out.splitlines()] == [len(l) for l in src.splitlines()]
    assert "[aicore]" not in out and "[host, aicore]" not in out
    assert "a[host] = 1" in out and "[host]() {" in out          # a subscript and a lambda capture stay
    assert out.splitlines()[2].index("void k") == src.splitlines()[2].index("void k")


def test_comments_and_strings_keep_their_brackets_and_launches_still_rewrite():
    src = '// [aicore] void f();\nconst char *s = "[aicore] x";\n[aicore] void k(int) {}\nvoid m() { k<<<2, nullptr, 0>>>(1); }\n'
    out, kernels = rewrite_launches(src)
    assert kernels == ["k"]
    assert out.splitlines()[0] == "// [aicore] void f();" and '"[aicore] x"' in out
    assert out.splitlines()[2].startswith(" " * 8 + " void k")
    assert "::kgen::launch_named(\"k\", k, ::kgen::LaunchCfg(2, nullptr, 0), 1)" in out


def test_a_launch_of_a_template_kernel_whose_arguments_span_lines():
    # the kernel's name (for the launch record) is the callee without its template argument list, whatever its lines
    src = "void m() {\n    kern<\n        A, B,\n        C><<<4, 0, s>>>(\n        x, y);\n}\n"
    out, kernels = rewrite_launches(src)
    assert kernels == ["kern"]
    assert '::kgen::launch_named("kern", kern<\n        A, B,\n        C>, ::kgen::LaunchCfg(4, 0, s), ' in out


HEADER = """#pragma once
#define MY_DEVICE __forceinline__ [aicore]
#define MY_HOST_DEVICE __forceinline__ [host, aicore]
MY_HOST_DEVICE int Twice(int v) { return 2 * v; }
"""

PROGRAM = """#include "kernel_operator.h"
#include "tikicpulib.h"
#include "my_attrs.h"
[aicore] inline int32_t Plus(int32_t a, int32_t b) { return a + b; }
struct Op {
    MY_DEVICE void operator()(GM_ADDR x) const {
        AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x, 64);
        g.SetValue(AscendC::GetBlockIdx(), Plus(Twice(AscendC::GetBlockIdx()), 7));
    }
};
extern "C" __global__ [aicore] void k(GM_ADDR x) { Op{}(x); }
int main() {
    int32_t *x = (int32_t *)AscendC::GmAlloc(64 * sizeof(int32_t));
    k<<<4, nullptr, nullptr>>>((uint8_t *)x);
    bool ok = true;
    for (int i = 0; i < 4; ++i) ok = ok && x[i] == 2 * i + 7;       // computed here, independently
    printf(ok ? "PASS\\n" : "FAIL\\n");
    AscendC::GmFree(x);
    return ok ? 0 : 1;
}
"""


def test_a_program_with_bracket_attributes_in_itself_and_its_header_runs(tmp_path):
    (tmp_path / "my_attrs.h").write_text(HEADER)
    src = tmp_path / "prog.asc"
    src.write_text(PROGRAM)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    proc = subprocess.run([str(res.binary)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    # an edit of the included header is seen (the rewritten copy is keyed by the header's content)
    (tmp_path / "my_attrs.h").write_text(HEADER.replace("2 * v", "2 * v + 1"))
    again = compiler.build([src])
    assert again.ok and not again.cached
    proc = subprocess.run([str(again.binary)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert "FAIL" in proc.stdout


def test_an_error_after_an_attribute_in_an_included_file_names_its_line_and_column(tmp_path):
    (tmp_path / "kern.h").write_text("#pragma once\n\n[aicore] inline int F() { return undeclared_name; }\n")
    src = tmp_path / "prog.cpp"
    src.write_text('#include "kernel_operator.h"\n#include "kern.h"\nint main() { return F(); }\n')
    res = compiler.build([src])
    assert not res.ok
    err = next(d for d in res.errors if "undeclared_name" in d.message)
    assert err.file == str(tmp_path / "kern.h") and err.line == 3
    assert err.column == "[aicore] inline int F() { return undeclared_name".index("undeclared_name") + 1
