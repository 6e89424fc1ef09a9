"""Cast with a round mode its (destination, source) pair does not support.

The documented Atlas A2 (dav-2201) Cast table, dst <- src : modes (the same table the emulator enforces
in kgen_sim/cast.h; a mode outside the list makes the hardware skip the conversion):

    half <- int8_t, uint8_t : NONE              float <- int16_t, half, bfloat16_t : NONE
    half <- int16_t : directed, NONE            int8_t, uint8_t <- half : directed, NONE
    int16_t, int32_t <- half : directed         int32_t <- bfloat16_t : directed
    int16_t <- int32_t, int64_t <- int32_t, int32_t <- int64_t : NONE
    half <- int32_t : any (ignored)             float <- int32_t : directed, NONE
    half <- float : directed, ODD, NONE         bfloat16_t, int16_t, int32_t, int64_t <- float : directed
    float <- float : directed                   float <- int64_t : directed

(directed = RINT FLOOR CEIL ROUND TRUNC). Quick fixes: CAST_NONE on a pair that must round ->
CAST_RINT (round to nearest even, what CAST_NONE means where it is allowed); a rounding mode on an
exact, NONE-only pair -> CAST_NONE.
"""
from __future__ import annotations

import re

from lsp.checks.findings import ERROR, Finding, Fix

CODE = "cast-round-mode"
DIRECTED = ("CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC")
NONE = ("CAST_NONE",)
ANY = ("*",)
TABLE: dict[tuple[str, str], tuple[str, ...]] = {
    ("half", "int8_t"): NONE, ("half", "uint8_t"): NONE, ("half", "int16_t"): DIRECTED + NONE,
    ("float", "int16_t"): NONE, ("int8_t", "half"): DIRECTED + NONE, ("uint8_t", "half"): DIRECTED + NONE,
    ("int16_t", "half"): DIRECTED, ("int32_t", "half"): DIRECTED, ("float", "half"): NONE,
    ("int32_t", "bfloat16_t"): DIRECTED, ("float", "bfloat16_t"): NONE, ("int16_t", "int32_t"): NONE,
    ("half", "int32_t"): ANY, ("float", "int32_t"): DIRECTED + NONE, ("int64_t", "int32_t"): NONE,
    ("int16_t", "float"): DIRECTED, ("half", "float"): DIRECTED + ("CAST_ODD",) + NONE,
    ("bfloat16_t", "float"): DIRECTED, ("int32_t", "float"): DIRECTED, ("float", "float"): DIRECTED,
    ("int64_t", "float"): DIRECTED, ("int32_t", "int64_t"): NONE, ("float", "int64_t"): DIRECTED,
}
_ELEM = re.compile(r"\bLocalTensor\s*<\s*(?:AscendC::)?(\w+)\s*>")
_KNOWN = {t for pair in TABLE for t in pair} | {"uint16_t", "uint32_t", "uint64_t", "double"}
_MODE = re.compile(r"\b(CAST_[A-Z]+)\b")
_ALIASES = {"bfloat16": "bfloat16_t", "float32_t": "float", "float16_t": "half", "__fp16": "half"}


def _norm(t: str) -> str:
    t = t.replace("AscendC::", "").strip()
    return _ALIASES.get(t, t)


def _elem(unit, arg: str, function: str) -> str:
    m = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)", arg)
    if not m:
        return ""
    name = m.group(1)
    ty = unit.type_of(name, function)
    e = _ELEM.search(ty)
    if e:
        return _norm(e.group(1))
    # `auto x = q.DeQue<T>()` / AllocTensor<T>() / Get<T>()
    a = re.search(rf"\b{re.escape(name)}\s*=\s*[\w.\->]*?\b(?:DeQue|AllocTensor|Get|ReinterpretCast)\s*<\s*(?:AscendC::)?(\w+)\s*>",
                  unit.text)
    return _norm(a.group(1)) if a else ""


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    for c in unit.calls:
        if c.name != "Cast" or c.obj or c.scope not in ("", "AscendC") or len(c.args) < 4:
            continue
        mode = _MODE.search(c.args[2])
        if mode is None:
            continue
        if len(c.template_args) >= 2:
            dst, src = _norm(c.template_args[0]), _norm(c.template_args[1])
        else:
            dst, src = _elem(unit, c.args[0], c.function), _elem(unit, c.args[1], c.function)
        allowed = TABLE.get((dst, src))
        if dst not in _KNOWN or src not in _KNOWN:     # DTYPE_X macros, template parameters: unknown here
            continue
        name = mode.group(1)
        if allowed is None:
            out.append(Finding(span=c.name_span, code=CODE, severity=ERROR,
                               message=f"Cast {src} -> {dst} is not a supported conversion on Atlas A2 (convert through "
                                       f"float or half)"))
            continue
        if allowed == ANY or name in allowed:
            continue
        # the byte span of the mode token inside the call's arguments
        args_text = unit.data[c.args_span[0]:c.args_span[1]]
        idx = [m.start() for m in re.finditer(rb"\b" + name.encode() + rb"\b", args_text)]
        span = (c.args_span[0] + idx[0], c.args_span[0] + idx[0] + len(name)) if idx else c.name_span
        if name == "CAST_NONE":
            fixes = (Fix("Use CAST_RINT (round to nearest, ties to even)", ((span, "CAST_RINT"),)),) + tuple(
                Fix(f"Use {m}", ((span, m),)) for m in allowed if m not in ("CAST_RINT", "CAST_NONE"))
            why = "the conversion can lose precision and this pair has no CAST_NONE: choose a rounding direction"
        elif allowed == NONE:
            fixes = (Fix("Use CAST_NONE (the conversion is exact)", ((span, "CAST_NONE"),)),)
            why = "the conversion is exact and only CAST_NONE is supported"
        else:
            fixes = tuple(Fix(f"Use {m}", ((span, m),)) for m in allowed if m != "CAST_NONE")
            why = "the hardware would skip the conversion"
        out.append(Finding(span=span, code=CODE, severity=ERROR, fixes=fixes,
                           message=f"Cast {src} -> {dst} does not support {name} on Atlas A2 (supported: "
                                   f"{', '.join(allowed)}); {why}"))
    return out
