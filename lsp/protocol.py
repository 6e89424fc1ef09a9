"""The server's results as LSP types (lsprotocol): ranges, diagnostics, hovers, completion lists,
locations, quick-fix code actions and whole-file edits. Pure functions of the helpers' results."""
from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from lsprotocol import types as T

from lsp.actions import Action
from lsp.checks import Finding, Severity
from lsp.completion import CLASS, FUNCTION, METHOD, Item
from lsp.definition import Target
from lsp.lenses import HotLens
from lsp.parse import Unit
from lsp.targets import SOURCE as SIM_SOURCE
from lsp.targets import FileFinding

SOURCE = "kgen"


class CommandName(StrEnum):
    """The server's commands (``workspace/executeCommand``; lsp.commands implements them)."""

    BUILD_DIAGNOSTICS = "kgen.buildDiagnostics"
    BENCHMARK = "kgen.benchmark"
    GENERATE = "kgen.generate"
    FIX_WITH_ASSISTANT = "kgen.fixWithAssistant"
    FIX_COMPILE_ERRORS = "kgen.fixCompileErrors"


_KIND = {FUNCTION: T.CompletionItemKind.Function, CLASS: T.CompletionItemKind.Class,
         METHOD: T.CompletionItemKind.Method}
_SEVERITY = {Severity.ERROR: T.DiagnosticSeverity.Error, Severity.WARNING: T.DiagnosticSeverity.Warning,
             Severity.INFO: T.DiagnosticSeverity.Information, Severity.HINT: T.DiagnosticSeverity.Hint}
_SIM_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
                 "note": T.DiagnosticSeverity.Information}


def lsp_range(unit: Unit, span: tuple[int, int]) -> T.Range:
    (l0, c0), (l1, c1) = unit.range(span)
    return T.Range(start=T.Position(line=l0, character=c0), end=T.Position(line=l1, character=c1))


def diagnostic(unit: Unit, f: Finding) -> T.Diagnostic:
    return T.Diagnostic(range=lsp_range(unit, f.span), message=f.message, severity=_SEVERITY.get(f.severity),
                        code=f.code, source=SOURCE)


def sim_diagnostic(f: FileFinding, unit: Unit | None = None) -> T.Diagnostic:
    """An emulator finding as an LSP diagnostic; with the open document's unit the byte column becomes a
    position in the negotiated encoding and the range covers the identifier there."""
    line, col = f.line, f.column
    start = end = (line, col)
    if unit is not None:
        try:
            if not unit._lines:
                unit.position(0)
            if line < len(unit._lines):
                ls = unit._lines[line]
                le = unit._lines[line + 1] - 1 if line + 1 < len(unit._lines) else len(unit.data)
                off = min(ls + col, le)
                e = off
                while e < le and (chr(unit.data[e]).isalnum() or unit.data[e] == 95):
                    e += 1
                if e == off:
                    e = le if col == 0 else min(off + 1, le)
                start, end = unit.position(off), unit.position(e)
        except Exception:   # noqa: BLE001
            pass
    return T.Diagnostic(range=T.Range(start=T.Position(line=start[0], character=start[1]),
                                      end=T.Position(line=end[0], character=end[1])),
                        message=f.message, severity=_SIM_SEVERITY.get(f.severity, T.DiagnosticSeverity.Error),
                        code=f.code, source=SIM_SOURCE)


def hover(unit: Unit, found: tuple[str, tuple[int, int]] | None) -> T.Hover | None:
    """``lsp.hover.hover``'s (markdown, span) as a Hover."""
    if found is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=found[0]), range=lsp_range(unit, found[1]))


def completion_list(items: list[Item]) -> T.CompletionList:
    return T.CompletionList(is_incomplete=False, items=[
        T.CompletionItem(label=i.label, kind=_KIND.get(i.kind), detail=i.detail,
                         documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=i.documentation) if i.documentation else None,
                         insert_text=i.snippet, insert_text_format=T.InsertTextFormat.Snippet)
        for i in items])


def location(uri: str, d: Target | None) -> T.Location | None:
    """``lsp.definition.definition``'s target as a Location (in the document itself when it names no file)."""
    if d is None:
        return None
    rng = T.Range(start=T.Position(line=d.start[0], character=d.start[1]),
                  end=T.Position(line=d.end[0], character=d.end[1]))
    return T.Location(uri=uri if d.path is None else Path(d.path).as_uri(), range=rng)


def code_lens(lens: HotLens) -> T.CodeLens:
    """A hot line's lens: a label (no command to run) at the start of its line."""
    at = T.Position(line=lens.line, character=0)
    return T.CodeLens(range=T.Range(start=at, end=at), command=T.Command(title=lens.title, command=""))


def quick_fix(uri: str, unit: Unit, a: Action) -> T.CodeAction:
    edits = [T.TextEdit(range=lsp_range(unit, span), new_text=new) for span, new in a.fix.edits]
    return T.CodeAction(title=a.title, kind=T.CodeActionKind.QuickFix, diagnostics=[diagnostic(unit, a.finding)],
                        is_preferred=a.preferred, edit=T.WorkspaceEdit(changes={uri: edits}))


def whole_file_edit(uri: str, old: str, new: str, to_end: bool = False) -> T.WorkspaceEdit:
    """Replace the document ``old`` by ``new``. ``to_end``: the range ends past the last line (clients
    clamp it to the document's end), for files changed on disk that the editor may have reloaded."""
    u = Unit(text=old, data=old.encode("utf-8", "replace"), tree=None)
    end = (2**31 - 1, 0) if to_end else u.position(len(u.data))
    rng = T.Range(start=T.Position(line=0, character=0), end=T.Position(line=end[0], character=end[1]))
    return T.WorkspaceEdit(changes={uri: [T.TextEdit(range=rng, new_text=new)]})
