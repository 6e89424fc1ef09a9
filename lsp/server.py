"""The language server: thin pygls handlers over the pure functions of lsp.parse / lsp.checks /
lsp.hover / lsp.completion / lsp.actions / lsp.definition, the on-save emulator builds (lsp.onsave)
and the commands (lsp.commands).

Diagnostics are published at once on open and save and debounced on change; the emulator build of a
saved file runs in a child process and adds its findings (source kgen-sim) when it is done. Every
handler catches its own exceptions: a malformed document or a bug in a check yields no result, never
a dead server.
"""
from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from lsp import actions as actions_mod
from lsp import checks, commands, completion, definition, hover, onsave
from lsp.parse import Unit, parse, reparse

log = logging.getLogger("kgen.lsp")
DEBOUNCE_S = 0.15
SOURCE = "kgen"
_KIND = {completion.FUNCTION: T.CompletionItemKind.Function, completion.CLASS: T.CompletionItemKind.Class,
         completion.METHOD: T.CompletionItemKind.Method}
_SEVERITY = {1: T.DiagnosticSeverity.Error, 2: T.DiagnosticSeverity.Warning, 3: T.DiagnosticSeverity.Information,
             4: T.DiagnosticSeverity.Hint}


class KgenServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("kgen-lsp", "0.1.0")
        self.units: dict[str, tuple[int | None, Unit, list | None]] = {}   # uri -> (version, unit, findings)
        self.pending: dict[str, asyncio.Task] = {}
        self.last_check_ms: float = 0.0
        self.sim = onsave.SimState()                 # emulator build / bench findings (source kgen-sim)
        self.editor_settings: dict = {}              # initializationOptions / didChangeConfiguration
        self.build_on_save = True

    @property
    def encoding(self) -> str:
        """The negotiated position encoding (pygls takes the client's first choice)."""
        try:
            enc = self.server_capabilities.position_encoding or "utf-16"
            return str(getattr(enc, "value", enc))
        except Exception:   # noqa: BLE001 - before initialize
            return "utf-16"

    def analyse(self, uri: str):
        """(unit, findings) of the document's current text, cached per version."""
        doc = self.workspace.get_text_document(uri)
        try:
            source = doc.source
        except (OSError, ValueError):   # never opened and not a readable text file: an empty document
            source = ""
        cached = self.units.get(uri)
        t0 = time.perf_counter()
        if cached is not None and cached[0] == doc.version and cached[1].text == source:
            if cached[2] is not None:
                return cached[1], cached[2]
            unit = cached[1]
        else:
            unit = parse(source, encoding=self.encoding)
        findings = checks.run(unit)
        self.last_check_ms = (time.perf_counter() - t0) * 1000
        self.units[uri] = (doc.version, unit, findings)
        return unit, findings


def _range(unit: Unit, span: tuple[int, int]) -> T.Range:
    (l0, c0), (l1, c1) = unit.range(span)
    return T.Range(start=T.Position(line=l0, character=c0), end=T.Position(line=l1, character=c1))


def to_diagnostic(unit: Unit, f) -> T.Diagnostic:
    return T.Diagnostic(range=_range(unit, f.span), message=f.message, severity=_SEVERITY.get(f.severity),
                        code=f.code, source=SOURCE)


server = KgenServer()


def publish(ls: KgenServer, uri: str) -> None:
    """The document's diagnostics: the checks' (when it is open) and the emulator's (kgen-sim)."""
    diags: list[T.Diagnostic] = []
    unit = None
    try:
        if uri in ls.workspace.text_documents:
            unit, findings = ls.analyse(uri)
            diags = [to_diagnostic(unit, f) for f in findings]
    except Exception:   # noqa: BLE001
        log.exception("diagnostics failed for %s", uri)
    try:
        path = uri_path(uri)
        if path is not None:
            diags += [onsave.to_diagnostic(f, unit) for f in ls.sim.findings_for(str(path.resolve()))]
    except Exception:   # noqa: BLE001
        log.exception("emulator diagnostics failed for %s", uri)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags))


