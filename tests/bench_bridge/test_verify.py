"""The precision rule, checked on hand-made arrays."""
import numpy as np

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
