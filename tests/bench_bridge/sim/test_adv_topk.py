"""TopK (high-level sort family, dav-2201) against an independent stable-sort reference (torch), with
TopKTilingFunc / GetTopKMaxMinTmpSize checked against hand-computed values of the documented rules."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_topk.cpp")

DT = {"f32": np.float32, "f16": np.float16}
SENT_V = -7.0   # what the padding of the value rows holds before the call
SENT_I = -99    # ... and of the index rows


def pad32(n, itemsize):
    """Element count rounded up to whole 32-byte blocks."""
    per = 32 // itemsize
    return (n + per - 1) // per * per


def reference(x, k, largest, idx):
    """Documented order: the NPU sorts the values (negated for the smallest) descending and stably, NaN
    first. Independent of the emulator: Python's stable sort on (not NaN, -key) per row."""
    vals, inds = [], []
    for r in range(x.shape[0]):
        key = x[r].astype(np.float64) * (1 if largest else -1)
        order = sorted(range(x.shape[1]), key=lambda j: (not np.isnan(key[j]), -key[j] if not np.isnan(key[j]) else 0))
        vals.append(x[r][order[:k]])
        inds.append(idx[r][order[:k]])
    return np.stack(vals), np.stack(inds)


def run_topk(prog, dt, outter, inner, k, n=None, largest=1, init=0, finish=None, small=0, tmp=-1, x=None, xi=None,
             seed=0, expect_ok=True, **extra):
    dtype = DT[dt]
    n = inner if n is None else n
    rng = np.random.default_rng(seed)
    if x is None:
        x = rng.uniform(-1000, 1000, (outter, inner)).astype(dtype)
        pad = -np.inf if largest else np.inf
        x[:, n:] = pad  # documented padding: the type's lowest (largest) value does not disturb the order
    nxi = outter * inner if small else inner
    if xi is None:
        xi = (rng.permutation(10 * nxi)[:nxi] + 5).astype(np.int32)
    kv = k if small else pad32(k, np.dtype(dtype).itemsize)
    ki = k if small else pad32(k, 4)
    v0 = np.full(pad32(outter * kv, np.dtype(dtype).itemsize), SENT_V, dtype)
    i0 = np.full(pad32(outter * ki, 4), SENT_I, np.int32)
    fin = np.zeros(pad32(outter, 1), np.uint8)
    if finish is not None:
        fin[:outter] = finish
    res = prog.run(f"topk_{dt}", x=x.ravel(), xi=np.resize(xi, pad32(len(xi), 4)), fin=fin, v=v0, i=i0, outter=outter,
                   inner=inner, n=n, k=k, largest=largest, init=init, finish=int(finish is not None), small=small, tmp=tmp,
                   expect_ok=expect_ok, **extra)
    return res, x, xi, kv, ki


def outputs(res, dt, outter, k, kv, ki):
    v = res.out("v", DT[dt])[: outter * kv].reshape(outter, kv)
    i = res.out("i", np.int32)[: outter * ki].reshape(outter, ki)
    return v[:, :k], i[:, :k], v[:, k:], i[:, k:]


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("outter,inner,n,k", [(2, 32, 32, 1), (3, 64, 50, 5), (4, 128, 128, 13), (2, 256, 200, 17),
                                              (1, 4096, 4096, 100), (5, 96, 70, 70)])
