"""The cost table of the performance model: the costs of ``costs_910b.toml`` over the SoC's facts.

The hardware facts (core counts, clock, bandwidth, memory sizes) are the SoC table's
(:func:`bench_bridge.soc.soc_facts`); the costs (cycles per instruction class, DMA set-up...) are this
file's. Every constant carries its unit and its source (a public document, or ``assumption: why``);
``CostTable.entries()`` lists them and ``python -m bench_bridge.perf.costs`` prints the table as
markdown. The SoC is chosen by argument, else ``$KGEN_SOC``, else the SoC table's default.
"""
from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge import settings as bench_settings
from bench_bridge.soc import SOC_FILE, Entry, entry, soc_facts

COST_FILE = Path(__file__).with_name("costs_910b.toml")


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


def load(soc: str | None = None, path: Path = COST_FILE, soc_file: Path = SOC_FILE) -> CostTable:
    """The cost table of ``soc`` (e.g. "910B2", "Ascend910B4"; default: the ``bench.soc`` setting
    (``KGEN_SOC``), else the SoC table's)."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    try:
        facts = soc_facts(soc or bench_settings.current().soc, soc_file)
    except ValueError as e:
        raise ValueError(f"{e} for the performance model") from None
    values = {e.name: e for e in facts.entries}
    for k, v in data["costs"].items():
        if k in values:
            raise ValueError(f"{path.name}: {k!r} is a hardware fact of the SoC table ({soc_file.name}), not a cost")
        values[k] = entry(k, v)
    classes, api_class = {}, {}
    for cls, sec in data["vector_class"].items():
        classes[cls] = entry(f"vector_class.{cls}.cycles_per_repeat", sec["cycles_per_repeat"])
        for api in sec.get("apis", []):
            api_class[api] = cls
    if "default" not in classes:
        raise ValueError("cost table needs a [vector_class.default]")
    return CostTable(facts.name, facts.description, values, classes, api_class)


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
