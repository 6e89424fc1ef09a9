"""Where the index lives and which embedder it uses (XDG data dir, ``KGEN_*`` environment)."""
from __future__ import annotations

import os
from pathlib import Path

EMBEDDERS = ("hash", "minilm")
DEFAULT_EMBEDDER = "hash"
KB_ROOT = Path(__file__).resolve().parent / "kb"


class SettingsError(ValueError):
    """A user-facing configuration mistake (one line, no traceback)."""


def data_dir() -> Path:
    """``$KGEN_DATA_DIR``, else ``$XDG_DATA_HOME/kgen``, else ``~/.local/share/kgen``."""
    env = os.environ.get("KGEN_DATA_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(xdg) / "kgen"


def index_dir(embedder: str) -> Path:
    return data_dir() / "index" / embedder


def embedder_name(explicit: str | None = None) -> str:
    """The embedder to use: the explicit choice, else ``$KGEN_EMBEDDER``, else ``hash``."""
    name = (explicit or os.environ.get("KGEN_EMBEDDER") or DEFAULT_EMBEDDER).strip().lower()
    if name not in EMBEDDERS:
        raise SettingsError(f"unknown embedder '{name}' (choose one of: {', '.join(EMBEDDERS)})")
    return name