@pytest.mark.parametrize("largest", [1, 0])
def test_normal_mode_matches_stable_topk(prog, dt, outter, inner, n, k, largest):
    res, x, xi, kv, ki = run_topk(prog, dt, outter, inner, k, n=n, largest=largest, seed=inner + k)
    v, i, vpad, ipad = outputs(res, dt, outter, k, kv, ki)
    ref_v, ref_i = reference(x, k, largest, np.tile(np.arange(inner, dtype=np.int32), (outter, 1)))
    np.testing.assert_array_equal(i, ref_i)  # isInitIndex false: generated indices 0 .. inner-1
    np.testing.assert_array_equal(v, ref_v)
    # torch.topk agrees on the values (no ties in uniform random data beyond the padding)
    tv = torch.topk(torch.from_numpy(x[:, :n].astype(np.float32)), k, dim=-1, largest=bool(largest)).values.numpy()
    np.testing.assert_array_equal(v.astype(np.float32), tv)
    # only k elements per row are written: the 32-byte padding keeps its contents
    assert (vpad == SENT_V).all() and (ipad == SENT_I).all()
    np.testing.assert_array_equal(res.out("x", DT[dt]).reshape(outter, inner), x)  # the source is left as it was
    assert not res.errors


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("largest", [1, 0])
def test_ties_keep_input_order_and_nan_comes_first(prog, dt, largest):
    """Documented: equal values -> the earlier position first; +inf is the largest; NaN first either way."""
    dtype = DT[dt]
    row = np.array([3, 1, 3, 2, 1, 3, np.nan, 2] * 8, dtype)  # 64 values, many ties
    row[10] = np.inf
    row[20] = -np.inf
    x = np.stack([row, row[::-1].copy()])
    res, x, xi, kv, ki = run_topk(prog, dt, 2, 64, 20, largest=largest, x=x)
    v, i, _, _ = outputs(res, dt, 2, 20, kv, ki)
    ref_v, ref_i = reference(x, 20, largest, np.tile(np.arange(64, dtype=np.int32), (2, 1)))
    np.testing.assert_array_equal(i, ref_i)
    np.testing.assert_array_equal(v.view(np.uint8), ref_v.view(np.uint8))
    assert np.isnan(v[:, :8].astype(np.float32)).all()  # the 8 NaNs lead in both directions
    nan_pos = np.flatnonzero(np.isnan(row.astype(np.float32)))
    np.testing.assert_array_equal(i[0, :8], nan_pos)     # ... in input order
    first_number = np.inf if largest else -np.inf
    assert v[0, 8] == first_number and i[0, 8] == (10 if largest else 20)
    if largest:  # the three 3s of the first group of 8 follow in input order: positions 0, 2, 5
        np.testing.assert_array_equal(i[0, 9:12], [0, 2, 5])


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_init_index_and_finish_rows(prog, dt):
    """isInitIndex: the given index row (shared by all rows in Normal mode); isHasfinish: a finished row's
    k indices are all n (values still the top k)."""
    outter, inner, n, k = 4, 64, 60, 9
    res, x, xi, kv, ki = run_topk(prog, dt, outter, inner, k, n=n, init=1, finish=[0, 1, 0, 1], seed=5)
    v, i, _, _ = outputs(res, dt, outter, k, kv, ki)
    ref_v, ref_i = reference(x, k, 1, np.tile(xi[:inner], (outter, 1)))
    np.testing.assert_array_equal(v, ref_v)
    np.testing.assert_array_equal(i[[0, 2]], ref_i[[0, 2]])
    assert (i[[1, 3]] == n).all()


