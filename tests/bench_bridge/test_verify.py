"""The precision rule, checked on hand-made arrays."""
import numpy as np
import pytest

from bench_bridge.verify import compare


def test_element_fails_only_if_both_errors_exceed():
    ref = np.array([1000.0, 0.0001, 1.0, 2.0], np.float32)
    # abs err 0.5 but rel 5e-4 -> ok; rel err huge but abs 5e-5 -> ok; both 0.01 -> fail
    out = np.array([1000.5, 0.00015, 1.01, 2.0], np.float32)
    c = compare(ref, out, "float16")
    assert not c.passed
    assert c.mismatches == 1
    assert c.first_mismatch == [2]
    assert c.expected == 1.0 and abs(c.actual - 1.01) < 1e-6


def test_thresholds_depend_on_dtype():
    ref = np.array([1.0], np.float32)
    out = np.array([1.0 + 5e-4], np.float32)
    assert compare(ref, out, "float16").passed
    assert not compare(ref, out, "float32").passed


def test_integers_and_bools_must_match_exactly():
    assert not compare(np.array([1, 2, 3]), np.array([1, 2, 4]), "int32").passed
    assert compare(np.array([True, False]), np.array([True, False]), "bool").passed
    assert not compare(np.array([True, False]), np.array([True, True]), "bool").passed


def test_non_finite_handling():
    ref = np.array([1.0, np.inf, np.nan, -np.inf])
    assert compare(ref, np.array([1.0, np.inf, np.nan, -np.inf]), "float32").passed
    c = compare(ref, np.array([np.nan, np.inf, np.nan, -np.inf]), "float32")
    assert not c.passed and c.first_mismatch == [0]
    assert not compare(ref, np.array([1.0, -np.inf, np.nan, -np.inf]), "float32").passed


def test_multidimensional_first_mismatch_and_shape_errors():
    ref = np.zeros((2, 3), np.float32)
    out = ref.copy()
    out[1, 2] = 1
    c = compare(ref, out, "float32")
    assert c.first_mismatch == [1, 2]
    bad = compare(ref, np.zeros(5, np.float32), "float32")
    assert not bad.passed and "shape mismatch" in bad.reason


def test_a_float16_output_of_a_float32_reference_is_held_to_the_float16_threshold(tmp_path):
    # scipy's spence returns float32 for float16 inputs (NPUKernelBench Spence): the op's float16 output
    # cannot hold 1e-5, so its threshold is float16's 1e-3; a float32 output keeps 1e-5
    import numpy as np

    from bench_bridge import tensorio
    from bench_bridge.bench_compare import compare_outputs

    ref = (np.linspace(0.5, 8.0, 64) ** 0.5).astype(np.float32)       # values in [0.7, 2.9]
    tensorio.save(tmp_path / "ref_0.npy", ref)
    meta = [{"file": "ref_0.npy", "dtype": "float32", "shape": [64]}]
    half = ref.astype(np.float16)                                      # rounding error up to 2**-11 relative
    assert 1e-5 < float(np.max(np.abs(half.astype(np.float64) - ref) / ref)) < 1e-3
    (c,) = compare_outputs(["y"], meta, [half], ["float16"], tmp_path)
    assert c.passed and c.threshold == 1e-3
    (f,) = compare_outputs(["y"], meta, [half.astype(np.float32)], ["float32"], tmp_path)
    assert not f.passed and f.threshold == 1e-5
    (i,) = compare_outputs(["y"], [{"file": "ref_0.npy", "dtype": "float32", "shape": [64]}],
                           [np.rint(ref).astype(np.int32)], ["int32"], tmp_path)
    assert i.threshold == 1e-5                                         # an integer output: the reference's rule


def test_compare_in_chunks_gives_the_whole_array_answer(monkeypatch):
    # outputs of billions of bytes are compared a chunk at a time; the counts, the largest errors and the
    # first mismatch (as a multi-dimensional index) are those of the whole array, worked out here directly
    import numpy as np

    from bench_bridge import tensorio, verify

    rng = np.random.default_rng(4)
    ref = rng.standard_normal((6, 7, 5)).astype(np.float32)
    out = ref.copy()
    out[3, 2, 4] += 1.0            # flat index 3*35 + 2*5 + 4 = 119
    out[5, 6, 0] = np.nan          # flat index 205
    monkeypatch.setattr(verify, "CHUNK", 16)
    c = verify.compare(ref, out, "float32")
    assert (c.mismatches, c.total, c.first_mismatch) == (2, 210, [3, 2, 4])
    assert c.max_abs_error == pytest.approx(1.0, rel=1e-6) and c.expected == pytest.approx(float(ref[3, 2, 4]))
    # complex values compare as (real, imag) components: the last axis doubles
    z = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(np.complex64)
    w = z.copy()
    w[2, 1] += np.complex64(0.5j)  # component 2 * 8 + 2 * 1 + 1 = 19 -> index [2, 3]
    c = verify.compare(z.astype(np.complex128), w, "float64", 1e-5, ref_values=lambda a: tensorio.as_float(a, "complex128"),
                       out_values=lambda a: tensorio.as_float(a, "complex64"))
    assert (c.mismatches, c.total, c.first_mismatch) == (1, 24, [2, 3])


def test_a_complex_output_of_a_real_reference_is_a_shape_mismatch_not_a_crash():
    # AbsMath's op writes |z| into a complex64 output while the reference returns float32: as many values
    # but twice as many components; the task's own checker decides, the built-in rule says why it differs
    import numpy as np

    c = compare(np.array([0.5, 2.0], np.float32), np.array([0.5 + 0j, 2.0 + 0j], np.complex64), "float32")
    assert not c.passed and c.reason.startswith("shape mismatch") and c.total == 2
