"""Pad / UnPad (dav-2201) against numpy.pad / slicing, with PadTilingFunc, UnPadTilingFunc and the
temporary-size helpers checked against the documented rules (re-derived here, plus hand-computed
values for the documentation's own [320, 63] half example)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_pad.cpp")
PAD = {"pad_f16": np.float16, "pad_f32": np.float32, "pad_i16": np.int16, "pad_u32": np.uint32}
UNPAD = {"unpad_f16": np.float16, "unpad_f32": np.float32, "unpad_i32": np.int32}

PAD_FIELDS = ("srcHeight srcWidth srcOriWidth widthWithoutLastBlock blocksPerRow heightTiling heightFractal "
              "heightFractalTail mainLoopOffset tailBlockOffset tmpBuffer1BlockNum tmpBuffer1RowNum tmpBuffer2Offset "
              "widthTiling widthFractal widthFractalTail widthFractalTailAlingned brcbTiling brcbFractal brcbFractalTail "
              "maxRepeatTimes brcbTilingRepeatTimes brcbTilingRepeatTimesTail brcbFractalTailRepeatTimes "
              "brcbFractalTailRepeatTimesTail reserved").split()
UNPAD_FIELDS = "srcHeight srcWidth tmpBuffer1BlockNum tmpBuffer1RowNum tmpBuffer2Offset widthTiling widthFractal widthFractalTail".split()


def up(v, a):
    return (v + a - 1) // a * a


def pad_tiling(h, w, ow, stack, ts):
    """The documented PadTilingFunc rule, written out independently of the C++."""
    e = 32 // ts
    t = dict.fromkeys(PAD_FIELDS, 0)
    t.update(srcHeight=h, srcWidth=w, srcOriWidth=ow, widthWithoutLastBlock=(w - e) % 2**32, blocksPerRow=w * ts // 32,
             heightTiling=255, heightFractal=h // 255, heightFractalTail=h % 255, mainLoopOffset=255 * w)
    t["tailBlockOffset"] = (t["heightFractal"] * 255 * w + t["widthWithoutLastBlock"]) % 2**32
    if stack == 0:
        return t
    blocks = stack // 1024
    wt = 16 * blocks
    t.update(tmpBuffer1BlockNum=blocks, tmpBuffer1RowNum=wt, tmpBuffer2Offset=blocks * 512 // ts, widthTiling=wt,
             brcbTiling=wt, maxRepeatTimes=254)
    if wt:
        tail = w % wt
        t.update(widthFractal=w // wt, widthFractalTail=tail, widthFractalTailAlingned=up(tail, e),
                 brcbFractal=h * w // wt, brcbFractalTail=h * w % wt, brcbTilingRepeatTimes=wt // 8 // 254,
                 brcbTilingRepeatTimesTail=wt // 8 % 254)
        t.update(brcbFractalTailRepeatTimes=t["brcbFractalTail"] // 8 // 254,
                 brcbFractalTailRepeatTimesTail=t["brcbFractalTail"] // 8 % 254)
    return t


def data(dt, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iu":
        lo = 0 if np.dtype(dt).kind == "u" else -1000
        return rng.integers(lo, 1000, n).astype(dt)
    return (rng.standard_normal(n) * 10).astype(dt)


@pytest.mark.parametrize("case", list(PAD))
@pytest.mark.parametrize("rows,w,left,stack", [(1, 15, 0, -1), (1, 31, 0, -1), (2, 13, 2, -1), (1, 37, 3, -2),
                                               (1, 70, 1, 4096), (3, 5, 1, -1), (1, 100, 9, 3072)])
def test_pad_unaligned(prog, case, rows, w, left, stack):
    dt = PAD[case]
    ts = np.dtype(dt).itemsize
    e = 32 // ts
    h = rows * e  # h * w * ts is then a multiple of 32 bytes, as documented
    gap = up(w, e) - w
    l = min(left, gap)
    r = gap - l
    x = data(dt, h * w, h * w + l)
    res = prog.run(case, x=x, h=h, w=w, l=l, r=r, val=-7 if np.dtype(dt).kind != "u" else 7, stack=stack)
    wo = w + l + r
    y = res.out("y", dt)[:h * wo].reshape(h, wo)
    fill = -7 if np.dtype(dt).kind != "u" else 7
    ref = np.pad(x.reshape(h, w), ((0, 0), (l, r)), constant_values=fill)
    np.testing.assert_array_equal(y, ref)
    mn, mx = res.out("sizes", np.uint32)
    assert mn == 1024 and mx == ((h * w - 1) // 16 + 1) * 16 * e * 2 * ts
    stack_b = {-1: mn, -2: mx}.get(stack, stack)
    tl = res.out("tiling", np.uint32)
    assert dict(zip(PAD_FIELDS, tl.tolist())) == pad_tiling(h, w, w, stack_b, ts)
    np.testing.assert_array_equal(tl, res.out("tiling_direct", np.uint32))


@pytest.mark.parametrize("case", ["pad_f16", "pad_f32", "pad_i16"])
@pytest.mark.parametrize("h,w,ow,r", [(16, 16, 14, 2), (5, 32, 30, 1), (300, 16, 10, 3), (4, 64, 57, 7)])
def test_pad_aligned_redundant(prog, case, h, w, ow, r):
    dt = PAD[case]
    ts = np.dtype(dt).itemsize
    if (w * ts) % 32 or w - ow >= 32 // ts:
        pytest.skip("not a scenario-2 shape for this type")
    x = data(dt, h * w, h + w)
    res = prog.run(case, x=x, h=h, w=w, ow=ow, l=0, r=r, val=321, stack=0, tmp=0)
    y = res.out("y", dt)[:h * w].reshape(h, w)
    ref = x.reshape(h, w).copy()
    ref[:, ow:ow + r] = np.array(321).astype(dt)
    np.testing.assert_array_equal(y, ref)
    tl = dict(zip(PAD_FIELDS, res.out("tiling", np.uint32).tolist()))
    assert tl == pad_tiling(h, w, ow, 0, ts)


def test_pad_in_place_aligned(prog):
    x = data(np.float32, 4 * 16, 3)
    res = prog.run("pad_f32", x=x, h=4, w=16, ow=13, l=0, r=3, val=5, stack=0, tmp=0, inplace=1)
    ref = x.reshape(4, 16).copy()
    ref[:, 13:16] = 5
    np.testing.assert_array_equal(res.out("y", np.float32)[:64].reshape(4, 16), ref)
    assert not res.warnings


def test_pad_tiling_documentation_example(prog):
    """[320, 63] half with the minimum buffer, computed by hand from the tiling page's rules."""
    res = prog.run("pad_f16", h=320, w=63, l=0, r=1, stack=-1, hostonly=1)
    assert res.out("sizes", np.uint32).tolist() == [1024, 1260 * 1024]  # ceil(20160 / 16) = 1260 chunks of 1 KiB
    t = dict(zip(PAD_FIELDS, res.out("tiling", np.uint32).tolist()))
    assert (t["srcHeight"], t["srcWidth"], t["srcOriWidth"]) == (320, 63, 63)
    assert t["widthWithoutLastBlock"] == 47 and t["blocksPerRow"] == 3  # 63 - 16; 126 B // 32
    assert (t["heightFractal"], t["heightFractalTail"]) == (1, 65)      # 320 = 255 + 65
    assert t["mainLoopOffset"] == 16065 and t["tailBlockOffset"] == 16065 + 47
    assert (t["tmpBuffer1BlockNum"], t["tmpBuffer1RowNum"], t["tmpBuffer2Offset"]) == (1, 16, 256)
    assert (t["widthFractal"], t["widthFractalTail"], t["widthFractalTailAlingned"]) == (3, 15, 16)
    assert (t["brcbFractal"], t["brcbFractalTail"]) == (1260, 0)
    assert (t["maxRepeatTimes"], t["brcbTilingRepeatTimes"], t["brcbTilingRepeatTimesTail"]) == (254, 0, 2)


