"""Code actions of a range: the quick fixes of the findings there, "apply all quick fixes"
(``source.fixAll``) and "Fix with assistant" on a file of an op project that has errors."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types as T

from lsp.actions import actions, apply
from lsp.checks import ERROR, Finding
from lsp.parse import Unit, parse
from lsp.protocol import CommandName, quick_fix, whole_file_edit
from lsp.targets import target_of

MAX_FIX_ROUNDS = 50


def fix_all(text: str) -> tuple[str, list[str]]:
    """``text`` with the preferred quick fix of each fixable finding applied, until none is left."""
    titles: list[str] = []
    for _ in range(MAX_FIX_ROUNDS):
        u = parse(text)
        acts = [a for a in actions(u, 0, len(u.data)) if a.preferred]
        if not acts:
            break
        new = apply(text, acts[0].fix)
        if new == text:
            break
        titles.append(acts[0].fix.title)
        text = new
    return text, titles


def _wanted(kind: str, only: list[str] | None) -> bool:
    return only is None or any(kind == k or kind.startswith(k + ".") for k in only)


def code_actions(uri: str, unit: Unit, findings: list[Finding], start: int, end: int, only: list[str] | None,
                 sim_errors: bool, path: Path | None) -> list[T.CodeAction]:
    """Every code action for bytes [start, end] of the document; ``only``: the kinds the client asked
    for (None: all); ``sim_errors``: the emulator found errors in the file."""
    out = [quick_fix(uri, unit, a) for a in actions(unit, start, end, findings)]
    if only is not None:
        out = [a for a in out if _wanted(str(a.kind.value), only)]
    has_errors = sim_errors or any(f.severity == ERROR for f in findings)
    return out + extra_actions(uri, unit.text, sum(1 for f in findings if f.fixes), has_errors, only, path)


def extra_actions(uri: str, text: str, fixable: int, has_errors: bool, only: list[str] | None,
                  path: Path | None) -> list[T.CodeAction]:
    """Code actions beyond the per-finding quick fixes: "fix all" (``source.fixAll``: the edit itself
    when the client asks for that kind, else a command running kgen.fixCompileErrors when two or more
    findings have a fix) and "Fix with assistant" on a file of an op project that has errors."""
    out: list[T.CodeAction] = []
    if only is not None and _wanted(T.CodeActionKind.SourceFixAll, only) and fixable:
        new, titles = fix_all(text)
        if new != text:
            out.append(T.CodeAction(title=f"Apply all kgen quick fixes ({len(titles)})", kind=T.CodeActionKind.SourceFixAll,
                                    edit=whole_file_edit(uri, text, new)))
    elif only is None and fixable >= 2:
        out.append(T.CodeAction(title="Apply all kgen quick fixes in the file", kind=T.CodeActionKind.SourceFixAll,
                                command=T.Command(title="kgen: Fix compile errors", command=CommandName.FIX_COMPILE_ERRORS,
                                                  arguments=[uri])))
    if has_errors and _wanted(T.CodeActionKind.QuickFix, only) and path is not None:
        target = target_of(path)
        if target is not None and target.kind == "project":
            out.append(T.CodeAction(title="Fix with assistant (kgen agent repairs the op project)",
                                    kind=T.CodeActionKind.QuickFix,
                                    command=T.Command(title="kgen: Fix with assistant", command=CommandName.FIX_WITH_ASSISTANT,
                                                      arguments=[uri])))
    return out
