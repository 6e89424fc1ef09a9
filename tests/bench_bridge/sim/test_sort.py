"""Sorting primitives of dav-2201 checked against numpy.

The documented layout: 8-byte (score, index) structures -- float score in bytes 0-3, half score
in bytes 0-1 (bytes 2-3 reserved), uint32 index in bytes 4-7; descending by score, equal scores
in input order. References here are numpy stable argsorts of the negated scores, computed
independently of the emulator.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("sort.cpp")

DTYPES = {"f32": np.float32, "f16": np.float16}


def marker_line(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "sort.cpp").read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


def records(scores: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Pack (score, index) into the documented 8-byte structures (reserved half bytes = 0)."""
    out = np.zeros((len(scores), 8), np.uint8)
    sb = np.ascontiguousarray(scores).view(np.uint8).reshape(len(scores), np.dtype(scores.dtype).itemsize)
    out[:, : sb.shape[1]] = sb
    out[:, 4:8] = np.ascontiguousarray(index.astype(np.uint32)).view(np.uint8).reshape(len(scores), 4)
    return out


def unpack(raw: np.ndarray, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rec = raw.reshape(-1, 8)
    size = np.dtype(dtype).itemsize
    score = rec[:, :size].copy().view(dtype).ravel()
    index = rec[:, 4:8].copy().view(np.uint32).ravel()
    return score, index, rec[:, size:4]


def desc_order(x: np.ndarray) -> np.ndarray:
    """Stable descending order; NaN first (the emulator's documented choice for an undocumented case)."""
    key = -x.astype(np.float64)
    key[np.isnan(x)] = -np.inf
    return np.argsort(key, kind="stable")


def tie_heavy(rng, n, dtype):
    """Scores with many exact ties, a few special values, and fine-grained values that round in half."""
    x = rng.integers(-6, 6, n).astype(np.float32) / 2
    fine = rng.random(n) < 0.4
    x[fine] = (rng.standard_normal(fine.sum()) * 100).astype(np.float32)
    return x.astype(dtype)


# ---- Sort32 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("n", [32, 96, 256, 2048])
def test_sort32_sorts_each_group_of_32_descending_and_stable(prog, dt, n):
    dtype = DTYPES[dt]
    rng = np.random.default_rng(n)
    s = tie_heavy(rng, n, dtype)
    s[:4] = np.array([np.inf, -np.inf, -0.0, 0.0], dtype)
    if dtype == np.float16:
        s[4:6] = np.array([6e-8, 65504], dtype)  # subnormal and max half pass through bit-exact
    idx = (rng.permutation(n) * 7 + 0x12345678).astype(np.uint32)  # all 4 index bytes matter
    res = prog.run(f"sort32_{dt}", s=s, idx=idx, rep=np.int64(n // 32))
    score, index, reserved = unpack(res.out("d", np.uint8), dtype)
    for g in range(n // 32):
        sl = slice(32 * g, 32 * g + 32)
        order = desc_order(s[sl])
        np.testing.assert_array_equal(score[sl].view(np.uint8), s[sl][order].view(np.uint8))  # bit-exact
        np.testing.assert_array_equal(index[sl], idx[sl][order])
    if dtype == np.float16:
        assert np.all(reserved == 0)


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_sort32_groups_are_not_merged_and_ties_keep_input_order(prog, dt):
    dtype = DTYPES[dt]
    s = np.concatenate([np.full(32, 1.0), np.arange(32)[::-1] * 0.25]).astype(dtype)  # group 0: all equal
    idx = np.arange(64, dtype=np.uint32) + 500
    res = prog.run(f"sort32_{dt}", s=s, idx=idx, rep=np.int64(2))
    score, index, _ = unpack(res.out("d", np.uint8), dtype)
    np.testing.assert_array_equal(index[:32], idx[:32])  # equal scores: input order
    np.testing.assert_array_equal(score[32:], s[32:])    # already descending
    assert score[32] == 7.75 and score[31] == 1.0       # group 1 is not merged with group 0


@pytest.mark.parametrize("rep", [0, 1, 3])
def test_sort32_writes_only_the_requested_repeats(prog, rep):
    n = 128
    rng = np.random.default_rng(rep)
    s = rng.standard_normal(n).astype(np.float32)
    idx = np.arange(n, dtype=np.uint32)
    raw = prog.run("sort32_f32", s=s, idx=idx, rep=np.int64(rep)).out("d", np.uint8)
    assert np.all(raw[rep * 32 * 8:] == 0xAB)  # dst beyond the repeats keeps its bytes (repeat 0 = no-op)
    score, index, _ = unpack(raw[: rep * 32 * 8], np.float32)
    for g in range(rep):
        order = desc_order(s[32 * g: 32 * g + 32])
        np.testing.assert_array_equal(index[32 * g: 32 * g + 32], order + 32 * g)


def test_sort32_nan_scores_come_first(prog):
    s = np.arange(32, dtype=np.float32)
    s[[3, 10, 20]] = np.nan
    res = prog.run("sort32_f32", s=s, idx=np.arange(32, dtype=np.uint32), rep=np.int64(1))
    _, index, _ = unpack(res.out("d", np.uint8), np.float32)
    np.testing.assert_array_equal(index[:3], [3, 10, 20])
    np.testing.assert_array_equal(index[3:], desc_order(s)[3:])


# ---- MrgSort -------------------------------------------------------------------------------------

def sorted_queue(rng, n, dtype, qid):
    s = tie_heavy(rng, n, dtype)
    order = desc_order(s)
    return s[order], ((qid << 24) | (np.arange(n) * 0x10101)).astype(np.uint32)


def mrg_params(form, valid, susp, rep, lens, offs, dst, shift=0):
    return np.array([form, valid, susp, rep, *lens, *offs, dst, shift], np.int64)


def build_image(rng, total_structs, queues, offs):
    """A UB image of random bytes with each queue's structures at its offset."""
    img = rng.integers(0, 256, total_structs * 8, dtype=np.uint8)
    for (s, i), off in zip(queues, offs):
        img[off * 8: (off + len(s)) * 8] = records(s, i).ravel()
    return img


def expected_merge(queues):
    """Merging sorted queues = stable descending sort of src1..src4 concatenated."""
    s = np.concatenate([q[0] for q in queues])
    i = np.concatenate([q[1] for q in queues])
    o = desc_order(s)
    return s[o], i[o]


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("form", [0, 1, 2])
@pytest.mark.parametrize("lens", [(32, 17), (5, 40, 1), (32, 32, 32, 32), (7, 0, 30, 12), (64, 1, 3, 100)])
def test_mrgsort_merges_2_3_4_queues(prog, dt, form, lens):
    dtype = DTYPES[dt]
    rng = np.random.default_rng(sum(lens) + form)
    nq = len(lens)
    queues = [sorted_queue(rng, n, dtype, k + 1) for k, n in enumerate(lens)]
    # queues stored out of order and apart; unused queue slots point at junk that must not be read
    offs = [0] * 4
    pos = 4
    for k in reversed(range(nq)):
        offs[k] = pos
        pos += lens[k] + 3
    dst = (pos + 3) // 4 * 4 + 4  # 32-byte aligned
    total = dst + sum(lens) + 8
    total = (total + 3) // 4 * 4
    img = build_image(rng, total, queues, offs)
    valid = (1 << nq) - 1
    all_lens = list(lens) + [77] * (4 - nq)  # lengths of unselected queues are ignored
    res = prog.run(f"mrgsort_{dt}", buf=img, p=mrg_params(form, valid, 0, 1, all_lens, offs, dst))
    out = res.out("d", np.uint8)
    es, ei = expected_merge(queues)
    score, index, _ = unpack(out[dst * 8: (dst + sum(lens)) * 8], dtype)
    np.testing.assert_array_equal(index, ei)
    np.testing.assert_array_equal(score.view(np.uint8), es.view(np.uint8))
    rest = np.ones(len(img), bool)
    rest[dst * 8: (dst + sum(lens)) * 8] = False
    np.testing.assert_array_equal(out[rest], img[rest])  # nothing else in UB changes
    assert not res.warnings


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("form", [0, 2])
def test_mrgsort_repeat_times_merges_consecutive_groups_of_four(prog, dt, form):
    dtype = DTYPES[dt]
    rng = np.random.default_rng(7)
    L, rep = 16, 3
    queues = [sorted_queue(rng, L, dtype, k + 1) for k in range(4 * rep)]
    offs_all = [L * k for k in range(4 * rep)]
    dst = 4 * rep * L + 4
    img = build_image(rng, dst + 4 * rep * L + 4, queues, offs_all)
    res = prog.run(f"mrgsort_{dt}", buf=img, p=mrg_params(form, 0b1111, 0, rep, [L] * 4, offs_all[:4], dst))
    score, index, _ = unpack(res.out("d", np.uint8)[dst * 8: (dst + 4 * rep * L) * 8], dtype)
    for r in range(rep):
        es, ei = expected_merge(queues[4 * r: 4 * r + 4])
        np.testing.assert_array_equal(index[4 * L * r: 4 * L * (r + 1)], ei)
        np.testing.assert_array_equal(score[4 * L * r: 4 * L * (r + 1)].view(np.uint8), es.view(np.uint8))


def test_mrgsort_ties_across_queues_take_the_earlier_queue_first(prog):
    queues = [(np.array([3, 2, 2, 1], np.float32), np.array([10, 11, 12, 13], np.uint32)),
              (np.array([3, 2, 1, 1], np.float32), np.array([20, 21, 22, 23], np.uint32)),
              (np.array([2, 2, 2, 0], np.float32), np.array([30, 31, 32, 33], np.uint32))]
    offs = [0, 4, 8, 0]
    img = build_image(np.random.default_rng(0), 32, queues, offs)
    res = prog.run("mrgsort_f32", buf=img, p=mrg_params(0, 0b111, 0, 1, [4, 4, 4, 0], offs, 16))
    _, index, _ = unpack(res.out("d", np.uint8)[16 * 8: 28 * 8], np.float32)
    np.testing.assert_array_equal(index, [10, 20, 11, 12, 21, 30, 31, 32, 13, 22, 23, 33])


def expected_suspended(queues):
    """Prefix of the full merge up to (and including) the structure that empties the first queue."""
    s, i = expected_merge(queues)
    qid = np.concatenate([np.full(len(q[0]), k) for k, q in enumerate(queues)])[desc_order(np.concatenate([q[0] for q in queues]))]
    ends = [np.nonzero(qid == k)[0].max() if len(q[0]) else -1 for k, q in enumerate(queues)]
    stop = min(ends) + 1
    counts = [int((qid[:stop] == k).sum()) for k in range(len(queues))]
    return s[:stop], i[:stop], counts


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("form", [0, 3])
@pytest.mark.parametrize("lens", [(32, 32, 32, 32), (10, 50, 20), (40, 3)])
def test_mrgsort_exhausted_suspension_stops_and_reports_counts(prog, dt, form, lens):
    dtype = DTYPES[dt]
    rng = np.random.default_rng(len(lens) * 31 + form)
    nq = len(lens)
    queues = [sorted_queue(rng, n, dtype, k + 1) for k, n in enumerate(lens)]
    offs = list(np.cumsum([0, *lens[:-1]])) + [0] * (4 - nq)
    dst = (sum(lens) + 3) // 4 * 4 + 4
    img = build_image(rng, (dst + sum(lens) + 7) // 4 * 4, queues, offs)
    res = prog.run(f"mrgsort_{dt}", buf=img,
                   p=mrg_params(form, (1 << nq) - 1, 1, 1, list(lens) + [0] * (4 - nq), offs, dst))
    es, ei, counts = expected_suspended(queues)
    assert 0 < len(es) < sum(lens)
    out = res.out("d", np.uint8)
    score, index, _ = unpack(out[dst * 8: (dst + len(es)) * 8], dtype)
    np.testing.assert_array_equal(index, ei)
    np.testing.assert_array_equal(score.view(np.uint8), es.view(np.uint8))
    np.testing.assert_array_equal(out[(dst + len(es)) * 8:], img[(dst + len(es)) * 8:])  # rest of dst untouched
    r = res.out("r", np.uint32)
    np.testing.assert_array_equal(r[:nq], counts)  # GetMrgSortResult
    if form == 3:
        np.testing.assert_array_equal(r[4: 4 + nq], counts)  # sortedNum of the high-level form


def test_mrgsort_repeat_zero_is_a_no_op(prog):
    rng = np.random.default_rng(3)
    queues = [sorted_queue(rng, 8, np.float32, k) for k in range(4)]
    offs = [0, 8, 16, 24]
    img = build_image(rng, 72, queues, offs)
    res = prog.run("mrgsort_f32", buf=img, p=mrg_params(0, 0b1111, 0, 0, [8] * 4, offs, 36))
    np.testing.assert_array_equal(res.out("d", np.uint8), img)


# ---- full sort: Sort32 + MrgSort rounds + Extract, and the high-level Sort ---------------------------

@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("n", [2048, 1000, 160, 96, 31])
def test_full_sort_matches_stable_descending_argsort(prog, dt, n):
    dtype = DTYPES[dt]
    rng = np.random.default_rng(n)
    x = tie_heavy(rng, n, dtype)
    x[rng.integers(0, n, 2)] = -np.inf  # ties with the -inf padding stay before it
    res = prog.run(f"full_sort_{dt}", s=x)
    order = desc_order(x)
    for v, i in (("v", "i"), ("v2", "i2")):
        np.testing.assert_array_equal(res.out(i, np.uint32), order * 0x10001, err_msg=i)
        np.testing.assert_array_equal(res.out(v, dtype).view(np.uint8), x[order].view(np.uint8), err_msg=v)
    assert not res.warnings


def test_sort_len_and_offset_count_elements_of_t(prog):
    z = prog.run("sort_len").out("z", np.uint32)
    np.testing.assert_array_equal(z, [128 * 2, 128 * 4, 5 * 2, 5 * 4])


# ---- rule violations -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "which,code,marker,text",
    [
        (0, "bad-repeat", "@E-bad-repeat", "outside [0, 255]"),
        (1, "ub-out-of-bounds", "@E-dst-oob", "Sort32"),
        (2, "ub-misaligned", "@E-misaligned", "32-byte"),
        (3, "mrgsort-valid-bit", "@E-validbit", "0b111"),
        (4, "mrgsort-length", "@E-length", "4096"),
        (5, "mrgsort-repeat", "@E-repeat-unequal", "equal"),
        (6, "mrgsort-repeat", "@E-repeat-noncontig", "back to back"),
        (7, "mrgsort-repeat", "@E-repeat-susp", "ifExhaustedSuspension"),
        (8, "mrgsort-overlap", "@E-overlap", "overlaps queue src4"),
        (9, "ub-misaligned", "@E-src-misaligned", "8-byte"),
        (10, "api-unsupported", "@E-unsupported", "ProposalConcat"),
        (11, "ub-out-of-bounds", "@E-sort-tmp", "Sort"),
        (13, "ub-out-of-bounds", "@E-extract-oob", "Extract"),
    ],
)
def test_rule_violations_are_located_errors(prog, which, code, marker, text):
    res = prog.run("errors", which=np.int64(which), expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    assert err.code == code, err.format()
    assert text in err.message, err.format()
    assert err.file.endswith("sort.cpp") and err.line == marker_line(marker), err.format()


def test_unsorted_queue_merges_with_a_warning(prog):
    res = prog.run("errors", which=np.int64(12))
    (w,) = res.warnings
    assert w.code == "mrgsort-unsorted" and "src1" in w.message
    assert w.line == marker_line("@W-unsorted")