@pytest.mark.parametrize("case", list(UNPAD))
@pytest.mark.parametrize("h,w,r", [(16, 16, 1), (7, 32, 5), (3, 64, 7), (5, 8, 3)])
def test_unpad(prog, case, h, w, r):
    dt = UNPAD[case]
    ts = np.dtype(dt).itemsize
    if (w * ts) % 32 or r >= 32 // ts:
        pytest.skip("not an UnPad shape for this type")
    x = data(dt, h * w, h * w + r)
    res = prog.run(case, x=x, h=h, w=w, l=0, r=r, stack=2048)
    y = res.out("y", dt)[:h * (w - r)]
    np.testing.assert_array_equal(y, x.reshape(h, w)[:, :w - r].reshape(-1))
    assert res.out("sizes", np.uint32).tolist() == [0, 0]
    t = dict(zip(UNPAD_FIELDS, res.out("tiling", np.uint32).tolist()))
    wf, wt = divmod(w, 32)  # stack 2048 -> 2 blocks -> widthTiling 32
    assert t == dict(srcHeight=h, srcWidth=w, tmpBuffer1BlockNum=2, tmpBuffer1RowNum=32, tmpBuffer2Offset=1024 // ts,
                     widthTiling=32, widthFractal=wf + (1 if wt else 0), widthFractalTail=wt or 32)
    np.testing.assert_array_equal(res.out("tiling", np.uint32), res.out("tiling_direct", np.uint32))


