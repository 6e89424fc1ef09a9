"""The bench bridge's settings: the ``bench`` section of kgen's settings tree (``agent_graph.settings``).

The bench bridge never reads the environment for them. A front end (``kgen``, ``kgen lsp``) loads the
whole tree once and hands this section down with :func:`configure`; bench_bridge code asks
:func:`current`, which is that section or, when no front end configured one (a script, a test), the
model's defaults. A child process that needs them gets them from its parent explicitly
(``agent_graph.settings.child_env``; docs/configuration.md).

Keys (``[bench]`` in kgen.toml, ``KGEN_BENCH__<KEY>``; the named variables in brackets):

- ``soc`` [``KGEN_SOC``]: the SoC whose facts the emulator and the performance model use ("910B2",
  "Ascend910B4"; the ``Ascend`` prefix is dropped); empty: the SoC table's default;
- ``cxx`` [``KGEN_CXX``]: the emulator's C++ compiler; empty: an installed clang++, else g++;
- ``cache_dir`` [``KGEN_CACHE_DIR``]: build and object caches ($XDG_CACHE_HOME/kgen, ~/.cache/kgen);
- ``no_sandbox`` [``KGEN_NO_SANDBOX``, ``--no-sandbox``]: run task and model code unconfined.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import ConfigDict, Field, field_validator
from pydantic.dataclasses import dataclass

from bench_bridge.soc import canonical_name, soc_names


def default_cache_dir(xdg_cache_home: str | None = None) -> Path:
    """``$XDG_CACHE_HOME/kgen`` for the value the loader passes, else ``~/.cache/kgen``."""
    return Path(xdg_cache_home or "~/.cache").expanduser() / "kgen"


@dataclass(config=ConfigDict(extra="forbid", validate_assignment=True))
class BenchSettings:
    """How benches build and run: the SoC, the emulator's compiler, the cache, the sandbox."""

    soc: str | None = None               # None: the SoC table's default (bench_bridge.soc.DEFAULT_SOC)
    cxx: str | None = None               # None: clang++, else g++ (bench_bridge.sim.compiler.find_compilers)
    cache_dir: Path = Field(default_factory=default_cache_dir)
    no_sandbox: bool = False             # True: task and model code runs unconfined (docs/security.md)

    @field_validator("soc")
    @classmethod
    def _short_soc(cls, v: str | None) -> str | None:
        """"Ascend910B4" and "910B4" name the same SoC; the table knows the short name. A name the SoC
        table does not know is refused (the emulator would otherwise run another SoC than asked)."""
        v = (canonical_name(v) or None) if v is not None else None
        if v is not None and v not in soc_names():
            raise ValueError(f"unknown SoC {v!r} (known: {', '.join(soc_names())}; bench_bridge/soc.toml)")
        return v


_configured: BenchSettings | None = None


def configure(settings: BenchSettings | None) -> None:
    """Make ``settings`` the bench bridge's settings for this process (None: back to the defaults)."""
    global _configured
    _configured = settings


def current() -> BenchSettings:
    """The configured ``bench`` section, else the defaults."""
    return _configured if _configured is not None else BenchSettings()

