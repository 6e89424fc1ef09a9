"""Kernel entry signature problems.

A kernel entry is declared ``extern "C" __global__ __aicore__ void name(GM_ADDR ...)``: ``__global__``
makes it launchable from the host, ``__aicore__`` compiles it for the AI Core, it returns ``void``
(a launch has no result), and in a custom-op project (no host ``main`` and no ``<<<>>>`` launch in the
file) every parameter is a GM address (``GM_ADDR`` = ``__gm__ uint8_t*``): the framework passes the
inputs, outputs, workspace and tiling as global-memory pointers and finds the entry by its C name.

Candidates: functions declared ``__global__``, and ``extern "C"`` functions declared ``__aicore__``
that are not ``inline`` (an entry that lost its ``__global__``).
"""
from __future__ import annotations

import re

from lsp.checks.findings import ERROR, WARNING, Finding, Fix

CODE = "kernel-entry"
_LAUNCH_PROGRAM = re.compile(r"<<<|\bmain\s*\(|ICPU_RUN_KF")
_GM_PARAM = re.compile(r"^\s*(?:const\s+)?(?:GM_ADDR|__gm__\s+(?:const\s+)?u?int8_t\s*\*|"
                       r"(?:const\s+)?u?int8_t\s+__gm__\s*\*)\s*(?:const\s+)?[A-Za-z_]\w*\s*$")


def _node(unit, f):
    n = unit.tree.root_node.descendant_for_byte_range(f.span[0], f.span[1])
    while n is not None and n.type != "function_definition":
        n = n.parent
    return n


def _head_start(unit, node) -> int:
    data = unit.data
    back = max(data.rfind(b";", 0, node.start_byte), data.rfind(b"}", 0, node.start_byte),
               data.rfind(b"{", 0, node.start_byte), data.rfind(b"\n#", 0, node.start_byte))
    if back >= 0 and data[back:back + 2] == b"\n#":     # skip the preprocessor line itself
        back = data.find(b"\n", back + 1)
    s = back + 1
    while s < node.start_byte and data[s:s + 1].isspace():
        s += 1
    return s


def _extern_c(node, head: str) -> bool:
    if re.search(r'extern\s+"C"', head):
        return True
    p = node.parent
    while p is not None:
        if p.type == "linkage_specification":
            return True
        p = p.parent
    return False


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    custom_op = _LAUNCH_PROGRAM.search(unit.text) is None
    for f in unit.functions:
        node = _node(unit, f)
        if node is None:
            continue
        hs = _head_start(unit, node)
        head_upto_name = unit.data[hs:f.name_span[0]].decode("utf-8", "replace")
        glob = re.search(r"\b__global__\b", head_upto_name)
        aic = re.search(r"\b__aicore__\b", head_upto_name)
        ext = _extern_c(node, head_upto_name)
        if not glob and not (ext and aic and not re.search(r"\binline\b", head_upto_name)):
            continue
        name = f.name
        if glob and not aic:
            at = hs + head_upto_name.encode().index(b"__global__") + len("__global__")
            out.append(Finding(span=f.name_span, code=CODE, severity=ERROR,
                               message=f"kernel entry '{name}' is __global__ but not __aicore__: it is not compiled for the AI Core",
                               fixes=(Fix("Add __aicore__", (((at, at), " __aicore__"),)),)))
        if not glob:
            at = hs + head_upto_name.encode().index(b"__aicore__")
            out.append(Finding(span=f.name_span, code=CODE, severity=ERROR,
                               message=f"extern \"C\" __aicore__ function '{name}' is not __global__: the host cannot launch it",
                               fixes=(Fix("Add __global__", (((at, at), "__global__ "),)),)))
        ty = node.child_by_field_name("type")
        if ty is not None and ty.text.decode("utf-8", "replace").strip() != "void":
            out.append(Finding(span=(ty.start_byte, ty.end_byte), code=CODE, severity=ERROR,
                               message=f"kernel entry '{name}' must return void, not '{ty.text.decode('utf-8', 'replace')}'",
                               fixes=(Fix("Return void", (((ty.start_byte, ty.end_byte), "void"),)),)))
        if not custom_op:
            continue
        if not ext:
            out.append(Finding(span=f.name_span, code=CODE, severity=WARNING,
                               message=f"kernel entry '{name}' of a custom op is not extern \"C\": the op is found by its "
                                       f"unmangled name",
                               fixes=(Fix('Add extern "C"', (((hs, hs), 'extern "C" '),)),)))
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        plist = decl.child_by_field_name("parameters") if decl is not None else None
        for p in (plist.named_children if plist is not None else []):
            if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
                continue
            # blanked qualifiers (__gm__) sit before the node: take the text from the previous ( or ,
            ps = max(unit.data.rfind(b"(", 0, p.start_byte), unit.data.rfind(b",", 0, p.start_byte)) + 1
            ptxt = unit.slice((ps, p.end_byte))
            if not _GM_PARAM.match(ptxt):
                out.append(Finding(span=(p.start_byte, p.end_byte), code=CODE, severity=ERROR,
                                   message=f"parameter '{' '.join(ptxt.split())}' of custom-op kernel '{name}' is not a "
                                           f"GM_ADDR: the framework passes every input, output, workspace and tiling "
                                           f"as a global-memory address (read scalars from the tiling data)"))
    return out