@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("k,n,largest,init", [(8, 32, 1, 0), (5, 17, 1, 1), (32, 32, 0, 1), (3, 20, 0, 0)])
def test_small_mode_packs_rows_k_apart(prog, dt, k, n, largest, init):
    outter = 6
    res, x, xi, kv, ki = run_topk(prog, dt, outter, 32, k, n=n, largest=largest, init=init, small=1, seed=k + n)
    assert kv == ki == k
    v, i, _, _ = outputs(res, dt, outter, k, kv, ki)
    idx = xi.reshape(outter, 32) if init else np.tile(np.arange(32, dtype=np.int32), (outter, 1))
    ref_v, ref_i = reference(x, k, largest, idx)
    np.testing.assert_array_equal(v, ref_v)
    np.testing.assert_array_equal(i, ref_i)
    tail = outter * k
    assert (res.out("v", DT[dt])[tail:] == SENT_V).all() and (res.out("i", np.int32)[tail:] == SENT_I).all()


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_small_mode_tail_tile_with_the_full_tiles_tiling(prog, dt):
    """A Small-mode tiling made for 8 rows serves a 5-row tail when tmpLocal has 8 rows' worth of bytes;
    fewer rows' worth is too small, and a tiling made for fewer rows than the call is rejected."""
    full = 8 * 32 * 8 + 64 + 4 * 8 * 32  # Small, largest, generated indices, 8 rows
    res, x, xi, kv, ki = run_topk(prog, dt, 5, 32, 6, small=1, tiling_outter=8, tmp=full, seed=4)
    v, i, _, _ = outputs(res, dt, 5, 6, kv, ki)
    ref_v, ref_i = reference(x, 6, 1, np.tile(np.arange(32, dtype=np.int32), (5, 1)))
    np.testing.assert_array_equal(i, ref_i)
    np.testing.assert_array_equal(v, ref_v)
    res, *_ = run_topk(prog, dt, 5, 32, 6, small=1, tiling_outter=8, tmp=-1, expect_ok=False)  # 5 rows' size
    assert first_error(res).code == "adv-tmp-too-small"
    res, *_ = run_topk(prog, dt, 5, 32, 6, small=1, tiling_outter=4, expect_ok=False)
    err = first_error(res)
    assert err.code == "topk-tiling" and "innerDataSize" in err.message


def test_documented_small_mode_example(prog):
    """The TopK page's Small-mode example: 4 rows of 17 values padded with -inf, k = 8 largest."""
    rows = [[55492.18, 27748.229, -51100.11, 19276.926, 14828.149, -20771.824, 57553.4, -21504.092, -57423.414,
             142.36443, -5223.254, 54669.473, 54519.184, 10165.924, -658.4564, 2264.2397, -52942.883],
            [-52849.074, 57778.72, 37069.496, 16273.109, -25150.637, -35680.5, -15823.097, 4327.308, -35853.86,
             -7052.2627, 44148.117, -17515.457, -18926.059, -1650.6737, 21753.582, -2589.2822, 39390.4]]
    x = np.full((2, 32), -np.inf, np.float32)
    x[:, :17] = rows
    res, *_ = run_topk(prog, "f32", 2, 32, 8, n=17, x=x, init=1, small=1, xi=np.tile(np.arange(32, dtype=np.int32), 2))
    np.testing.assert_array_equal(res.out("i", np.int32)[:16].reshape(2, 8),
                                  [[6, 0, 11, 12, 1, 3, 4, 13], [1, 10, 16, 2, 14, 3, 7, 13]])


def test_documented_normal_mode_example(prog):
    """The TopK page's Normal-mode example: 2 rows of 32 floats, the 5 smallest, given indices, row 1 finished."""
    r0 = [-18096.555, -11389.83, -43112.895, -21344.77, 57755.918, 50911.145, 24912.621, -12683.089, 45088.004,
          -39351.043, -30153.293, 11478.329, 12069.15, -9215.71, 45716.44, -21472.398, -37372.16, -17460.414, 22498.03,
          21194.838, -51229.17, -51721.918, -47510.38, 47899.11, 43008.176, 5495.8975, -24176.97, -14308.27, 53950.695,
          7652.6035, -45169.168, -26275.518]
    r1 = [-9196.681, -31549.518, 18589.23, -12427.927, 50491.81, -20078.11, -25606.107, -34466.773, -42512.805,
          50584.48, 35919.934, -17283.5, 6488.137, -12885.134, 1942.2147, -50611.96, 52671.477, 23179.662, 25814.875,
          -69.73492, 33906.797, -34662.61, 46168.71, -52391.258, 57435.332, 50269.414, 40935.05, 21164.176, 4028.458,
          -29022.918, -46391.133, 1971.2042]
    x = np.array([r0, r1], np.float32)
    res, *_ = run_topk(prog, "f32", 2, 32, 5, x=x, largest=0, init=1, finish=[0, 1], xi=np.arange(32, dtype=np.int32))
    np.testing.assert_array_equal(res.out("i", np.int32)[:16].reshape(2, 8)[:, :5], [[21, 20, 22, 30, 2], [32] * 5])
    np.testing.assert_array_equal(res.out("v", np.float32)[:16].reshape(2, 8)[:, :5],
                                  np.array([[-51721.918, -51229.17, -47510.38, -45169.168, -43112.895],
                                            [-52391.258, -50611.96, -46391.133, -42512.805, -34662.61]], np.float32))


