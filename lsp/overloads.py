"""Argument counts of the AscendC overloads: from the emulator headers first, then the knowledge base.

The KB's Signature sections miss overloads the emulator implements (``Power`` with 3-4 arguments,
``Select`` with 5, ``Log10`` with 2), and the emulator declares many of its APIs through macros, so
the headers are run through the preprocessor (``bench_bridge.api.preprocessed_source``: ``kernel_operator.h``
as a kernel build sees them, only the lines of the emulator's own headers) and parsed with tree-sitter.
Every function declared directly in ``namespace AscendC`` becomes a free overload; every member
function of a class in ``namespace AscendC`` becomes ``Class::name`` (base classes followed).

An :class:`Arity` is the (min, max) number of call arguments of one overload: parameters with a
default value are optional, a parameter pack or ``...`` makes ``max`` unbounded (``None``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lsp.hover import clean_signature
from lsp.parse import parser
from retrieval import symbols

log = logging.getLogger("kgen.lsp")


@dataclass(frozen=True)
class Arity:
    min: int
    max: int | None          # None: variadic

    def accepts(self, n: int) -> bool:
        return n >= self.min and (self.max is None or n <= self.max)

    def text(self) -> str:
        if self.max is None:
            return f"{self.min}+"
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"


@dataclass
class Table:
    free: dict[str, set[Arity]] = field(default_factory=dict)      # "DataCopy" -> arities
    members: dict[str, set[Arity]] = field(default_factory=dict)   # "TPipe::InitBuffer" -> arities
    bases: dict[str, list[str]] = field(default_factory=dict)      # "LocalTensor" -> ["BaseLocalTensor"]
    classes: set[str] = field(default_factory=set)
    macros: set[str] = field(default_factory=set)                  # function-like macros of the headers

    def member(self, cls: str, name: str) -> set[Arity]:
        out: set[Arity] = set()
        seen, todo = set(), [cls]
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            out |= self.members.get(f"{c}::{name}", set())
            todo += self.bases.get(c, [])
        return out


def _txt(node) -> str:
    return node.text.decode("utf-8", "replace") if node is not None else ""


def params_arity(plist) -> Arity:
    """The arity of a tree-sitter ``parameter_list`` node."""
    lo, hi, variadic = 0, 0, False
    named = [c for c in plist.named_children if c.type != "comment"]
    if len(named) == 1 and named[0].type == "parameter_declaration" and _txt(named[0]).strip() == "void":
        return Arity(0, 0)
    for c in named:
        if c.type in ("variadic_parameter_declaration", "variadic_parameter"):
            variadic = True
        elif c.type == "optional_parameter_declaration":
            hi += 1
        elif c.type == "parameter_declaration":
            lo += 1
            hi += 1
    if any(ch.type == "..." for ch in plist.children):
        variadic = True
    return Arity(lo, None if variadic else hi)


def _func_declarator(node):
    d = node.child_by_field_name("declarator")
    depth = 0
    while d is not None and d.type != "function_declarator" and depth < 10:
        d = d.child_by_field_name("declarator")
        depth += 1
    return d if d is not None and d.type == "function_declarator" else None


def _name_of(fd) -> str:
    n = fd.child_by_field_name("declarator")
    if n is None:
        return ""
    if n.type in ("identifier", "field_identifier"):
        return _txt(n)
    if n.type in ("template_function", "template_method"):
        return _txt(n.child_by_field_name("name"))
    if n.type == "operator_name":
        return ""
    return ""


def _class_name(node) -> str:
    n = node.child_by_field_name("name")
    if n is not None and n.type == "template_type":
        n = n.child_by_field_name("name")
    return _txt(n)


def _walk_class(table: Table, cls: str, node) -> None:
    table.classes.add(cls)
    for bc in node.children:
        if bc.type == "base_class_clause":
            for t in bc.named_children:
                if t.type in ("type_identifier", "template_type", "qualified_identifier"):
                    nm = t.child_by_field_name("name") if t.type != "type_identifier" else t
                    if nm is not None and nm.type == "template_type":
                        nm = nm.child_by_field_name("name")
                    table.bases.setdefault(cls, []).append(_txt(nm))
    body = node.child_by_field_name("body")
    if body is None:
        return
    for m in body.named_children:
        inner = m.child_by_field_name("declaration") if m.type == "template_declaration" else None
        for cand in ([m] if inner is None else [m] + [c for c in m.named_children if c.type in
                                                      ("function_definition", "field_declaration", "declaration")]):
            if cand.type in ("function_definition", "field_declaration", "declaration"):
                fd = _func_declarator(cand)
                if fd is not None:
                    name = _name_of(fd)
                    pl = fd.child_by_field_name("parameters")
                    if name and pl is not None and name != cls:
                        table.members.setdefault(f"{cls}::{name}", set()).add(params_arity(pl))


def _walk(table: Table, node, in_ascendc: bool) -> None:
    for ch in node.named_children:
        t = ch.type
        if t == "namespace_definition":
            nm = _txt(ch.child_by_field_name("name"))
            body = ch.child_by_field_name("body")
            if body is not None:
                _walk(table, body, nm == "AscendC" and not in_ascendc)
            continue
        if t == "linkage_specification":
            body = ch.child_by_field_name("body")
            if body is not None:
                _walk(table, body, in_ascendc)
            continue
        if not in_ascendc:
            continue
        if t == "template_declaration":
            _walk(table, ch, in_ascendc)
        elif t in ("class_specifier", "struct_specifier"):
            if _class_name(ch):
                _walk_class(table, _class_name(ch), ch)
        elif t in ("function_definition", "declaration"):
            for sub in ch.named_children:       # `struct X {...};` is a declaration holding the class
                if sub.type in ("class_specifier", "struct_specifier") and _class_name(sub):
                    _walk_class(table, _class_name(sub), sub)
            fd = _func_declarator(ch)
            if fd is not None:
                name = _name_of(fd)
                pl = fd.child_by_field_name("parameters")
                if name and pl is not None:
                    table.free.setdefault(name, set()).add(params_arity(pl))


def parse_table(source: str) -> Table:
    table = Table()
    tree = parser().parse(source.encode("utf-8", "replace"))
    _walk(table, tree.root_node, False)
    return table


_lock = threading.Lock()
_table: Table | None = None


def emulator() -> Table:
    """The emulator's overload table (empty when the compiler is missing: then only the KB is used).
    Built once per process; the server starts building it in the background at start-up
    (:func:`warm_up`), and a caller that comes first waits for it."""
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                _table = _build_table()
    return _table


_warming: threading.Thread | None = None


def warm_up() -> threading.Thread:
    """Build the overload table in a daemon thread (the preprocessor runs while the server starts);
    the thread of the first call is returned again by later calls."""
    global _warming
    with _lock:
        if _warming is None:
            _warming = threading.Thread(target=emulator, name="kgen-lsp-overloads", daemon=True)
            _warming.start()
    return _warming


def _build_table() -> Table:
    # paid here in the warm-up thread instead of at the server's start
    # lazy: bench_bridge.api imports the whole bench bridge (numpy, the bench, the perf model): 0.19-0.32 s (measured)
    from bench_bridge.api import cache_root, function_macros, preprocessed_source

    try:
        source = preprocessed_source()
    except (OSError, subprocess.SubprocessError) as e:
        log.warning("cannot read the emulator headers' overloads: %s", e)
        table = Table()
    else:
        table = _cached_table(source, cache_root() / "lsp")
    table.macros = function_macros()
    return table


def _cached_table(source: str, folder: Path) -> Table:
    """:func:`parse_table` of ``source``, kept in ``folder`` by the hash of the source and of this module
    (parsing the ~600 KB of preprocessed headers costs ~0.25 s of the server's start; reading it back, ms)."""
    key = hashlib.sha256(source.encode("utf-8", "replace") + Path(__file__).read_bytes()).hexdigest()[:20]
    path = folder / f"overloads-{key}.json"
    try:
        return _table_of(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    table = parse_table(source)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(_json_of(table)))
        os.replace(tmp, path)
    except OSError as e:
        log.info("overload table not cached: %s", e)
    return table


def _json_of(table: Table) -> dict:
    arities = lambda d: {k: sorted([a.min, a.max] for a in v) for k, v in d.items()}  # noqa: E731
    return {"free": arities(table.free), "members": arities(table.members), "bases": table.bases,
            "classes": sorted(table.classes)}


def _table_of(data: dict) -> Table:
    arities = lambda d: {k: {Arity(lo, hi) for lo, hi in v} for k, v in d.items()}  # noqa: E731
    return Table(free=arities(data["free"]), members=arities(data["members"]),
                 bases={k: list(v) for k, v in data["bases"].items()}, classes=set(data["classes"]))


@lru_cache(maxsize=4096)
def kb_arities(name: str) -> frozenset[Arity]:
    """Arities of the KB's documented overloads of ``name`` (its Signature section)."""
    sym = symbols.lookup(name)
    if sym is None or sym.name != name:
        return frozenset()
    out = set()
    for sig in sym.overloads:
        decl = clean_signature(sig, name)
        tree = parser().parse((decl.replace("__gm__", "       ") + ";").encode("utf-8", "replace"))
        stack = [tree.root_node]
        while stack:
            n = stack.pop()
            if n.type == "function_declarator" and _name_of(n) == name:
                pl = n.child_by_field_name("parameters")
                if pl is not None and not pl.has_error:
                    out.add(params_arity(pl))
            stack += n.named_children
    return frozenset(out)


def free_arities(name: str) -> set[Arity]:
    if name in emulator().macros:
        return set()
    return set(emulator().free.get(name, set())) | set(kb_arities(name))


def member_arities(cls: str, name: str) -> set[Arity]:
    return emulator().member(cls, name) | set(kb_arities(name))