def test_unpad_left_pad_ignored_with_warning(prog):
    x = data(np.float16, 2 * 32, 9)
    res = prog.run("unpad_f16", x=x, h=2, w=32, l=2, r=4)
    np.testing.assert_array_equal(res.out("y", np.float16)[:56], x.reshape(2, 32)[:, :28].reshape(-1))
    assert [d.code for d in res.warnings] == ["unpad-left-ignored"]


@pytest.mark.parametrize("case,kw,code", [
    ("pad_f16", dict(h=16, w=15, l=0, r=2), "pad-width"),                    # 17 columns: past the aligned 16
    ("pad_f16", dict(h=16, w=15, l=0, r=0), "pad-width"),                    # rows would not be 32-byte apart
    ("pad_f16", dict(h=16, w=16, l=0, r=1), "pad-width"),                    # aligned and no redundant column
    ("pad_f16", dict(h=16, w=16, ow=14, l=1, r=1, stack=0, tmp=0), "pad-width"),  # left pad in scenario 2
    ("pad_f32", dict(h=3, w=5, l=1, r=2), "pad-width"),                      # 60 bytes of source data
    ("pad_f16", dict(h=16, w=15, l=0, r=1, stack=512), "pad-tiling"),        # tiling planned no buffer
    ("pad_f16", dict(h=16, w=15, l=0, r=1, stack=2048, tmp=1024), "adv-tmp-too-small"),
    ("pad_f16", dict(h=16, w=15, l=0, r=1, tmp=0, reserve=196608 - 1024 - 512), "adv-tmp-no-room"),
    ("unpad_f16", dict(h=4, w=16, l=0, r=16), "unpad-width"),
    ("unpad_f16", dict(h=4, w=16, l=0, r=0), "unpad-width"),
    ("unpad_f32", dict(h=4, w=12, l=0, r=1), "unpad-width"),
])
def test_misuse_is_a_located_error(prog, case, kw, code):
    dt = (PAD | UNPAD)[case]
    x = data(dt, kw["h"] * kw["w"], 1)
    res = prog.run(case, x=x, expect_ok=False, **kw)
    assert res.errors and res.errors[0].code == code, res.run.stderr
    assert res.errors[0].file.endswith("adv_pad.cpp")