def republish(ls: KgenServer):
    def go(paths) -> None:
        for p in sorted(paths):
            publish(ls, Path(p).as_uri())
    return go


@server.feature(T.INITIALIZE)
def on_initialize(ls: KgenServer, params: T.InitializeParams) -> None:
    """The editor's settings (the VS Code extension forwards kgen.model.url, kgen.backend, ...)."""
    opts = params.initialization_options
    if isinstance(opts, dict):
        ls.editor_settings = dict(opts)
        ls.build_on_save = bool(opts.get("buildOnSave", True))


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
def on_configuration(ls: KgenServer, params: T.DidChangeConfigurationParams) -> None:
    s = params.settings
    if isinstance(s, dict):
        s = s.get("kgen", s)
        if isinstance(s, dict):
            ls.editor_settings.update(s)
            ls.build_on_save = bool(ls.editor_settings.get("buildOnSave", ls.build_on_save))


@server.feature(T.INITIALIZED)
def initialized(ls: KgenServer, params: T.InitializedParams) -> None:
    """Warm up: the symbol table and the parser load here, not on the first keystroke."""
    try:
        from retrieval import symbols

        symbols.all()
        parse("")
        from lsp import overloads

        overloads.emulator()
    except Exception:   # noqa: BLE001
        log.exception("warm-up failed")


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KgenServer, params: T.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KgenServer, params: T.DidSaveTextDocumentParams) -> None:
    """Diagnostics now; the emulator build in the background (a newer save cancels it)."""
    uri = params.text_document.uri
    publish(ls, uri)
    if ls.build_on_save:
        asyncio.ensure_future(_build_quietly(ls, uri))


async def _build_quietly(ls: KgenServer, uri: str) -> None:
    try:
        await onsave.build(ls, ls.sim, uri, republish(ls))
    except Exception:   # noqa: BLE001
        log.exception("emulator build failed for %s", uri)


def _command(name: str, fn):
    async def handler(ls: KgenServer, *args):
        try:
            return await fn(ls, list(args))
        except commands.CommandError as e:
            return {"status": "error", "message": str(e)}
        except Exception as e:   # noqa: BLE001 - a failing command must not take the server down
            log.exception("%s failed", name)
            return {"status": "error", "message": f"{name} failed: {e}"}
    handler.__name__ = name.replace(".", "_")
    server.command(name)(handler)


_command("kgen.buildDiagnostics", lambda ls, a: commands.build_diagnostics(ls, ls.sim, a, None, republish(ls)))
_command("kgen.benchmark", lambda ls, a: commands.benchmark(ls, ls.sim, a, None, republish(ls)))
_command("kgen.generate", lambda ls, a: commands.generate(ls, a, None))
_command("kgen.fixWithAssistant", lambda ls, a: commands.fix_with_assistant(ls, a, None))
_command("kgen.fixCompileErrors", lambda ls, a: commands.fix_compile_errors(ls, a))


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: KgenServer, params: T.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    old = ls.pending.pop(uri, None)
    if old is not None:
        old.cancel()
    update_tree(ls, uri, params)

    async def later():
        try:
            await asyncio.sleep(DEBOUNCE_S)
            publish(ls, uri)
        except asyncio.CancelledError:
            pass
        finally:
            if ls.pending.get(uri) is task:
                ls.pending.pop(uri, None)

    task = asyncio.ensure_future(later())
    ls.pending[uri] = task


