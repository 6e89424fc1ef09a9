"""AscendC statements for one elementwise op on float vectors in UB (count form).

Every function returns C++ lines. Operands are ``V`` (a LocalTensor<float> expression) or ``S`` (a
float scalar expression); ``tmp`` hands out scratch float tensors of the same length. All arithmetic
is float; the caller rounds to half/bfloat16 where the reference does.
"""
from __future__ import annotations

import numpy as np

from dataclasses import dataclass
from typing import Callable


class Unsupported(Exception):
    """This op (or this form of it) is outside the templates; message names it."""


@dataclass(frozen=True)
class V:
    expr: str


@dataclass(frozen=True)
class S:
    expr: str


def f(x: float | str) -> str:
    """A float literal (a string is already a C++ float expression: a runtime attr such as ``attr0_``)."""
    if isinstance(x, str):
        return x
    if x != x:
        return "(0.0f/0.0f)"
    if x in (float("inf"), float("-inf")):
        return "(1.0f/0.0f)" if x > 0 else "(-1.0f/0.0f)"
    return f"{float(x)!r}f".replace("inf", "INFINITY")


Tmp = Callable[[], str]


def param(kw: dict, key: str, default: float) -> float | str:
    """An op's scalar parameter: a number, or the C++ expression of the runtime attr it was given as."""
    v = kw.get(key, default)
    return v if isinstance(v, str) else float(v)


def number(kw: dict, key: str, default: float, op: str) -> float:
    """A parameter the statements compute with at draft time (it must be a constant of the reference)."""
    v = param(kw, key, default)
    if isinstance(v, str):
        raise Unsupported(f"{op} with {key} given as a runtime argument (the templates need it as a constant)")
    return v


