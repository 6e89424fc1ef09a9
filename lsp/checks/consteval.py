"""Evaluating constant integer expressions of a kernel: literals, constexpr/const/#define names,
``sizeof(type)``, casts and + - * / % << >> (no calls). None when not computable."""
from __future__ import annotations

import ast
import re

SIZEOF = {"half": 2, "float16_t": 2, "bfloat16_t": 2, "float": 4, "float32_t": 4, "double": 8, "bool": 1,
          "int8_t": 1, "uint8_t": 1, "char": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4,
          "int": 4, "unsigned": 4, "int64_t": 8, "uint64_t": 8, "size_t": 8}
_SIZEOF_RE = re.compile(r"sizeof\s*\(\s*(?:AscendC::)?(\w+)\s*\)")
_CAST_RE = re.compile(r"static_cast\s*<[^<>]*>|\(\s*(?:u?int(?:8|16|32|64)_t|int|unsigned|size_t|long)\s*\)"
                      r"|\b(?:u?int(?:8|16|32|64)_t|size_t)\s*(?=\()")
_NUM_SUFFIX = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)\b")
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Div, ast.Mod, ast.LShift, ast.RShift)


def _eval(node):
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and isinstance(node.op, _OPS):
        a, b = _eval(node.left), _eval(node.right)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and b == 0:
            raise ValueError("division by zero")
        if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= b < 64:
            raise ValueError("shift")
        op = type(node.op)
        if op is ast.Add:
            return a + b
        if op is ast.Sub:
            return a - b
        if op is ast.Mult:
            return a * b
        if op is ast.FloorDiv:
            return a // b
        if op is ast.Div:
            return int(a / b)
        if op is ast.Mod:
            return a % b
        return a << b if op is ast.LShift else a >> b
    raise ValueError("not constant")


def evaluate(expr: str, constants: dict[str, str], depth: int = 0) -> int | None:
    if depth > 6 or len(expr) > 300:
        return None
    e = _SIZEOF_RE.sub(lambda m: str(SIZEOF[m.group(1)]) if m.group(1) in SIZEOF else m.group(0), expr)
    e = _CAST_RE.sub("", e)
    e = _NUM_SUFFIX.sub(r"\1", e)

    def sub(m):
        v = constants.get(m.group(0))
        if v is None:
            raise KeyError(m.group(0))
        r = evaluate(v, constants, depth + 1)
        if r is None:
            raise KeyError(m.group(0))
        return f"({r})"

    try:
        e = _IDENT.sub(sub, e)
        e = e.replace("/", "//").replace("////", "//")
        v = _eval(ast.parse(e.strip(), mode="eval"))
        return v if abs(v) < 1 << 62 else None
    except (KeyError, ValueError, SyntaxError, RecursionError, TypeError, MemoryError):
        return None