def update_tree(ls: KgenServer, uri: str, params: T.DidChangeTextDocumentParams) -> None:
    """Re-parse incrementally from the cached tree (tree.edit + reparse); a full parse when the cache
    does not match what the client edited."""
    try:
        doc = ls.workspace.get_text_document(uri)
        cached = ls.units.get(uri)
        unit = None
        if cached is not None:
            changes = []
            for ch in params.content_changes:
                rng = getattr(ch, "range", None)
                changes.append((None if rng is None else ((rng.start.line, rng.start.character),
                                                          (rng.end.line, rng.end.character)), ch.text))
            unit = reparse(cached[1], changes)
            if unit.text != doc.source:
                unit = None
        if unit is None:
            unit = parse(doc.source, encoding=ls.encoding)
        ls.units[uri] = (doc.version, unit, None)
    except Exception:   # noqa: BLE001
        log.exception("re-parse failed for %s", uri)
        ls.units.pop(uri, None)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KgenServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.units.pop(uri, None)
    t = ls.pending.pop(uri, None)
    if t is not None:
        t.cancel()
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_HOVER)
def on_hover(ls: KgenServer, params: T.HoverParams) -> T.Hover | None:
    try:
        unit, _ = ls.analyse(params.text_document.uri)
        h = hover.hover(unit, params.position.line, params.position.character)
        if h is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=h[0]), range=_range(unit, h[1]))
    except Exception:   # noqa: BLE001
        log.exception("hover failed")
        return None


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", ":", ">"]))
def on_completion(ls: KgenServer, params: T.CompletionParams) -> T.CompletionList:
    try:
        unit, _ = ls.analyse(params.text_document.uri)
        items = completion.complete(unit, params.position.line, params.position.character)
    except Exception:   # noqa: BLE001
        log.exception("completion failed")
        items = []
    return T.CompletionList(is_incomplete=False, items=[
        T.CompletionItem(label=i.label, kind=_KIND.get(i.kind), detail=i.detail,
                         documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=i.documentation) if i.documentation else None,
                         insert_text=i.snippet, insert_text_format=T.InsertTextFormat.Snippet)
        for i in items])


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix,
                                                                                 T.CodeActionKind.SourceFixAll]))
def on_code_action(ls: KgenServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    try:
        uri = params.text_document.uri
        unit, findings = ls.analyse(uri)
        r = params.range
        start = unit.offset(r.start.line, r.start.character)
        end = unit.offset(r.end.line, r.end.character)
        out = []
        for a in actions_mod.actions(unit, start, end, findings):
            edits = [T.TextEdit(range=_range(unit, span), new_text=new) for span, new in a.fix.edits]
            out.append(T.CodeAction(title=a.title, kind=T.CodeActionKind.QuickFix,
                                    diagnostics=[to_diagnostic(unit, a.finding)], is_preferred=a.preferred,
                                    edit=T.WorkspaceEdit(changes={uri: edits})))
        only = params.context.only if params.context is not None else None
        if only is not None:
            wanted = [str(getattr(k, "value", k)) for k in only]
            out = [a for a in out if any(str(a.kind.value) == k or str(a.kind.value).startswith(k + ".") for k in wanted)]
        else:
            wanted = None
        path = uri_path(uri)
        sim_errors = path is not None and any(f.severity == "error" for f in ls.sim.findings_for(str(path.resolve())))
        out += commands.extra_actions(uri, unit.text, sum(1 for f in findings if f.fixes),
                                      sim_errors or any(f.severity == checks.ERROR for f in findings), wanted, path)
        return out
    except Exception:   # noqa: BLE001
        log.exception("code action failed")
        return []


@server.feature(T.SHUTDOWN)
def on_shutdown(ls: KgenServer, params=None) -> None:
    """No build or bench outlives the server."""
    from lsp import jobs

    jobs.kill_all()


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: KgenServer, params: T.DefinitionParams) -> T.Location | None:
    try:
        uri = params.text_document.uri
        unit, _ = ls.analyse(uri)
        path = uri_path(uri)
        d = definition.definition(unit, params.position.line, params.position.character, path)
        if d is None:
            return None
        rng = T.Range(start=T.Position(line=d.start[0], character=d.start[1]),
                      end=T.Position(line=d.end[0], character=d.end[1]))
        return T.Location(uri=uri if d.path is None else Path(d.path).as_uri(), range=rng)
    except Exception:   # noqa: BLE001
        log.exception("definition failed")
        return None


uri_path = onsave.path_of    # the file system path of a file: URI (None for other schemes)


def main() -> int:
    logging.basicConfig(level=logging.WARNING, format="kgen-lsp %(levelname)s %(message)s")
    server.start_io()
    return 0