MATH_LIBRARY = {"acos": "Acos", "asin": "Asin", "atan": "Atan", "tan": "Tan", "cosh": "Cosh", "sinh": "Sinh",
                "erfc": "Erfc", "log2": "Log2", "log10": "Log10", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh"}
"""Unary torch functions the AscendC math library computes by name, with the API's name."""


def unary(op: str, d: str, a: str, n: str, kw: dict, tmp: Tmp) -> list[str]:
    """d = op(a) for float vectors d, a (d != a unless the op allows it)."""
    one = {
        "relu": [f"Relu({d}, {a}, {n});"],
        "abs": [f"Abs({d}, {a}, {n});"],
        "exp": [f"Exp({d}, {a}, {n});"],
        "log": [f"Ln({d}, {a}, {n});"],
        "sqrt": [f"Sqrt({d}, {a}, {n});"],
        "neg": [f"Muls({d}, {a}, -1.0f, {n});"],
        "square": [f"Mul({d}, {a}, {a}, {n});"],
        "sigmoid": [f"Sigmoid({d}, {a}, {n});"],
        "tanh": [f"Tanh({d}, {a}, {n});"],
        "erf": [f"Erf({d}, {a}, {n});"],
        "sin": [f"Sin({d}, {a}, {n});"],
        "cos": [f"Cos({d}, {a}, {n});"],
        "floor": [f"Floor({d}, {a}, {n});"],
        "ceil": [f"Ceil({d}, {a}, {n});"],
        "round": [f"Round({d}, {a}, {n});"],     # half-way cases to the even integer, as torch.round
        "trunc": [f"Trunc({d}, {a}, {n});"],
        "sign": [f"Sign({d}, {a}, {n});"],
        "silu": [f"Silu({d}, {a}, {n});"],
        "identity": [f"Adds({d}, {a}, 0.0f, {n});"],
    } if op in ("relu", "abs", "exp", "log", "sqrt", "neg", "square", "sigmoid", "tanh", "erf",
                "sin", "cos", "floor", "ceil", "round", "trunc", "sign", "silu", "identity") else None
    if one is not None:
        return one[op]
    if op in MATH_LIBRARY:     # the AscendC math library's function of the same name (Acos, Log2, Cosh, ...)
        return [f"{MATH_LIBRARY[op]}({d}, {a}, {n});"]
    if op in ("rsqrt", "reciprocal"):
        t = tmp()
        src = a
        lines = []
        if op == "rsqrt":
            lines.append(f"Sqrt({d}, {a}, {n});")
            src = d
        return lines + [f"Duplicate({t}, 1.0f, {n});", f"Div({d}, {t}, {src}, {n});"]
    if op == "log1p":
        return [f"Adds({d}, {a}, 1.0f, {n});", f"Ln({d}, {d}, {n});"]
    if op == "expm1":
        return [f"Exp({d}, {a}, {n});", f"Adds({d}, {d}, -1.0f, {n});"]
    if op == "gelu":
        if kw.get("approximate", "none") == "tanh":
            # x/2 * (1 + tanh(u)) with u = sqrt(2/pi) * (x + 0.044715 x^3) is x / (1 + exp(-2u)) exactly
            # (0.5 (1 + tanh u) = 1 / (1 + e^-2u)); -2u = -2 sqrt(2/pi) * 0.044715 * (x^3 + x / 0.044715):
            # 7 vector instructions, one Exp and one Div instead of a Tanh
            t = tmp()
            return [f"Mul({t}, {a}, {a}, {n});", f"Mul({t}, {t}, {a}, {n});", f"Axpy({t}, {a}, {f(1.0 / 0.044715)}, {n});",
                    f"Muls({t}, {t}, {f(-2.0 * 0.7978845608028654 * 0.044715)}, {n});", f"Exp({t}, {t}, {n});",
                    f"Adds({t}, {t}, 1.0f, {n});", f"Div({d}, {a}, {t}, {n});"]
        t = tmp()
        return [f"Muls({t}, {a}, 0.7071067811865476f, {n});", f"Erf({d}, {t}, {n});", f"Adds({d}, {d}, 1.0f, {n});",
                f"Mul({d}, {d}, {a}, {n});", f"Muls({d}, {d}, 0.5f, {n});"]
    if op == "leaky_relu":
        slope = param(kw, "negative_slope", 0.01)
        return [f"LeakyRelu({d}, {a}, {f(slope)}, {n});"]
    if op in ("elu", "selu"):
        alpha = param(kw, "alpha", 1.0) if op == "elu" else 1.6732632423543772
        scale = 1.0 if op == "elu" else 1.0507009873554805
        t = tmp()
        lines = [f"Exp({t}, {a}, {n});", f"Adds({t}, {t}, -1.0f, {n});", f"Muls({t}, {t}, {f(alpha)}, {n});",
                 f"Mins({t}, {t}, 0.0f, {n});", f"Relu({d}, {a}, {n});", f"Add({d}, {d}, {t}, {n});"]
        return lines + ([f"Muls({d}, {d}, {f(scale)}, {n});"] if scale != 1.0 else [])
    if op in ("softplus", "logsigmoid", "mish"):
        if op == "softplus" and number(kw, "threshold", 20.0, op) < 15.0:
            raise Unsupported(f"softplus with threshold {kw.get('threshold')} is not covered by the templates")
        if op == "softplus":
            # PyTorch: beta*x > threshold ? x : log1p(exp(beta*x)) / beta. With u = min(beta*x, threshold),
            # t = ln(1 + exp(u)) / beta >= x below the threshold and rounds to threshold/beta above it (for a
            # threshold >= 15, e^-threshold is under half an ulp of it), so max(t, x) is PyTorch's value
            # (ln(1 + e^u) instead of log1p differs by < 1e-7 absolute). 5 vector instructions when beta = 1.
            beta, thr = number(kw, "beta", 1.0, op), number(kw, "threshold", 20.0, op)
            t = tmp()
            lines = [f"Muls({t}, {a}, {f(beta)}, {n});", f"Mins({t}, {t}, {f(thr)}, {n});"] if beta != 1.0 else \
                [f"Mins({t}, {a}, {f(thr)}, {n});"]
            lines += [f"Exp({t}, {t}, {n});", f"Adds({t}, {t}, 1.0f, {n});", f"Ln({t}, {t}, {n});"]
            if beta != 1.0:
                lines.append(f"Muls({t}, {t}, {f(1.0 / beta)}, {n});")
            return lines + [f"Max({d}, {t}, {a}, {n});"]
        if op == "mish":
            # tanh(ln(1 + e)) = ((1 + e)^2 - 1) / ((1 + e)^2 + 1) = m / (m + 2) with m = e (e + 2), e = exp(x):
            # mish(x) = x * m / (m + 2). With x clamped at 20, e^20 (e + 2) is finite and m / (m + 2) rounds to 1
            # (PyTorch's softplus threshold); far below 0, m ~ 2e keeps its relative precision (no cancellation).
            # 7 vector instructions, no Ln or Tanh (against 9 with both through softplus)
            t, u = tmp(), tmp()
            return [f"Mins({t}, {a}, 20.0f, {n});", f"Exp({t}, {t}, {n});", f"Adds({u}, {t}, 2.0f, {n});",
                    f"Mul({t}, {t}, {u}, {n});", f"Adds({u}, {t}, 2.0f, {n});", f"Div({t}, {t}, {u}, {n});",
                    f"Mul({d}, {t}, {a}, {n});"]
        # logsigmoid(x) = -softplus(-x) = -(relu(-x) + log(1 + exp(-|x|)))
        t, u = tmp(), tmp()
        return [f"Muls({u}, {a}, -1.0f, {n});", f"Abs({t}, {u}, {n});", f"Muls({t}, {t}, -1.0f, {n});",
                f"Exp({t}, {t}, {n});", f"Adds({t}, {t}, 1.0f, {n});", f"Ln({t}, {t}, {n});", f"Relu({u}, {u}, {n});",
                f"Add({t}, {t}, {u}, {n});", f"Muls({d}, {t}, -1.0f, {n});"]
    if op in ("hardtanh", "relu6"):
        lo = param(kw, "min_val", -1.0) if op == "hardtanh" else 0.0
        hi = param(kw, "max_val", 1.0) if op == "hardtanh" else 6.0
        return [f"Maxs({d}, {a}, {f(lo)}, {n});", f"Mins({d}, {d}, {f(hi)}, {n});"]
    if op in ("hardsigmoid", "hardswish"):
        lines = [f"Adds({d}, {a}, 3.0f, {n});", f"Maxs({d}, {d}, 0.0f, {n});", f"Mins({d}, {d}, 6.0f, {n});"]
        t = tmp()
        lines += [f"Duplicate({t}, 6.0f, {n});", f"Div({d}, {d}, {t}, {n});"]
        if op == "hardswish":
            lines += [f"Mul({d}, {d}, {a}, {n});"]
        return lines
    raise Unsupported(f"elementwise op {op} is not covered by the templates")


SIXTEEN_BIT_CXX = {"float16": "half", "bfloat16": "bfloat16_t"}
"""The C++ scalar type of each 16-bit float dtype."""


def as_dtype(c: float, dtype: str | None) -> float:
    """``c`` rounded to ``dtype`` (nearest even) when that is a 16-bit float: PyTorch casts a Python-number
    exponent to the tensor's dtype before ``pow`` (``x.pow(1.7)`` of a bfloat16 tensor raises to 1.703125)."""
    if dtype == "float16":
        return float(np.float16(c))
    if dtype == "bfloat16":
        bits = int(np.float32(c).view(np.uint32))
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return float(np.uint32(bits).view(np.float32))
    return c


def pow_const(d: str, a: str, c: float, n: str, tmp: Tmp) -> list[str]:
    if c == 1.0:
        return [f"Adds({d}, {a}, 0.0f, {n});"]
    if c == 0.5:
        return [f"Sqrt({d}, {a}, {n});"]
    if c == -0.5:
        return unary("rsqrt", d, a, n, {}, tmp)
    if c == -1.0:
        return unary("reciprocal", d, a, n, {}, tmp)
    if c == float(int(c)) and 2 <= c <= 8:
        lines = [f"Mul({d}, {a}, {a}, {n});"]
        for _ in range(int(c) - 2):
            lines.append(f"Mul({d}, {d}, {a}, {n});")
        return lines
    if c == 0.0:
        return [f"Duplicate({d}, 1.0f, {n});"]
    # a^c = exp(c * ln(a)) (NaN for a < 0, as torch gives for a non-integer exponent)
    return [f"Ln({d}, {a}, {n});", f"Muls({d}, {d}, {f(c)}, {n});", f"Exp({d}, {d}, {n});"]


def exact_inverse(s: str) -> str | None:
    """1 / s as a float literal when ``s`` is a literal power of two (its inverse is exact, so x * (1 / s) rounds
    as x / s does); None for any other divisor, an attribute or an expression."""
    try:
        c = float(s[:-1] if s.endswith("f") else s)
    except ValueError:
        return None
    if c == 0.0 or not np.isfinite(c) or float(np.float32(c)) != c:
        return None
    mantissa, _ = np.frexp(c)
    inverse = 1.0 / c
    tiny, huge = float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)
    return f(inverse) if abs(mantissa) == 0.5 and tiny <= abs(inverse) <= huge else None


