"""Parsing AscendC with tree-sitter-cpp.

AscendC qualifiers (``__aicore__``, ``__global__``, ``__gm__``...) and the ``<<<...>>>`` launch syntax are
blanked with spaces of the same length before parsing, so the tree has no spurious errors and every
byte offset (and so every line/column) is the same as in the user's text.

:func:`parse` returns a :class:`Unit`: the text, the tree, and the facts the checks need (calls,
``AscendC::`` names, declarations with their types, functions defined in the file).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

import tree_sitter as ts
import tree_sitter_cpp as tsc

QUALIFIERS = ("__aicore__", "__global__", "__gm__", "__ubuf__", "__inline__", "__cce_aicore__", "__host__",
              "__device__", "__cbuf__", "__ca__", "__cb__", "__cc__", "__fbuf__", "__ssbuf__")
_QUAL_RE = re.compile(r"\b(?:" + "|".join(QUALIFIERS) + r")\b")
_LAUNCH_RE = re.compile(r"<<<[^<>;]*>>>")


def blank(text: str) -> str:
    """``text`` with AscendC qualifiers and kernel-launch chevrons replaced by spaces (same length)."""
    text = _QUAL_RE.sub(lambda m: " " * len(m.group(0)), text)
    return _LAUNCH_RE.sub(lambda m: " " * len(m.group(0)), text)


@lru_cache(maxsize=1)
def parser() -> ts.Parser:
    """The tree-sitter C++ parser (one per process)."""
    return ts.Parser(ts.Language(tsc.language()))


@dataclass(frozen=True)
class Call:
    name: str                  # "DataCopy"
    scope: str                 # "AscendC" for AscendC::DataCopy, "" otherwise
    obj: str                   # "inX_" for inX_.AllocTensor<half>(), "" otherwise
    template_args: tuple[str, ...]
    args: tuple[str, ...]      # argument texts
    name_span: tuple[int, int]  # byte offsets of the name
    span: tuple[int, int]      # byte offsets of the whole call
    args_span: tuple[int, int]  # byte offsets of "(...)"
    function: str              # the enclosing function's name ("" at file scope)


@dataclass(frozen=True)
class Name:
    """An ``AscendC::X`` reference that is not the callee of a call (a type, a constant...)."""
    name: str
    span: tuple[int, int]


@dataclass(frozen=True)
class Function:
    name: str
    span: tuple[int, int]
    name_span: tuple[int, int]
    params: tuple[tuple[str, str, tuple[int, int]], ...]   # (type text, name, name span)
    body_span: tuple[int, int]
    is_kernel: bool             # declared __global__ (a kernel entry)


@dataclass
class Unit:
    text: str
    data: bytes
    tree: object
    calls: list[Call] = field(default_factory=list)
    names: list[Name] = field(default_factory=list)
    decls: dict[str, str] = field(default_factory=dict)        # variable/field name -> type text (first seen)
    scoped: dict[str, list[tuple[str, str]]] = field(default_factory=dict)   # name -> [(function, type text)]
    functions: list[Function] = field(default_factory=list)
    defined: set[str] = field(default_factory=set)             # names defined in the file (functions, types, macros)
    constants: dict[str, str] = field(default_factory=dict)    # constexpr/const/#define name -> value text
    encoding: str = "utf-16"     # the LSP position encoding of `character` (utf-16, utf-8 or utf-32)
    _lines: list[int] = field(default_factory=list)

    # positions -------------------------------------------------------------------------------
    def position(self, offset: int) -> tuple[int, int]:
        """(line, character) of a byte offset; characters counted in the position encoding's units."""
        if not self._lines:
            self._lines = [0] + [m.end() for m in re.finditer(rb"\n", self.data)]
        line = bisect.bisect_right(self._lines, offset) - 1
        start = self._lines[line]
        if self.encoding == "utf-8":
            return line, offset - start
        col = self.data[start:offset].decode("utf-8", "replace")
        return line, (len(col) if self.encoding == "utf-32" else len(col.encode("utf-16-le")) // 2)

    def offset(self, line: int, character: int) -> int:
        """Byte offset of a (line, character) position, clamped to the text (and to whole characters)."""
        if not self._lines:
            self.position(0)
        if line < 0:
            return 0
        if line >= len(self._lines):
            return len(self.data)
        start = self._lines[line]
        end = self._lines[line + 1] - 1 if line + 1 < len(self._lines) else len(self.data)
        s = self.data[start:end].decode("utf-8", "replace")
        units, i = 0, 0
        while i < len(s) and units < character:
            ch = s[i]
            units += (len(ch.encode("utf-8", "replace")) if self.encoding == "utf-8" else
                      1 if self.encoding == "utf-32" or ord(ch) <= 0xFFFF else 2)
            i += 1
        return start + len(s[:i].encode("utf-8"))

    def range(self, span: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
        return self.position(span[0]), self.position(span[1])

    def slice(self, span: tuple[int, int]) -> str:
        return self.data[span[0]:span[1]].decode("utf-8", "replace")

    def type_of(self, name: str, function: str = "") -> str:
        """The declared type of ``name`` as seen from ``function``: its own local or parameter first,
        then a field or global."""
        cands = self.scoped.get(name, [])
        for fn, ty in reversed(cands):
            if function and fn == function:
                return ty
        for fn, ty in cands:
            if fn == "":
                return ty
        return cands[0][1] if cands else ""

    def has_errors(self) -> bool:
        return bool(self.tree.root_node.has_error)


def _txt(node) -> str:
    return node.text.decode("utf-8", "replace") if node is not None else ""


def declarator_name(node):
    """The identifier node a declarator declares (through init/pointer/reference/array declarators)."""
    seen = 0
    while node is not None and seen < 20:
        seen += 1
        if node.type in ("identifier", "field_identifier", "type_identifier"):
            return node
        if node.type in ("qualified_identifier", "destructor_name", "operator_name"):
            nm = node.child_by_field_name("name")
            return nm if nm is not None and nm.type in ("identifier", "field_identifier") else None
        nxt = node.child_by_field_name("declarator")
        if nxt is None:
            nxt = next((c for c in node.named_children if c.type.endswith("declarator")
                        or c.type in ("identifier", "field_identifier")), None)
        node = nxt
    return None


def _callee(fn):
    """(name node, scope, obj, template args) of a call's function part, or None."""
    scope, obj, targs = "", "", ()
    node = fn
    if node.type == "qualified_identifier":
        sc = node.child_by_field_name("scope")
        scope = _txt(sc)
        node = node.child_by_field_name("name")
        while node is not None and node.type == "qualified_identifier":   # A::B::f
            scope = f"{scope}::{_txt(node.child_by_field_name('scope'))}"
            node = node.child_by_field_name("name")
    elif node.type == "field_expression":
        obj = _txt(node.child_by_field_name("argument"))
        node = node.child_by_field_name("field")
    if node is None:
        return None
    if node.type in ("template_function", "template_method"):
        ta = node.child_by_field_name("arguments")
        targs = tuple(_txt(c) for c in ta.named_children) if ta is not None else ()
        node = node.child_by_field_name("name")
    if node is None or node.type not in ("identifier", "field_identifier"):
        return None
    return node, scope, obj, targs


def _enc(text: str) -> bytes:
    return text.encode("utf-8", "replace")   # a lone surrogate (legal in JSON) becomes one '?'


def parse(text: str, old_tree=None, encoding: str = "utf-16") -> Unit:
    """Parse ``text`` (reusing ``old_tree`` after :meth:`Tree.edit`, see :func:`reparse`); never raises
    on malformed input (tree-sitter recovers)."""
    data = _enc(blank(text))
    tree = parser().parse(data, old_tree) if old_tree is not None else parser().parse(data)
    unit = Unit(text=text, data=_enc(text), tree=tree, encoding=encoding)
    _collect(unit, tree.root_node)
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)(?:[ \t]+(.*))?$", text, re.M):
        unit.defined.add(m.group(1))
        if m.group(2):
            unit.constants.setdefault(m.group(1), m.group(2).split("//")[0].strip())
    return unit


def _point(data: bytes, off: int) -> tuple[int, int]:
    return data.count(b"\n", 0, off), off - (data.rfind(b"\n", 0, off) + 1)


def reparse(old: Unit, changes) -> Unit:
    """Incremental parse: ``changes`` are LSP content changes in order, each ``(range, text)`` with
    ``range = ((line, character), (line, character))`` or ``None`` for a whole-document replacement.
    The old tree is edited and handed to tree-sitter, which re-parses only what changed."""
    tree = old.tree
    cur = old
    for rng, new_text in changes:
        if rng is None:
            return parse(new_text, encoding=old.encoding)
        start = cur.offset(*rng[0])
        end = max(start, cur.offset(*rng[1]))
        ins = _enc(new_text)
        data = cur.data[:start] + ins + cur.data[end:]
        tree.edit(start_byte=start, old_end_byte=end, new_end_byte=start + len(ins),
                  start_point=_point(cur.data, start), old_end_point=_point(cur.data, end),
                  new_end_point=_point(data, start + len(ins)))
        cur = Unit(text=data.decode("utf-8", "replace"), data=data, tree=None, encoding=old.encoding)
    return parse(cur.text, old_tree=tree, encoding=old.encoding)


def _collect(unit: Unit, root) -> None:
    stack = [(root, "")]
    while stack:
        node, func = stack.pop()
        t = node.type
        if t == "function_definition":
            f = _function(unit, node)
            if f is not None:
                unit.functions.append(f)
                unit.defined.add(f.name)
                func = f.name
        elif t == "call_expression":
            fn = node.child_by_field_name("function")
            argl = node.child_by_field_name("arguments")
            c = _callee(fn) if fn is not None else None
            if c is not None and argl is not None:
                nm, scope, obj, targs = c
                args = tuple(_txt(a) for a in argl.named_children if a.type != "comment")
                unit.calls.append(Call(name=_txt(nm), scope=scope, obj=obj, template_args=targs, args=args,
                                       name_span=(nm.start_byte, nm.end_byte), span=(node.start_byte, node.end_byte),
                                       args_span=(argl.start_byte, argl.end_byte), function=func))
        elif t == "qualified_identifier":
            sc = node.child_by_field_name("scope")
            nm = node.child_by_field_name("name")
            parent = node.parent
            is_callee = parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node
            if sc is not None and _txt(sc) == "AscendC" and nm is not None and not is_callee:
                inner = nm
                if inner.type in ("template_type", "template_function"):
                    inner = inner.child_by_field_name("name")
                if inner is not None and inner.type in ("identifier", "type_identifier"):
                    unit.names.append(Name(_txt(inner), (inner.start_byte, inner.end_byte)))
        elif t in ("declaration", "field_declaration", "parameter_declaration"):
            ty = node.child_by_field_name("type")
            quals = " ".join(_txt(c) for c in node.children if c.type == "type_qualifier")
            for d in node.children_by_field_name("declarator"):
                nm = declarator_name(d)
                if nm is None or d.type == "function_declarator":
                    continue
                unit.decls.setdefault(_txt(nm), _txt(ty))
                unit.scoped.setdefault(_txt(nm), []).append((func if t != "field_declaration" else "", _txt(ty)))
                if d.type == "init_declarator" and ("const" in quals or "constexpr" in _txt(node).split("=")[0]):
                    val = d.child_by_field_name("value")
                    if val is not None:
                        unit.constants.setdefault(_txt(nm), _txt(val).strip("{}() "))
        elif t in ("class_specifier", "struct_specifier", "enum_specifier", "type_definition", "alias_declaration"):
            nm = node.child_by_field_name("name") or (node.child_by_field_name("declarator") if t == "type_definition" else None)
            if nm is not None:
                unit.defined.add(_txt(nm))
        for ch in reversed(node.children):
            stack.append((ch, func))
    unit.calls.sort(key=lambda c: c.span)


def _function(unit: Unit, node) -> Function | None:
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    if d is None:
        return None
    nm = declarator_name(d.child_by_field_name("declarator"))
    if nm is None:
        return None
    params = []
    pl = d.child_by_field_name("parameters")
    for p in (pl.named_children if pl is not None else []):
        if p.type != "parameter_declaration":
            continue
        pn = declarator_name(p.child_by_field_name("declarator"))
        if pn is not None:
            params.append((_txt(p.child_by_field_name("type")), _txt(pn), (pn.start_byte, pn.end_byte)))
    body = node.child_by_field_name("body")
    # qualifiers were blanked, so the node starts after them: look back to the previous statement
    back = max(unit.data.rfind(b";", 0, node.start_byte), unit.data.rfind(b"}", 0, node.start_byte),
               unit.data.rfind(b"{", 0, node.start_byte), unit.data.rfind(b"\n#", 0, node.start_byte))
    head = unit.data[back + 1:(body.start_byte if body is not None else node.end_byte)]
    return Function(name=_txt(nm), span=(node.start_byte, node.end_byte), name_span=(nm.start_byte, nm.end_byte),
                    params=tuple(params), body_span=(body.start_byte, body.end_byte) if body is not None else (0, 0),
                    is_kernel=b"__global__" in head)


def word_at(unit: Unit, line: int, character: int) -> tuple[str, tuple[int, int]] | None:
    """The identifier touching a position and its byte span."""
    off = unit.offset(line, character)
    data = unit.data
    s = off
    while s > 0 and _is_ident(data[s - 1]):
        s -= 1
    e = off
    while e < len(data) and _is_ident(data[e]):
        e += 1
    if s == e:
        return None
    return data[s:e].decode("utf-8", "replace"), (s, e)


def _is_ident(b: int) -> bool:
    return b < 128 and (chr(b).isalnum() or b == 95)
