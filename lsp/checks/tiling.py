"""Missing GET_TILING_DATA: a kernel entry (``__global__``) that takes a tiling argument but never
unpacks it. The quick fix inserts ``GET_TILING_DATA(tilingData, <arg>);`` at the top of the body."""
from __future__ import annotations

from lsp.checks.findings import WARNING, Finding, Fix

CODE = "missing-tiling-data"


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    for f in unit.functions:
        if not f.is_kernel or f.body_span == (0, 0):
            continue
        body = unit.slice(f.body_span)
        if "GET_TILING_DATA" in body:
            continue
        for _ty, name, span in f.params:
            if "tiling" not in name.lower():
                continue
            edit = ((f.body_span[0] + 1, f.body_span[0] + 1), f"\n    GET_TILING_DATA(tilingData, {name});")
            out.append(Finding(span=span, code=CODE, severity=WARNING,
                               message=f"kernel '{f.name}' takes the tiling argument '{name}' but never reads it "
                                       f"with GET_TILING_DATA(tilingData, {name})",
                               fixes=(Fix(f"Add GET_TILING_DATA(tilingData, {name})", (edit,)),)))
            break
    return out