def binary(op: str, d: str, a: V | S, b: V | S, n: str, tmp: Tmp) -> list[str]:
    """d = a op b where at least one operand is a vector."""
    names = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "maximum": "Max", "minimum": "Min"}
    if isinstance(a, V) and isinstance(b, V):
        if op in names:
            return [f"{names[op]}({d}, {a.expr}, {b.expr}, {n});"]
        raise Unsupported(f"{op} of two tensors is not covered by the templates")
    if isinstance(a, V):  # vector op scalar
        v, s = a.expr, b.expr
        if op == "add":
            return [f"Adds({d}, {v}, {s}, {n});"]
        if op == "sub":
            return [f"Adds({d}, {v}, -({s}), {n});"]
        if op == "mul":
            return [f"Muls({d}, {v}, {s}, {n});"]
        if op == "maximum":
            return [f"Maxs({d}, {v}, {s}, {n});"]
        if op == "minimum":
            return [f"Mins({d}, {v}, {s}, {n});"]
        if op == "div":
            inverse = exact_inverse(s)
            if inverse is not None:   # x / 2^k is x * 2^-k exactly: one Muls, no tile of the divisor
                return [f"Muls({d}, {v}, {inverse}, {n});"]
            t = tmp()
            return [f"Duplicate({t}, {s}, {n});", f"Div({d}, {v}, {t}, {n});"]
        raise Unsupported(f"{op} of a tensor and a scalar is not covered by the templates")
    v, s = b.expr, a.expr  # scalar op vector
    if op in ("add", "mul", "maximum", "minimum"):
        return binary(op, d, b, a, n, tmp)
    if op == "sub":
        return [f"Muls({d}, {v}, -1.0f, {n});", f"Adds({d}, {d}, {s}, {n});"]
    if op == "div":
        t = tmp()
        return [f"Duplicate({t}, {s}, {n});", f"Div({d}, {t}, {v}, {n});"]
    if op == "pow":  # s ** v = exp(v * ln(s))
        return [f"Muls({d}, {v}, logf({s}), {n});", f"Exp({d}, {d}, {n});"]
    raise Unsupported(f"{op} of a scalar and a tensor is not covered by the templates")


def scalar_binary(op: str, a: str, b: str) -> str:
    """C++ float expression for a op b on scalars."""
    if op == "add":
        return f"({a} + {b})"
    if op == "sub":
        return f"({a} - {b})"
    if op == "mul":
        return f"({a} * {b})"
    if op == "div":
        return f"({a} / {b})"
    if op == "maximum":
        return f"({a} > {b} ? {a} : {b})"
    if op == "minimum":
        return f"({a} < {b} ? {a} : {b})"
    if op in SCALAR_COMPARE:     # a comparison as 1.0 / 0.0
        return f"({a} {SCALAR_COMPARE[op]} {b} ? 1.0f : 0.0f)"
    raise Unsupported(f"{op} of two scalars is not covered by the templates")


SCALAR_UNARY = {"neg": "(-{a})", "reciprocal": "(1.0f / {a})", "square": "({a} * {a})"}
"""Unary ops of one float the scalar unit computes as the vector unit would (one IEEE float operation, the same
rounding): no Duplicate / vector op / GetValue round trip for a negation, reciprocal or square of a number."""

SCALAR_COMPARE = {"gt": ">", "lt": "<", "ge": ">=", "le": "<=", "eq": "==", "ne": "!="}
