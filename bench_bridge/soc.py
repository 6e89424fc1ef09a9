"""The SoC table: every hardware fact about the NPUs kgen emulates and models, read from ``soc.toml``.

:func:`soc_facts` gives the typed :class:`SocFacts` of one SoC by name ("910B2", "Ascend910B4");
:data:`DEFAULT_SOC` is the table's default. The performance model's cost table, the LSP checks and the
agent's prompts read these facts; the emulator's C++ constants are generated from the same table
(``python3 -m bench_bridge.soc`` writes ``sim/include/kgen_sim/soc_table.h``; a test fails when the
committed header drifts from the table). Which SoC a run uses is a setting (``KGEN_SOC``), not read here.
"""
from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SOC_FILE = Path(__file__).with_name("soc.toml")
HEADER_FILE = Path(__file__).parent / "sim" / "include" / "kgen_sim" / "soc_table.h"

CORE_MEMORIES = ("ub_bytes", "l1_bytes", "l0a_bytes", "l0b_bytes", "l0c_bytes", "bt_bytes", "fb_bytes", "kfc_reserved_bytes")
"""Facts compiled into the emulator as constants: every SoC of the table must share them."""


@dataclass(frozen=True)
class Entry:
    """One documented number: its value, unit and source (a public document, or ``assumption: why``)."""
    name: str
    value: float
    unit: str
    source: str

    @property
    def assumption(self) -> bool:
        return self.source.lower().startswith("assumption")


def entry(name: str, raw: object) -> Entry:
    """An :class:`Entry` from a table's ``{value, unit, source}`` inline table."""
    if not isinstance(raw, dict) or not {"value", "unit", "source"} <= raw.keys():
        raise ValueError(f"table entry {name!r} must be {{value, unit, source}}")
    return Entry(name, float(raw["value"]), str(raw["unit"]), str(raw["source"]))


@dataclass(frozen=True)
class SocFacts:
    """The hardware of one SoC (sizes in bytes, per core where the memory is a core's)."""
    name: str                 # "910B2"
    description: str
    vector_cores: int         # AIV cores
    ai_cores: int             # AIC (cube) cores
    clock_mhz: float
    hbm_gbps: float           # whole-chip GM bandwidth
    hbm_bytes: int
    l2_bytes: int
    ub_bytes: int             # Unified Buffer of a vector core
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    bt_bytes: int
    fb_bytes: int
    kfc_reserved_bytes: int   # held back from UB and L1 in what GetCoreMemSize reports (Ascend910B family)
    entries: tuple[Entry, ...]  # the same facts with their units and sources, in table order

    @property
    def soc_version(self) -> str:
        """CANN's name of the part: ``Ascend910B2``."""
        return f"Ascend{self.name}"


_INT_FACTS = ("vector_cores", "ai_cores", "hbm_bytes", "l2_bytes") + CORE_MEMORIES
_FLOAT_FACTS = ("clock_mhz", "hbm_gbps")


@lru_cache(maxsize=None)
def _read(path: Path) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def canonical_name(name: str) -> str:
    """``Ascend910B4`` / ``ascend910B4`` / `` 910B4 `` -> ``910B4``."""
    name = name.strip()
    return name[len("ascend"):] if name.lower().startswith("ascend") else name


def soc_names(path: Path = SOC_FILE) -> list[str]:
    """The SoCs the table describes, sorted."""
    return sorted(_read(path)["soc"])


def default_soc(path: Path = SOC_FILE) -> str:
    """The SoC used when none is chosen."""
    return str(_read(path)["default_soc"])


DEFAULT_SOC = default_soc()


def soc_facts(name: str | None = None, path: Path = SOC_FILE) -> SocFacts:
    """The facts of SoC ``name`` (default :data:`DEFAULT_SOC`); ValueError names the known ones."""
    data = _read(path)
    socs = data["soc"]
    key = canonical_name(name) if name else str(data["default_soc"])
    if key not in socs:
        raise ValueError(f"unknown SoC {key!r} (known: {', '.join(sorted(socs))})")
    chain, cur = [], key
    while cur:
        chain.append(socs[cur])
        cur = socs[cur].get("inherits")
    merged: dict = {}
    for sec in reversed(chain):
        merged.update(sec)
    description = str(merged.pop("description", ""))
    merged.pop("inherits", None)
    entries = {k: entry(k, v) for k, v in merged.items()}
    missing = [k for k in _INT_FACTS + _FLOAT_FACTS if k not in entries]
    if missing:
        raise ValueError(f"SoC {key!r} lacks {', '.join(missing)} in {path.name}")
    unknown = [k for k in entries if k not in _INT_FACTS + _FLOAT_FACTS]
    if unknown:
        raise ValueError(f"SoC {key!r}: unknown fact(s) {', '.join(unknown)} in {path.name}")
    return SocFacts(name=key, description=description,
                    **{k: int(entries[k].value) for k in _INT_FACTS},
                    **{k: float(entries[k].value) for k in _FLOAT_FACTS},
                    entries=tuple(entries.values()))


# ---- the emulator's generated header ------------------------------------------------------------------
def cpp_header(path: Path = SOC_FILE) -> str:
    """The text of ``kgen_sim/soc_table.h``: the core memories as constants, the SoCs as a table."""
    socs = [soc_facts(n, path) for n in soc_names(path)]
    default = default_soc(path)
    for mem in CORE_MEMORIES:
        if len({getattr(s, mem) for s in socs}) != 1:
            raise ValueError(f"{path.name}: every SoC must share {mem} (the emulator compiles it in)")
    first = socs[0]
    rows = ",\n".join(f'    {{"{s.soc_version}", {s.ai_cores}u, {s.vector_cores}u, {s.l2_bytes}ull, {s.hbm_bytes}ull}}'
                      for s in socs)
    consts = "\n".join(f"inline constexpr uint32_t SOC_{m[:-len('_bytes')].upper()}_BYTES = {getattr(first, m)}u;"
                       for m in CORE_MEMORIES)
    return f"""// GENERATED from bench_bridge/soc.toml by `python3 -m bench_bridge.soc` -- do not edit.
// The hardware facts of the SoCs kgen emulates (one source: the SoC table). The core memories are
// compile-time constants (every SoC of the table shares them); the per-SoC facts are chosen at run time.
#pragma once
#include <cstdint>

namespace kgen {{
namespace soc {{

// ---- memories of one core (bytes) ----
{consts}

/// One SoC of the table: its CANN name, cube (AIC) and vector (AIV) core counts, L2 and HBM bytes.
struct SocRow {{
    const char* name;
    uint32_t aic;
    uint32_t aiv;
    uint64_t l2_bytes;
    uint64_t hbm_bytes;
}};

inline constexpr SocRow SOCS[] = {{
{rows},
}};
inline constexpr unsigned SOC_COUNT = {len(socs)};
inline constexpr unsigned DEFAULT_SOC = {[s.name for s in socs].index(default)};  // {default}

}}  // namespace soc
}}  // namespace kgen
"""


def write_header(path: Path = SOC_FILE, out: Path = HEADER_FILE) -> Path:
    out.write_text(cpp_header(path))
    return out


if __name__ == "__main__":  # pragma: no cover
    print(write_header(Path(sys.argv[1]) if len(sys.argv) > 1 else SOC_FILE))
