"""Go-to-definition for kernel-local symbols, from the tree-sitter tree of the file.

Resolved: local variables and parameters (the innermost declaration in scope before the use), members
of the kernel class (``pipe_``, ``this->tile_``, ``op.Init`` -> the class's field or method), functions,
classes, macros and globals of the file, the variable ``GET_TILING_DATA(var, tiling)`` declares, and
tiling struct fields (``tilingData.tileLength``, ``t.totalLength``) and tiling struct names -> the
project's tiling header (``TILING_DATA_FIELD_DEF(type, name)`` / ``BEGIN_TILING_DATA_DEF(Name)`` or a
plain struct), found among the file's quoted includes, its own folder and ``../op_host``; in host code
``tiling.set_totalLength(n)`` goes to the field ``totalLength``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lsp.parse import Unit, declarator_name, word_at

_SCOPES = ("compound_statement", "function_definition", "field_declaration_list", "for_statement",
           "for_range_loop", "translation_unit", "declaration_list", "lambda_expression")


@dataclass(frozen=True)
class Def:
    name: str
    span: tuple[int, int]        # byte span of the defining identifier
    scope: tuple[int, int]       # byte span where the name is visible
    ordered: bool                # visible only after its declaration (locals)
    owner: str = ""              # the class that declares it (members)


@dataclass(frozen=True)
class Target:
    path: str | None             # None: the document itself
    start: tuple[int, int]       # (line, character) in the position encoding
    end: tuple[int, int]


def _txt(n) -> str:
    return n.text.decode("utf-8", "replace") if n is not None else ""


def _scope_of(node):
    p = node.parent
    while p is not None and p.type not in _SCOPES:
        p = p.parent
    return p


def _owner(node) -> str:
    p = node.parent
    while p is not None:
        if p.type == "field_declaration_list":
            cls = p.parent
            nm = cls.child_by_field_name("name") if cls is not None else None
            if nm is not None and nm.type == "template_type":
                nm = nm.child_by_field_name("name")
            return _txt(nm)
        if p.type == "function_definition" and p.parent is not None and p.parent.type != "field_declaration_list" \
                and p.parent.type != "template_declaration":
            return ""
        p = p.parent
    return ""


def definitions(unit: Unit) -> list[Def]:
    """Every definition of the file with where it is visible."""
    out: list[Def] = []
    root = unit.tree.root_node
    whole = (0, len(unit.data))
    stack = [root]
    while stack:
        n = stack.pop()
        t = n.type
        if t in ("declaration", "field_declaration", "parameter_declaration", "optional_parameter_declaration"):
            for d in n.children_by_field_name("declarator"):
                nm = declarator_name(d)
                if nm is None:
                    continue
                if t == "field_declaration" or d.type == "function_declarator":
                    sc = _scope_of(n)
                    out.append(Def(_txt(nm), (nm.start_byte, nm.end_byte), (sc.start_byte, sc.end_byte) if sc else whole,
                                   False, _owner(nm)))
                elif t in ("parameter_declaration", "optional_parameter_declaration"):
                    fn = n.parent
                    while fn is not None and fn.type not in ("function_definition", "lambda_expression", "declaration",
                                                              "field_declaration"):
                        fn = fn.parent
                    if fn is not None:
                        out.append(Def(_txt(nm), (nm.start_byte, nm.end_byte), (fn.start_byte, fn.end_byte), False))
                else:
                    sc = _scope_of(n)
                    top = sc is None or sc.type in ("translation_unit", "declaration_list")
                    out.append(Def(_txt(nm), (nm.start_byte, nm.end_byte), (sc.start_byte, sc.end_byte) if sc else whole,
                                   not top))
        elif t == "function_definition":
            d = n.child_by_field_name("declarator")
            while d is not None and d.type != "function_declarator":
                d = d.child_by_field_name("declarator")
            nm = declarator_name(d.child_by_field_name("declarator")) if d is not None else None
            if nm is not None:
                owner = _owner(n)
                sc = _scope_of(n)
                out.append(Def(_txt(nm), (nm.start_byte, nm.end_byte),
                               (sc.start_byte, sc.end_byte) if (owner and sc) else whole, False, owner))
        elif t in ("class_specifier", "struct_specifier", "enum_specifier") and n.child_by_field_name("body") is not None:
            nm = n.child_by_field_name("name")
            if nm is not None and nm.type == "template_type":
                nm = nm.child_by_field_name("name")
            if nm is not None:
                out.append(Def(_txt(nm), (nm.start_byte, nm.end_byte), whole, False))
        elif t == "enumerator":
            nm = n.child_by_field_name("name")
            if nm is not None:
                out.append(Def(_txt(nm), (nm.start_byte, nm.end_byte), whole, False))
        elif t == "call_expression" and _txt(n.child_by_field_name("function")) in ("GET_TILING_DATA",
                                                                                    "GET_TILING_DATA_WITH_STRUCT"):
            args = [a for a in n.child_by_field_name("arguments").named_children if a.type != "comment"]
            var = args[0] if args and _txt(n.child_by_field_name("function")) == "GET_TILING_DATA" else \
                (args[1] if len(args) > 1 else None)
            sc = _scope_of(n)
            if var is not None and var.type == "identifier" and sc is not None:
                out.append(Def(_txt(var), (var.start_byte, var.end_byte), (sc.start_byte, sc.end_byte), True))
        stack.extend(n.named_children)
    for m in re.finditer(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)", unit.data, re.M):
        out.append(Def(m.group(1).decode(), (m.start(1), m.end(1)), whole, False))
    return out


def _visible(defs: list[Def], name: str, off: int) -> Def | None:
    cands = [d for d in defs if d.name == name and d.scope[0] <= off <= d.scope[1] and (not d.ordered or d.span[0] <= off)]
    if not cands:
        return None
    # innermost scope first; among equals the latest declaration before the use
    return min(cands, key=lambda d: (d.scope[1] - d.scope[0], -d.span[0] if d.span[0] <= off else d.span[0]))


def _member(defs: list[Def], name: str, cls: str) -> Def | None:
    hits = [d for d in defs if d.name == name and d.owner and (not cls or d.owner == cls)]
    return hits[0] if hits else None


_FIELD_DEF = r"TILING_DATA_FIELD_DEF(?:_ARR|_STRUCT)?\s*\((?:[^(),]|\([^()]*\))*,\s*(?:\w+\s*,\s*)?({name})\s*\)"
_STRUCT_DEF = r"(?:BEGIN_TILING_DATA_DEF\s*\(\s*|\b(?:struct|class)\s+)({name})\b"
_PLAIN_FIELD = r"^[ \t]*(?:const\s+)?[\w:<>]+[ \t*&]+({name})\s*(?:\[[^\]]*\])?\s*(?:=[^;]*)?;"


def _is_file(p: Path) -> bool:
    """Whether ``p`` is a file; False for a name the system cannot look up (too long, a NUL byte)."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def header_candidates(unit: Unit, path: Path | None) -> list[Path]:
    if path is None:
        return []
    here = path.parent
    out: list[Path] = []
    for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"', unit.text, re.M):
        for base in (here, here.parent / "op_host"):
            p = base / m.group(1)
            if _is_file(p):
                out.append(p)
    for base in (here, here.parent / "op_host"):
        if base.is_dir():
            out += sorted(p for p in base.glob("*.h") if "tiling" in p.name.lower())
    return list(dict.fromkeys(p.resolve() for p in out if p.resolve() != path.resolve()))


