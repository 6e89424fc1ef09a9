"""A PNG (the performance model's timeline picture) drawn in the terminal with half-block cells.

Each cell is '▀' with the upper pixel as foreground and the lower pixel as background, so a cell shows
two pixel rows; this needs a 24-bit colour terminal, which ``supports_pictures`` checks (COLORTERM, or a
terminal known to have it). Elsewhere the results panel keeps its text chart and only names the file.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from rich.style import Style
from rich.text import Text

TRUECOLOR_TERMINALS = ("iTerm.app", "WezTerm", "vscode", "ghostty")


def supports_pictures(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return (env.get("COLORTERM", "").lower() in ("truecolor", "24bit") or "kitty" in env.get("TERM", "")
            or env.get("TERM_PROGRAM", "") in TRUECOLOR_TERMINALS)


def half_blocks(path: str | Path, width: int = 60) -> Text:
    """The picture scaled to ``width`` cells (aspect kept, two pixel rows per cell)."""
    from PIL import Image

    with Image.open(path) as im:
        rgb = im.convert("RGB")
        w = max(1, min(width, rgb.width))
        h = max(2, round(rgb.height * w / rgb.width))
        h += h % 2
        px = rgb.resize((w, h), Image.Resampling.BOX).load()
    out = Text()
    for y in range(0, h, 2):
        for x in range(w):
            top, bottom = px[x, y], px[x, y + 1]
            out.append("▀", Style(color=f"rgb({top[0]},{top[1]},{top[2]})",
                                  bgcolor=f"rgb({bottom[0]},{bottom[1]},{bottom[2]})"))
        if y + 2 < h:
            out.append("\n")
    return out
