"""Kernels without TPipe (LocalMemAllocator, fixed-address tensors), InitSocState, GetTPipePtr and
aclFloat16, checked against numpy and by hand."""
import numpy as np

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("nopipe.cpp")


def test_local_mem_allocator_lays_out_ub_from_zero(prog):
    a = np.arange(256, dtype=np.float32)
    b = np.linspace(-1, 1, 256).astype(np.float32)
    z = prog.run("alloc_add", a=a, b=b).out("z", np.float32)
    np.testing.assert_array_equal(z[:256], a + b)
    np.testing.assert_array_equal(z[256:512], b)  # the tensor at UB byte 1024 is y
    assert list(z[512:]) == [0.0, 1024.0, 3072.0]  # x at 0, y at 1024, three 1 KB tensors allocated


def test_local_mem_allocator_overflow_is_located(prog):
    res = prog.run("alloc_overflow", expect_ok=False)
    (err,) = res.errors
    line = next(i for i, t in enumerate((CPP_DIR / "nopipe.cpp").read_text().splitlines(), 1) if "@alloc-overflow" in t)
    assert err.code == "ub-overflow" and err.line == line


def test_init_soc_state_clears_atomic_mode_and_gettpipeptr_works(prog):
    z = prog.run("soc_state").out("z", np.float32)
    np.testing.assert_array_equal(z, np.full(8, 5.0, np.float32))  # not 6: the atomic add was reset


def test_acl_float16_conversion_matches_numpy(prog):
    x = np.array([0.1, -2.5, 65504, 1e-7, 3.14159, 70000], np.float32)
    res = prog.run("acl_float16", x=x)
    with np.errstate(over="ignore"):
        h = x.astype(np.float16)
    np.testing.assert_array_equal(res.out("h", np.uint16), h.view(np.uint16))
    np.testing.assert_array_equal(res.out("back", np.float32), h.astype(np.float32))


def test_assert_is_dropped_in_normal_builds_and_checked_in_debug_builds(tmp_path):
    from bench_bridge.sim import build, run

    src = tmp_path / "a.asc"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "__global__ __vector__ void k(uint32_t n) {\n"
        "    uint32_t m = n ASSERT(n != 0 && \"n can not be zero!\");\n"  # NPU builds drop ASSERT: this compiles
        "    ASSERT(m > 5);\n"
        "}\n"
        "int main() { k<<<1, nullptr, nullptr>>>(3u); return 0; }\n")
    normal = build([src])
    assert normal.ok, [d.format() for d in normal.diagnostics]
    assert run(normal.binary).ok
    bad = tmp_path / "b.asc"
    bad.write_text(src.read_text().replace("uint32_t m = n ASSERT", "uint32_t m = n; ASSERT"))
    debug = build([bad], defines=["ASCENDC_DEBUG"])
    assert debug.ok
    r = run(debug.binary)
    assert r.returncode == 3 and r.diagnostics[0].code == "assert-failed" and r.diagnostics[0].line == 4


def test_half_and_bf16_are_usable_in_constant_expressions(tmp_path):
    from bench_bridge.sim import build, run

    src = tmp_path / "ce.asc"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "constexpr half HALF_ONE = 1.0;\n"          # as kernels write it for the NPU's native half
        "constexpr bfloat16_t B = -2.25f;\n"
        'static_assert(float(HALF_ONE) == 1.0f, "");\n'
        'static_assert(float(B) == -2.25f, "");\n'
        'static_assert(half(65520.0f).bits == 0x7C00, "rounds to +inf");\n'
        'static_assert(half(1.0f + 1.0f / 2048).bits == 0x3C00, "ties to even");\n'
        "int main() { return 0; }\n")
    b = build([src])
    assert b.ok, [d.format() for d in b.diagnostics]
    assert run(b.binary).ok