# ---- host helpers: hand-computed from the documented dav-2201 rules --------------------------------

FIELDS = ["tmpLocalSize", "allDataSize", "innerDataSize", "sortRepeat", "mrgSortRepeat", "kAlignFourBytes",
          "kAlignTwoBytes", "maskOffset", "maskVreducev2FourBytes", "maskVreducev2TwoBytes", "mrgSortSrc1offset",
          "mrgSortSrc2offset", "mrgSortSrc3offset", "mrgSortTwoQueueSrc1Offset", "mrgFourQueueTailPara1",
          "mrgFourQueueTailPara2", "srcIndexOffset", "copyUbToUbBlockCount", "topkMrgSrc1MaskSizeOffset",
          "topkNSmallSrcIndexOffset", "vreduceValMask0", "vreduceValMask1", "vreduceIdxMask0", "vreduceIdxMask1"]


def host_tiling(prog, dt, **kw):
    res = prog.run(f"topk_{dt}", host_only=1, **kw)
    raw = res.out("tiling", np.uint8)
    tail = raw[224:].view(np.uint32)

    def fields(b):
        d = dict(zip(FIELDS, b[:96].view(np.int32).tolist()))
        for f in ("vreduceValMask0", "vreduceValMask1", "vreduceIdxMask0", "vreduceIdxMask1"):
            d[f] &= 0xFFFFFFFF
        d["half"] = b[96:112].view(np.uint16).tolist()
        return d

    return fields(raw[:112]), fields(raw[112:224]), tail


def test_normal_tiling_float_hand_checked(prog):
    host, dev, tail = host_tiling(prog, "f32", outter=3, inner=128, k=13, largest=1, init=0)
    assert host == dev  # the host class and the kernel-struct overload agree
    exp = dict(tmpLocalSize=(16 + 4) * 128 // 4, allDataSize=384, innerDataSize=256, sortRepeat=4, mrgSortRepeat=32,
               kAlignFourBytes=16, kAlignTwoBytes=16, maskOffset=3 * 16, maskVreducev2FourBytes=26,
               maskVreducev2TwoBytes=52, mrgSortSrc1offset=2, mrgSortSrc2offset=4, mrgSortSrc3offset=6,
               mrgSortTwoQueueSrc1Offset=2, mrgFourQueueTailPara1=256, mrgFourQueueTailPara2=1, srcIndexOffset=512,
               copyUbToUbBlockCount=32, topkMrgSrc1MaskSizeOffset=0, topkNSmallSrcIndexOffset=0)
    assert {f: host[f] for f in exp} == exp
    assert list(tail) == [(16 + 4) * 128, (16 + 4) * 128, 1, 1, 1]  # min = max = 20 * inner bytes


def test_normal_tiling_half_with_index(prog):
    host, dev, tail = host_tiling(prog, "f16", outter=2, inner=64, k=20, largest=0, init=1)
    assert host == dev
    assert (host["tmpLocalSize"], host["innerDataSize"], host["srcIndexOffset"]) == (8 * 64, 4 * 64, 0)
    assert (host["kAlignTwoBytes"], host["maskOffset"]) == (32, 2 * 32)
    assert (host["mrgSortSrc1offset"], host["mrgSortSrc2offset"], host["mrgSortSrc3offset"]) == (4, 8, 12)
    assert host["mrgFourQueueTailPara2"] == 2
    assert list(tail[:2]) == [16 * 64, 16 * 64]


