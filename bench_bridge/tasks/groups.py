"""References that list their cases through ``get_input_groups()`` (MultiKernelBench's NPUKernelBench-level
files): one forward-input list per case, the cases' shapes and attributes read by the reference from a JSON
Lines file beside it (``<stem>.json``, one ``{"inputs": [...]}`` object a line).

The loader counts the cases from that file (it runs no reference code); the reference worker and the drafter
call ``get_input_groups()`` once per module (it makes every case's tensors at once) and take case ``index``.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from bench_bridge.tasks.model import CaseSpec, TaskError

GROUPS_FN = "get_input_groups"


def cases_file(reference: Path) -> Path:
    return reference.with_suffix(".json")


def group_cases(reference: Path) -> list[CaseSpec]:
    """One case per line of the reference's ``<stem>.json``; its params: the line's inputs (names, shapes,
    dtypes, attribute values, for reports) and ``group``, the case's index into ``get_input_groups()``."""
    path = cases_file(reference)
    if not path.is_file():
        raise TaskError(f"{reference}: defines {GROUPS_FN}() but {path.name} (its cases, one JSON object a line) "
                        "is not beside it")
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise TaskError(f"{path}:{n}: not a JSON object ({e.msg})") from e
        inputs = row.get("inputs") if isinstance(row, dict) else None
        params: dict[str, Any] = {"group": len(cases)}
        if isinstance(inputs, list):
            params["inputs"] = [{k: v for k, v in i.items() if k in ("name", "dtype", "shape", "value")}
                                for i in inputs if isinstance(i, dict)]
        cases.append(CaseSpec(id=str(len(cases)), params=params))
    if not cases:
        raise TaskError(f"{path}: no cases (one JSON object a line)")
    return cases


_CACHE = "__kgen_input_groups__"


def group_inputs(mod: Any, index: int, seed: int) -> list:
    """The forward inputs of case ``index``: ``mod.get_input_groups()`` made once per loaded module (seeded),
    kept on the module object (a fresh load of the reference makes them anew)."""
    import torch  # optional: torch (only a reference worker or the drafter calls this; importing the module must not)

    groups = getattr(mod, _CACHE, None)
    if groups is None:
        torch.manual_seed(seed)
        groups = [list(g) if isinstance(g, (list, tuple)) else [g] for g in getattr(mod, GROUPS_FN)()]
        setattr(mod, _CACHE, groups)
    if index >= len(groups):
        raise TaskError(f"{GROUPS_FN}() made {len(groups)} case(s); case {index} is listed in "
                        f"{cases_file(Path(mod.__file__)).name}")
    return copy.deepcopy(groups[index])   # a reference that updates its inputs in place leaves the cache as made