def _in_headers(unit: Unit, path: Path | None, name: str, field: bool) -> Target | None:
    pats = [_FIELD_DEF, _PLAIN_FIELD] if field else [_STRUCT_DEF]
    # host code sets the fields through generated accessors: tiling.set_totalLength(n) -> totalLength
    names = [name] + ([name[4:]] if field and name.startswith(("set_", "get_")) and len(name) > 4 else [])
    for h in header_candidates(unit, path):
        try:
            text = h.read_text(errors="replace")
        except OSError:
            continue
        for nm in names:
            for pat in pats:
                m = re.search(pat.format(name=re.escape(nm)), text, re.M)
                if m:
                    hu = Unit(text=text, data=text.encode("utf-8", "replace"), tree=None, encoding=unit.encoding)
                    b0 = len(text[:m.start(1)].encode("utf-8"))
                    return Target(str(h), hu.position(b0), hu.position(b0 + len(nm.encode())))
    return None


def _obj_type(unit: Unit, defs: list[Def], obj: str, off: int) -> str:
    base = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)", obj)
    if not base:
        return ""
    d = _visible(defs, base.group(1), off) or _member(defs, base.group(1), "")
    if d is None:
        return ""
    node = unit.tree.root_node.descendant_for_byte_range(d.span[0], d.span[1])
    while node is not None and node.type not in ("declaration", "field_declaration", "parameter_declaration",
                                                  "optional_parameter_declaration", "call_expression"):
        node = node.parent
    if node is None:
        return ""
    if node.type == "call_expression":        # GET_TILING_DATA(var, tiling)
        return "<tiling>"
    ty = _txt(node.child_by_field_name("type"))
    m = re.search(r"(\w+)\s*(?:<[^<>]*>)?\s*$", ty.replace("const ", ""))
    return m.group(1) if m else ty


def definition(unit: Unit, line: int, character: int, path: Path | None = None) -> Target | None:
    """Where the symbol at (line, character) is defined, or None."""
    w = word_at(unit, line, character)
    if w is None:
        return None
    name, (s, e) = w
    node = unit.tree.root_node.descendant_for_byte_range(s, e)
    defs = definitions(unit)

    def here(d: Def) -> Target:
        return Target(None, unit.position(d.span[0]), unit.position(d.span[1]))

    parent = node.parent if node is not None else None
    if parent is not None and parent.type in ("template_method", "template_function") and node == parent.child_by_field_name("name"):
        node, parent = parent, parent.parent
    if parent is not None and parent.type == "field_expression" and parent.child_by_field_name("field") == node:
        obj = _txt(parent.child_by_field_name("argument"))
        cls = "" if obj.strip() == "this" else _obj_type(unit, defs, obj, s)
        d = _member(defs, name, "" if cls in ("", "<tiling>") else cls)
        if d is not None and cls != "<tiling>":
            return here(d)
        return _in_headers(unit, path, name, field=True)
    d = _visible(defs, name, s)
    if d is None:
        # inside a method: a member of its class declared anywhere in the class
        d = _member(defs, name, _owner(node) if node is not None else "")
    if d is not None:
        return here(d)
    return _in_headers(unit, path, name, field=False)