def test_small_tiling_masks_hand_checked(prog):
    # float, k = 20, smallest, generated indices, 6 rows of 32
    host, dev, tail = host_tiling(prog, "f32", outter=6, inner=32, k=20, largest=0, init=0, small=1)
    assert host == dev
    assert host["innerDataSize"] == 2 * 32 * 6 and host["maskOffset"] == 6 * 20
    assert host["topkMrgSrc1MaskSizeOffset"] == 384 + 192
    assert host["topkNSmallSrcIndexOffset"] == 576 + 16 and host["tmpLocalSize"] == 592 + 192
    assert host["vreduceIdxMask0"] == 0xAAAAAAAA and host["vreduceIdxMask1"] == 0b10101010  # "10" x (20 - 16)
    assert host["vreduceValMask0"] == 0x55555555 and host["vreduceValMask1"] == 0b01010101
    assert list(tail[:2]) == [8 * 192 + 64 + 4 * 192 + 4 * 192] * 2
    # half, k = 7: "0001" four per 16-bit word
    host, _, tail = host_tiling(prog, "f16", outter=2, inner=32, k=7, largest=1, init=1, small=1)
    assert host["half"] == [0x1111, 0x0111, 0, 0, 0, 0, 0, 0]
    assert host["vreduceIdxMask0"] == 0b10101010101010 and host["vreduceValMask0"] == 0
    assert list(tail[:2]) == [8 * 64 + 64] * 2


def test_host_helpers_reject_bad_arguments(prog):
    res = prog.run("topk_f32", host_only=1, outter=2, inner=48, k=4)
    assert list(res.out("tiling", np.uint8)[224:].view(np.uint32)[2:]) == [0, 0, 0]
    assert "multiple of 32" in res.run.stderr and "[topk-tiling]" in res.run.stderr
    res = prog.run("topk_f32", host_only=1, outter=2, inner=64, k=4, small=1)
    assert "inner must be 32 in TOPK_NSMALL" in res.run.stderr
    res = prog.run("topk_f32", host_only=1, outter=2, inner=64, k=65)
    assert "k is 65" in res.run.stderr


# ---- misuse: located errors ------------------------------------------------------------------------

def first_error(res):
    assert res.run.returncode != 0 and res.errors, res.run.stderr
    err = res.errors[0]
    assert err.file and err.file.endswith("adv_topk.cpp"), err.format()
    return err


@pytest.mark.parametrize("kw,code,text", [
    (dict(outter=2, inner=64, k=0), "topk-k", "k is 0"),
    (dict(outter=2, inner=64, n=40, k=41), "topk-k", "topKInfo.n = 40"),
    (dict(outter=2, inner=64, n=65, k=3), "topk-shape", "topKInfo.n is 65"),
    (dict(outter=2, inner=64, k=3, small=1, tiling_outter=2), "topk-shape", "TOPK_NSMALL needs exactly 32"),
    (dict(outter=2, inner=32, k=3, small=1, finish=[0, 1]), "topk-config", "isHasfinish"),
    (dict(outter=2, inner=64, k=3, tiling_k=9), "topk-tiling", "TopKTilingFunc"),
    (dict(outter=2, inner=32, k=3, small=1, tiling_largest=1, largest=0), "topk-tiling", "topkMrgSrc1MaskSizeOffset"),
    (dict(outter=2, inner=64, k=3, tmp=512), "adv-tmp-too-small", "at least 1280"),
    (dict(outter=2, inner=64, k=3, overlap=1), "operand-in-place", "dstValueLocal"),
    (dict(outter=2, inner=64, k=3, tmp_vecin=1), "wrong-position", "VECCALC"),
])
def test_misuse_is_a_located_diagnostic(prog, kw, code, text):
    kw = dict(kw)
    finish = kw.pop("finish", None)
    res, *_ = run_topk(prog, "f32", kw.pop("outter"), kw.pop("inner"), kw.pop("k"), finish=finish, expect_ok=False, **kw)
    diags = [d for d in res.run.diagnostics if d.code == code]
    assert diags, res.run.stderr
    assert text in diags[0].message, diags[0].format()
    assert diags[0].file and diags[0].file.endswith("adv_topk.cpp"), diags[0].format()


