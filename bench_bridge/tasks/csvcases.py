"""NPUKernelBench ``test_cases.csv``: ``;``-separated rows with a header; values typed like pandas would.

Columns whose every value is True/False (pandas' spellings) become bools, columns of integer
literals ints, other numeric columns floats (so "2.0" stays 2.0, as pandas reads it), the rest stay strings (shapes such as ``[48, 128]`` are strings the task's ``get_inputs`` evals).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bench_bridge.tasks.model import CaseSpec, TaskError


class Row(dict):
    """A case row usable like a pandas Series: ``row.get(k)``, ``row[k]`` and ``row.k``."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e


_TRUE = ("True", "TRUE", "true")
_FALSE = ("False", "FALSE", "false")


def _number(s: str) -> float | int | None:
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return None


def read_cases(path: Path) -> list[CaseSpec]:
    """Parse the csv; a malformed row raises TaskError naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except OSError as e:
        raise TaskError(f"{path}: cannot read: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise TaskError(f"{path}: not a text file (byte {e.start} is not UTF-8)") from e
    rows = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip()]
    if not rows:
        raise TaskError(f"{path}: empty test case file")
    header = [h.strip() for h in rows[0][1].split(";")]
    if len(set(header)) != len(header) or any(not h for h in header):
        raise TaskError(f"{path}:{rows[0][0]}: malformed header {rows[0][1]!r}")
    raw: list[tuple[int, list[str]]] = []
    for lineno, ln in rows[1:]:
        cells = [c.strip() for c in ln.split(";")]
        if len(cells) != len(header):
            raise TaskError(f"{path}:{lineno}: expected {len(header)} ';'-separated fields ({';'.join(header)}), found {len(cells)}")
        raw.append((lineno, cells))
    if not raw:
        raise TaskError(f"{path}: no test cases after the header")
    # type each column as pandas would
    typed_cols: list[list[Any]] = []
    for j in range(len(header)):
        col = [cells[j] for _, cells in raw]
        nums = [_number(c) if c != "" else None for c in col]
        if all(c in _TRUE or c in _FALSE for c in col):  # pandas' default true/false spellings: a bool column
            typed_cols.append([c in _TRUE for c in col])
        elif all(n is not None for n in nums):
            if all(isinstance(n, int) for n in nums):  # every cell an integer literal: int64, as pandas
                typed_cols.append([int(n) for n in nums])
            else:  # any decimal point or exponent makes the column float64 ("2.0" stays 2.0)
                typed_cols.append([float(n) for n in nums])
        else:
            typed_cols.append(col)
    cases = []
    for i, (lineno, _) in enumerate(raw):
        row = Row({h: typed_cols[j][i] for j, h in enumerate(header)})
        cid = str(row.get("case_id", i))
        cases.append(CaseSpec(id=cid, params=row))
    return cases
