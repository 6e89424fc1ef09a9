"""The timeline picture in the terminal: half-block cells carry the PNG's pixels, only where 24-bit colour is."""
from __future__ import annotations

from PIL import Image

from assistant.tui.widgets.picture import half_blocks, supports_pictures
from assistant.tui.widgets.results import case_detail


def test_half_blocks_carry_the_pixels(tmp_path):
    im = Image.new("RGB", (4, 4), (255, 0, 0))           # top half red, bottom half blue, right column green
    for x in range(4):
        for y in (2, 3):
            im.putpixel((x, y), (0, 0, 255))
    for y in range(4):
        im.putpixel((3, y), (0, 255, 0))
    im.save(tmp_path / "t.png")
    t = half_blocks(tmp_path / "t.png", width=4)
    assert t.plain == "▀▀▀▀\n▀▀▀▀"
    spans = [(s.start, str(s.style)) for s in t.spans]
    first, blue_row, green = spans[0][1], spans[5][1], spans[3][1]
    assert "rgb(255,0,0)" in first and first.count("rgb(255,0,0)") == 2          # red over red
    assert blue_row.count("rgb(0,0,255)") == 2                                   # the second cell row: blue over blue
    assert "rgb(0,255,0)" in green


def test_pictures_only_in_truecolor_terminals():
    assert supports_pictures({"COLORTERM": "truecolor"}) and supports_pictures({"TERM": "xterm-kitty"})
    assert not supports_pictures({"TERM": "xterm-256color"}) and not supports_pictures({})


def test_case_detail_names_the_picture_and_draws_it_when_it_can(tmp_path, monkeypatch):
    png = tmp_path / "timeline.png"
    Image.new("RGB", (8, 4), (10, 20, 30)).save(png)
    case = {"case_id": "0", "status": "pass", "performance": {"pipe_busy": {"V": 0.5}, "timeline_png": str(png)}}
    monkeypatch.setenv("COLORTERM", "truecolor")
    drawn = case_detail({}, case)
    assert any(getattr(r, "plain", "").startswith("▀") for r in drawn.renderables)
    monkeypatch.delenv("COLORTERM")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("TERM_PROGRAM", raising=False)
    text_only = case_detail({}, case)
    assert not any(getattr(r, "plain", "").startswith("▀") for r in text_only.renderables)
    assert any(f"timeline picture: {png}" in getattr(r, "plain", "") for r in text_only.renderables)