def test_own_buffer_needs_free_ub(prog):
    """The framework form takes 16 * inner + 4 * inner bytes of free UB; 10 rows of 4096 floats (plus the
    index row) leave less than that."""
    res, *_ = run_topk(prog, "f32", 10, 4096, 3, tmp=0, expect_ok=False)
    err = first_error(res)
    assert err.code == "adv-tmp-no-room" and "81920" in err.message


def test_topk_config_is_an_ascend950_feature(prog):
    res = prog.run("topk_radix", expect_ok=False)
    err = first_error(res)
    assert err.code == "api-unsupported" and "TopKConfig" in err.message


INVENTED = """#include "kernel_operator.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> t = b.Get<float>();
    LocalTensor<int32_t> i = b.Get<int32_t>();
    LocalTensor<bool> f;
    TopKInfo info{1, 32, 32};
    AscendC::Topk<float>(t, i, t, i, f, 4, TopkTiling{}, info);
}
int main() { return 0; }
"""


def test_invented_name_fails_with_did_you_mean(tmp_path):
    """A mis-cased TopK does not compile; the compiler and the language server both name the real API."""
    from bench_bridge.sim import build
    from lsp.checks import check_text
    from lsp.checks.unknown_api import CODE

    src = tmp_path / "k.cpp"
    src.write_text(INVENTED)
    res = build([src], use_cache=False)
    assert not res.ok
    msgs = " ".join(d.message for d in res.errors)
    assert "did you mean" in msgs and "TopK" in msgs, msgs
    (f,) = [f for f in check_text("void f() { AscendC::Topk<float>(a, b, c, d, e, 4, t, info); }") if f.code == CODE]
    assert "did you mean 'TopK'" in f.message


# ---- the custom-op flow: TopkTiling nested in the project's tiling data ------------------------------

PROJECT = __import__("pathlib").Path(__file__).resolve().parents[2] / "data" / "projects" / "topk_rows"


@pytest.fixture(scope="module")
def topk_project():
    from bench_bridge.project import build_project, describe_project

    p = describe_project(PROJECT)
    assert p.ok, [d.format() for d in p.diagnostics]
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    return b


@pytest.mark.slow  # builds a custom-op project (host + kernel) once for the module
@pytest.mark.parametrize("rows,cols", [(5, 96), (3, 32), (2, 1024)])
def test_op_project_topk_rows_matches_torch(topk_project, rows, cols):
    """Host TilingFunc calls TopKTilingFunc / GetTopKMaxMinTmpSize into TILING_DATA_FIELD_DEF_STRUCT(TopkTiling);
    the kernel passes the struct to TopK."""
    from bench_bridge.project import run_project

    x = np.random.default_rng(rows * cols).standard_normal((rows, cols)).astype(np.float32)
    r = run_project(topk_project, [x], [((rows, 8), np.float32), ((rows, 8), np.int32)])
    assert not [d for d in r.diagnostics if d.severity == "error"], [d.format() for d in r.diagnostics]
    ref = torch.topk(torch.from_numpy(x), 8, dim=-1, largest=True, sorted=True)
    np.testing.assert_array_equal(r.outputs[0], ref.values.numpy())
    np.testing.assert_array_equal(r.outputs[1], ref.indices.numpy().astype(np.int32))  # no ties in normal data


@pytest.mark.slow
def test_official_topk_example_passes_unmodified():
    """examples/01_simd_cpp_api/04_advanced_api/05_sort/topk of $KGEN_ASC_DEVKIT (Normal mode, smallest, k = 1,
    generated indices, random finish flags); the program checks its golden data itself."""
    from tests.bench_bridge.sim.test_adv_sort import run_official

    r = run_official("01_simd_cpp_api/04_advanced_api/05_sort/topk")
    assert r.returncode == 0 and "test pass!" in r.stdout and not r.diagnostics, r.stdout + r.stderr
