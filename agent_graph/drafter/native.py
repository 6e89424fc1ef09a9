"""Native half compute of flat kernels: which fx nodes may be computed in half as loaded (bit-exact
with PyTorch, which computes each op in float and rounds once), the kernel's compute type ``TC``, the
native variant's statements, and the outputs the last op writes in place (no UB->UB copy)."""
from __future__ import annotations

import re

import numpy as np

from agent_graph.drafter.operands import OutputKind
from agent_graph.drafter.templates import KernelParams

EXACT = {"Max", "Min", "Relu", "Abs"}            # the result is one of the operands (or its magnitude): no rounding
ROUNDING = {"Add", "Sub", "Mul"}                  # one IEEE operation: rounded once to the destination type
SCALAR_EXACT = {"Maxs", "Mins"}                   # exact when the scalar is a half value
_STMT = re.compile(r"^(\w+)\((.*)\);$")


def _half_exact(lit: str) -> bool:
    try:
        x = float(lit.rstrip("f"))
    except ValueError:
        return False
    return float(np.float16(x)) == x


def native_exact(stmts: list[str]) -> bool:
    """True when computing these statements (one fx node) in half gives what PyTorch gives for a half
    tensor: PyTorch computes each op in float and rounds the result once to half. An IEEE add, sub
    or mul of two half values computed in float (24-bit significand >= 2 * 11 + 2) and rounded to
    half equals the correctly rounded half operation (double rounding is innocuous at that
    precision), and max/min/relu/abs select an operand. Div is left out: the AscendC docs do not say
    the vector unit's half division is correctly rounded. So a node is native-exact when it is a run of
    exact statements with at most one rounding statement, last; scalar forms only with constants that
    are half values (Maxs/Mins), or Muls by -1 / Adds of 0."""
    rounding = 0
    for k, st in enumerate(stmts):
        m = _STMT.match(st.strip())
        if not m:
            return False
        api, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
        if "SC" in m.group(2) or "WK" in m.group(2) or "attr" in m.group(2):
            return False
        if api in EXACT:
            continue
        if api in SCALAR_EXACT and len(args) == 4 and _half_exact(args[2]):
            continue
        if (api, args[2] if len(args) == 4 else "") in (("Muls", "-1.0f"), ("Adds", "0.0f")):
            continue
        if api in ROUNDING and k == len(stmts) - 1:
            rounding += 1
            continue
        return False
    return rounding <= 1


def compute_type(kp: KernelParams) -> list[str]:
    """``TC``, the type a flat kernel computes in: half for the native variants (all float16, exact
    ops: see lowering.native_exact), float otherwise."""
    conds = [v.cond for v in kp.variants if v.native]
    if not conds or kp.template != "flat":
        return ["using TC = float;      // compute type"]
    if len(conds) == len(kp.variants):
        return ["using TC = half;       // compute type: every op is exact or rounded once in half"]
    return ["#if " + " || ".join(f"({c})" for c in conds),
            "using TC = half;       // compute type: every op is exact or rounded once in half, as PyTorch rounds it",
            "#else", "using TC = float;      // compute type", "#endif"]


_LITERAL = re.compile(r"(?<![\w.])(-?\d+\.\d+(?:e[-+]?\d+)?f)")


def native_body(v) -> list[str]:
    """A variant's flat statements; in a native (half) variant without the float round trips
    (Cast to RH_ and back) and with its half-valued constants typed as TC."""
    if not v.native:
        return v.body
    return [_LITERAL.sub(r"static_cast<TC>(\1)", ln) for ln in v.body if not (ln.startswith("Cast(") and "RH_" in ln)]


def direct_outputs(kp: KernelParams) -> dict[int, int]:
    """Flat outputs computed straight into their output-queue tensor: slot k -> output j, when output
    j is slot k's tile in every variant and no other output uses that slot (the template's SlotOrOut
    hands out the queue tensor when its type is the compute type, else the slot)."""
    found: dict[int, int] = {}
    taken: dict[str, int] = {}
    for j, p in enumerate(kp.outputs):
        exprs = {v.out_exprs[j] for v in kp.variants}
        if p.kind == OutputKind.VEC and len(exprs) == 1:
            e = exprs.pop()
            taken[e] = taken.get(e, 0) + 1
            if re.fullmatch(r"B\d+", e):
                found[int(e[1:])] = j
    return {k: j for k, j in found.items() if taken[f"B{k}"] == 1}
