"""Where each window of a windowed input starts, as C++ the kernel evaluates (``operands.WindowInput``).

A window's start is a number in each shape case; one kernel serves every case, so the start must follow one
rule in all of them. The rules, tried in order (``cols_``: the output's row length, ``L``: the input's):

* ``k * cols_``: the k-th of equal pieces (``x.chunk(n, -1)``, ``F.glu``, ``torch.split(x, d, -1)``);
* a constant (``x[..., 3:7]``, ``x[..., d:]`` with d fixed while the row grows);
* ``L - c``: counted from the row's end (``x[..., -d:]``).
"""
from __future__ import annotations

Case = dict[int, list[tuple[int, int, int]]]
"""One shape case: input index -> (start, the input's row length, the output's row length) per window."""


def _rule(points: list[tuple[int, int, int]], name: str) -> str | None:
    """The C++ start fitting every case's (start, L, cols), None when no rule does."""
    if all(c > 0 and s % c == 0 for s, _, c in points) and len({s // c for s, _, c in points}) == 1:
        k = points[0][0] // points[0][2]
        return "0" if k == 0 else ("cols_" if k == 1 else f"{k} * cols_")
    if len({s for s, _, _ in points}) == 1:
        return str(points[0][0])
    if len({ln - s for s, ln, _ in points}) == 1:
        return f"{name} - {points[0][1] - points[0][0]}"
    return None


def window_starts(cases: list[Case], src: str = "srcCols") -> dict[int, list[str]] | str:
    """Input index -> each window's C++ start (``<src><index>_`` is the input's row length in the kernel), or
    why the windows' starts follow no one rule over the cases."""
    out: dict[int, list[str]] = {}
    for i, wins in cases[0].items():
        out[i] = []
        for k in range(len(wins)):
            points = [case[i][k] for case in cases]
            rule = _rule(points, f"{src}{i}_")
            if rule is None:
                return (f"window {k} of input {i} starts at {[p[0] for p in points]} in rows of {[p[1] for p in points]}: "
                        f"no one rule (pieces of the row, a fixed offset, an offset from its end) fits every case")
            out[i].append(rule)
    return out
