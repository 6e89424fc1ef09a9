"""The cost table of the performance model, read from ``costs_910b.toml``.

Every constant carries its unit and its source (a public document, or ``assumption: why``);
``CostTable.entries()`` lists them and ``python -m bench_bridge.perf.costs`` prints the table as
markdown. The SoC is chosen by argument, else ``$KGEN_SOC``, else the file's ``default_soc``.
"""
from __future__ import annotations

import os
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

COST_FILE = Path(__file__).with_name("costs_910b.toml")


@dataclass(frozen=True)
class Entry:
    name: str
    value: float
    unit: str
    source: str

    @property
    def assumption(self) -> bool:
        return self.source.lower().startswith("assumption")


@dataclass
class CostTable:
    soc: str
    description: str
    values: dict[str, Entry]
    vector_classes: dict[str, Entry]          # class -> cycles per repeat
    api_class: dict[str, str] = field(default_factory=dict)

    # ---- derived quantities used by the model ----
    def __getattr__(self, name: str) -> float:
        vals = self.__dict__.get("values")
        if vals is not None and name in vals:
            return vals[name].value
        raise AttributeError(name)

    @property
    def clock_hz(self) -> float:
        return self.clock_mhz * 1e6

    def cycles_to_us(self, cycles: float) -> float:
        return cycles / self.clock_mhz

    @property
    def hbm_bytes_per_cycle(self) -> float:
        """Whole-chip GM bandwidth in bytes per core clock cycle."""
        return self.hbm_gbps * 1e9 / self.clock_hz

    def vector_cycles_per_repeat(self, api: str) -> float:
        return self.vector_classes[self.api_class.get(api, "default")].value

    def vector_class(self, api: str) -> str:
        return self.api_class.get(api, "default")

    @property
    def peak_vector_flops(self) -> float:
        """Element operations per second of all vector cores on fp16 (one op per element per cycle)."""
        return self.vector_cores * (self.vector_bytes_per_cycle / 2) * self.clock_hz

    @property
    def peak_cube_flops(self) -> float:
        return self.ai_cores * self.cube_flops_per_cycle * self.clock_hz

    @property
    def peak_gm_bytes_per_s(self) -> float:
        return self.hbm_gbps * 1e9

    def entries(self) -> list[Entry]:
        return list(self.values.values()) + list(self.vector_classes.values())


def _entry(name: str, raw) -> Entry:
    if not isinstance(raw, dict) or not {"value", "unit", "source"} <= raw.keys():
        raise ValueError(f"cost table entry {name!r} must be {{value, unit, source}}")
    return Entry(name, float(raw["value"]), str(raw["unit"]), str(raw["source"]))


def available_socs(path: Path = COST_FILE) -> list[str]:
    with open(path, "rb") as f:
        return sorted(tomllib.load(f)["soc"])


def load(soc: str | None = None, path: Path = COST_FILE) -> CostTable:
    """The cost table of ``soc`` (e.g. "910B2", "Ascend910B4"; default ``$KGEN_SOC`` or the file's default)."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    name = (soc or os.environ.get("KGEN_SOC") or data["default_soc"]).strip()
    if name.lower().startswith("ascend"):
        name = name[len("ascend"):]
    socs = data["soc"]
    if name not in socs:
        raise ValueError(f"unknown SoC {name!r} for the performance model (known: {', '.join(sorted(socs))})")
    chain, cur = [], name
    while cur:
        chain.append(socs[cur])
        cur = socs[cur].get("inherits")
    merged: dict = {}
    for sec in reversed(chain):
        merged.update(sec)
    description = str(merged.pop("description", ""))
    merged.pop("inherits", None)
    values = {k: _entry(k, v) for k, v in merged.items()}
    classes, api_class = {}, {}
    for cls, sec in data["vector_class"].items():
        classes[cls] = _entry(f"vector_class.{cls}.cycles_per_repeat", sec["cycles_per_repeat"])
        for api in sec.get("apis", []):
            api_class[api] = cls
    if "default" not in classes:
        raise ValueError("cost table needs a [vector_class.default]")
    return CostTable(name, description, values, classes, api_class)


def to_markdown(table: CostTable) -> str:
    lines = [f"# Cost table: {table.soc}", "", table.description, "",
             "| constant | value | unit | source |", "|---|---|---|---|"]
    for e in table.entries():
        v = int(e.value) if e.value == int(e.value) else e.value
        lines.append(f"| `{e.name}` | {v} | {e.unit} | {e.source} |")
    n_assumed = sum(e.assumption for e in table.entries())
    lines += ["", f"{len(table.entries())} constants, {n_assumed} of them assumptions."]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(to_markdown(load(sys.argv[1] if len(sys.argv) > 1 else None)))
