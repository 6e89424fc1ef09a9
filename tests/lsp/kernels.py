"""Test inputs: a ~500-line AscendC kernel file built from the add sample's kernel class."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def big_kernel(lines: int = 500) -> str:
    add = (ROOT / "examples/add/add.asc").read_text()
    head, _, rest = add.partition("class KernelAdd {")
    body = "class KernelAdd {" + rest.split("int main()")[0]
    out, i = [head], 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(body.replace("KernelAdd", f"KernelAdd{i}").replace("add_custom", f"add_custom{i}"))
        i += 1
    return "".join(out)
