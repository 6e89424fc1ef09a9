"""Retrieval's settings: the ``docs`` section of kgen's settings tree (``agent_graph.settings``).

Retrieval never reads the environment for them: a front end loads the tree once and hands this section
down with :func:`configure`; :func:`current` is that section, or the model's defaults when no front end
configured one (a script, a test). Keys: ``[docs] embedder`` (``KGEN_EMBEDDER``), ``torch_threads``
(``KGEN_TORCH_THREADS``), ``embed_seed`` (``KGEN_EMBED_SEED``). Where the index lives
is not a key of its own: it is ``<agent.data_dir>/index/<embedder>``, so one ``data_dir`` moves both the
run folders and the doc index (the loader copies it into :attr:`DocsSettings.data_dir`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from pydantic import ConfigDict, Field, field_validator
from pydantic.dataclasses import dataclass

Embedder = Literal["hash", "minilm"]
EMBEDDERS: tuple[str, ...] = get_args(Embedder)
DEFAULT_EMBEDDER: Embedder = "hash"
KB_ROOT = Path(__file__).resolve().parent / "kb"


class SettingsError(ValueError):
    """A user-facing configuration mistake (one line, no traceback)."""


def default_data_dir(xdg_data_home: str | None = None) -> Path:
    """``$XDG_DATA_HOME/kgen`` for the value the loader passes, else ``~/.local/share/kgen``."""
    return Path(xdg_data_home or "~/.local/share").expanduser() / "kgen"


@dataclass(config=ConfigDict(extra="forbid", validate_assignment=True))
class DocsSettings:
    """Which embedder the doc index uses, and the data dir it lives under."""

    embedder: Embedder = DEFAULT_EMBEDDER
    torch_threads: int = Field(1, ge=1)  # torch threads of the MiniLM embedder (more oversubscribe a small machine)
    embed_seed: bool = True              # start the embedding cache from the shipped KB's vectors (false: a cold build)
    # derived, not a key: the loader sets it from agent.data_dir (the one data dir)
    data_dir: Path = Field(default_factory=default_data_dir, json_schema_extra={"derived_from": "agent.data_dir"})

    @field_validator("embedder", mode="before")
    @classmethod
    def _lower(cls, v: object) -> object:
        return v.strip().lower() if isinstance(v, str) else v


_configured: DocsSettings | None = None


def configure(settings: DocsSettings | None) -> None:
    """Make ``settings`` retrieval's settings for this process (None: back to the defaults)."""
    global _configured
    _configured = settings


def current() -> DocsSettings:
    """The configured ``docs`` section, else the defaults."""
    return _configured if _configured is not None else DocsSettings()


def data_dir() -> Path:
    """The data dir the index, the symbol table and the embedding cache live under."""
    return current().data_dir


def index_dir(embedder: str) -> Path:
    return data_dir() / "index" / embedder


def embedder_name(explicit: str | None = None) -> str:
    """The embedder to use: the explicit choice (``--embedder``), else the configured one."""
    name = (explicit or current().embedder).strip().lower()
    if name not in EMBEDDERS:
        raise SettingsError(f"unknown embedder '{name}' (choose one of: {', '.join(EMBEDDERS)})")
    return name
