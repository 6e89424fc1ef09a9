"""What every ``kgen`` command shares: the one-line usage error, and the settings tree ``kgen`` loaded
once for this command (``assistant.cli.main`` puts it on the parsed arguments as ``args.settings``)."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # kgen --help imports every command module: the tree (pydantic-settings) only once one runs
    from agent_graph.settings import Settings

EXIT_USAGE = 2


def add_soc_flag(p: argparse.ArgumentParser) -> None:
    """``--soc SOC``: the emulated SoC (a name of bench_bridge/soc.toml), loaded into the settings tree as
    ``bench.soc`` (like ``KGEN_SOC``) by ``assistant.cli.main``: core counts, L2/HBM and the cost table."""
    p.add_argument("--soc", metavar="SOC", help="emulate this SoC (910B2: 48 vector cores, 910B4: 40; see "
                                                "bench_bridge/soc.toml; default: the bench.soc setting, KGEN_SOC, or 910B2)")


def usage_error(msg: str) -> int:
    """Say ``kgen: error: MSG`` on stderr; the exit status of a usage mistake (2)."""
    print(f"kgen: error: {msg}", file=sys.stderr)
    return EXIT_USAGE


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings :func:`assistant.cli.main` loaded and configured for this command."""
    return args.settings
