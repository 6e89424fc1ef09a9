"""A PNG (the performance model's timeline picture) drawn in the terminal with half-block cells.

Each cell is '▀' with the upper pixel as foreground and the lower pixel as background, so a cell shows
two pixel rows; this needs a 24-bit colour terminal, which ``supports_pictures`` checks (COLORTERM, or a
terminal known to have it). Elsewhere the results panel keeps its text chart and only names the file;
``open_in_viewer`` hands the file to the system's viewer (any terminal, the picture at full size).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from PIL import Image
from rich.style import Style
from rich.text import Text

TRUECOLOR_TERMINALS = ("iTerm.app", "WezTerm", "vscode", "ghostty")


def supports_pictures(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return (env.get("COLORTERM", "").lower() in ("truecolor", "24bit") or "kitty" in env.get("TERM", "")
            or env.get("TERM_PROGRAM", "") in TRUECOLOR_TERMINALS)


def half_blocks(path: str | Path, width: int = 60) -> Text:
    """The picture scaled to ``width`` cells (aspect kept, two pixel rows per cell)."""
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


class ViewerError(Exception):
    """The picture cannot be opened (missing file, no viewer command): one sentence for the user."""


def viewer_command(platform: str = sys.platform) -> str:
    """The command that opens a file with its default application: ``open`` on macOS, ``xdg-open`` elsewhere."""
    return "open" if platform == "darwin" else "xdg-open"


def open_in_viewer(path: str | Path) -> str:
    """Start the system viewer on ``path`` without waiting for it; returns what opened it."""
    path = Path(path)
    if not path.is_file():
        raise ViewerError(f"no such picture: {path}")
    if sys.platform == "win32":  # pragma: no cover - Windows only
        os.startfile(str(path))   # noqa: S606 - the user's own file, their default viewer
        return "the default viewer"
    cmd = viewer_command()
    exe = shutil.which(cmd)
    if exe is None:
        raise ViewerError(f"cannot open the picture: no '{cmd}' command here; the file is {path}")
    subprocess.Popen([exe, str(path)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)
    return cmd
