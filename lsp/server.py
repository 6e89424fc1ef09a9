"""The language server: thin pygls handlers over the pure helpers (lsp.parse / lsp.checks / lsp.hover /
lsp.completion / lsp.code_actions / lsp.definition, answers shaped by lsp.protocol), the on-save
emulator builds (lsp.onsave) and the commands (lsp.commands).

Diagnostics are published at once on open and save and debounced on change; the emulator build of a
saved file runs in a child process and adds its findings (source kgen-sim) when it is done. Every
handler is :func:`lsp.guard.guarded`: a malformed document or a bug in a check is logged and yields an
empty answer, never a dead server.
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from lsp import checks, commands, completion, definition, hover, jobs, lenses, onsave, overloads, protocol
from lsp.code_actions import code_actions
from lsp.commands import CommandError
from lsp.config import ServerSettings
from lsp.guard import guarded, logged
from lsp.parse import Unit, parse, reparse
from lsp.protocol import CommandName
from lsp.targets import saved_report, target_of
from retrieval import symbols

DEBOUNCE_S = 0.15
uri_path = onsave.path_of    # the file system path of a file: URI (None for other schemes)


class KgenServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("kgen-lsp", "0.1.0")
        self.units: dict[str, tuple[int | None, Unit, list | None]] = {}   # uri -> (version, unit, findings)
        self.pending: dict[str, asyncio.Task] = {}
        self.last_check_ms: float = 0.0
        self.sim = onsave.SimState()                 # emulator build / bench findings (source kgen-sim)
        self.config = ServerSettings()               # the settings tree; the editor's options on top

    @property
    def encoding(self) -> str:
        """The negotiated position encoding (pygls takes the client's first choice)."""
        try:
            enc = self.server_capabilities.position_encoding or "utf-16"
            return str(getattr(enc, "value", enc))
        except Exception:   # noqa: BLE001 - before initialize
            return "utf-16"

    @property
    def root(self) -> str | None:
        try:
            return self.workspace.root_path
        except Exception:   # noqa: BLE001 - before initialize
            return None

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

    def sim_findings(self, uri: str) -> list:
        """The emulator's findings in the file of ``uri``."""
        path = uri_path(uri)
        return [] if path is None else self.sim.findings_for(str(path.resolve()))


server = KgenServer()


def publish(ls: KgenServer, uri: str) -> None:
    """The document's diagnostics: the checks' (when it is open) and the emulator's (kgen-sim)."""
    diags: list[T.Diagnostic] = []
    unit = None
    with logged("diagnostics failed for %s", uri):
        if uri in ls.workspace.text_documents:
            unit, findings = ls.analyse(uri)
            diags = [protocol.diagnostic(unit, f) for f in findings]
    with logged("emulator diagnostics failed for %s", uri):
        diags += [protocol.sim_diagnostic(f, unit) for f in ls.sim_findings(uri)]
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags))


def republish(ls: KgenServer):
    def go(paths) -> None:
        for p in sorted(paths):
            publish(ls, Path(p).as_uri())
    return go


@server.feature(T.INITIALIZE)
def on_initialize(ls: KgenServer, params: T.InitializeParams) -> None:
    """The editor's options (the VS Code extension forwards kgen.model.url, kgen.backend, ...)."""
    ls.config.editor = ls.config.editor.merged(params.initialization_options)


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
def on_configuration(ls: KgenServer, params: T.DidChangeConfigurationParams) -> None:
    editor = ls.config.editor.configured(params.settings)
    if editor.overrides() != ls.config.editor.overrides():
        ls.config.start(ls.root, editor)
    ls.config.editor = editor


@server.feature(T.INITIALIZED)
@guarded("warm-up")
def initialized(ls: KgenServer, params: T.InitializedParams) -> None:
    """Warm up: the symbol table and the parser load here, not on the first keystroke; the settings
    load in the background."""
    warming = overloads.warm_up()       # started by lsp.api.serve_stdio already: the same thread
    symbols.all()
    parse("")
    ls.config.start(ls.root, ls.config.editor, after=warming)


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KgenServer, params: T.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KgenServer, params: T.DidSaveTextDocumentParams) -> None:
    """Diagnostics now; the emulator build in the background (a newer save cancels it)."""
    uri = params.text_document.uri
    publish(ls, uri)
    if ls.config.editor.build_on_save:
        asyncio.ensure_future(_build_quietly(ls, uri))


async def _build_quietly(ls: KgenServer, uri: str) -> None:
    with logged("emulator build failed for %s", uri):
        await ls.config.wait()
        await onsave.build(ls, ls.sim, uri, republish(ls), env=ls.config.child_env())


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
    does not match what the client edited. A failure leaves no cached unit (the next look parses)."""
    cached = ls.units.pop(uri, None)
    with logged("re-parse failed for %s", uri):
        doc = ls.workspace.get_text_document(uri)
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


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KgenServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.units.pop(uri, None)
    t = ls.pending.pop(uri, None)
    if t is not None:
        t.cancel()
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_HOVER)
@guarded("hover")
def on_hover(ls: KgenServer, params: T.HoverParams) -> T.Hover | None:
    unit, _ = ls.analyse(params.text_document.uri)
    return protocol.hover(unit, hover.hover(unit, params.position.line, params.position.character))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", ":", ">"]))
@guarded("completion", lambda e: protocol.completion_list([]))
def on_completion(ls: KgenServer, params: T.CompletionParams) -> T.CompletionList:
    unit, _ = ls.analyse(params.text_document.uri)
    return protocol.completion_list(completion.complete(unit, params.position.line, params.position.character))


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix,
                                                                                 T.CodeActionKind.SourceFixAll]))
@guarded("code action", lambda e: [])
def on_code_action(ls: KgenServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    uri = params.text_document.uri
    unit, findings = ls.analyse(uri)
    r = params.range
    only = params.context.only if params.context is not None else None
    return code_actions(uri, unit, findings, unit.offset(r.start.line, r.start.character),
                        unit.offset(r.end.line, r.end.character),
                        None if only is None else [str(getattr(k, "value", k)) for k in only],
                        any(f.severity == "error" for f in ls.sim_findings(uri)), uri_path(uri))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
@guarded("definition")
def on_definition(ls: KgenServer, params: T.DefinitionParams) -> T.Location | None:
    uri = params.text_document.uri
    unit, _ = ls.analyse(uri)
    return protocol.location(uri, definition.definition(unit, params.position.line, params.position.character,
                                                        uri_path(uri)))


@server.feature(T.TEXT_DOCUMENT_CODE_LENS)
@guarded("code lens", lambda e: [])
def on_code_lens(ls: KgenServer, params: T.CodeLensParams) -> list[T.CodeLens]:
    """The modelled cost of the hot lines of the file's last benchmark (lsp.lenses)."""
    path = uri_path(params.text_document.uri)
    target = target_of(path) if path is not None else None
    if target is None:
        return []
    report = ls.sim.reports.get(target.key) or saved_report(target)
    return [protocol.code_lens(x) for x in lenses.hot_line_lenses(report, path)]


def refresh_code_lenses(ls: KgenServer) -> None:
    """Ask the client to ask again for code lenses (a bench changed them), when it can be asked."""
    ws = ls.client_capabilities.workspace
    if ws is not None and ws.code_lens is not None and ws.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)


async def _benchmark(ls: KgenServer, args: list) -> dict:
    result = await commands.benchmark(ls, ls.sim, args, None, republish(ls))
    with logged("code lens refresh failed"):
        refresh_code_lenses(ls)
    return result


@server.feature(T.SHUTDOWN)
def on_shutdown(ls: KgenServer, params=None) -> None:
    """No build or bench outlives the server."""
    jobs.kill_all()


def _command(name: CommandName, fn) -> None:
    """Register command ``name``: a user's mistake (:class:`CommandError`) or a failure answers
    ``{"status": "error", "message": ...}`` (a failure is logged too)."""
    def error(e: Exception) -> dict:
        return {"status": "error", "message": str(e) if isinstance(e, CommandError) else f"{name} failed: {e}"}

    @guarded(str(name), error, quiet=(CommandError,))
    async def handler(ls: KgenServer, *args):
        return await fn(ls, list(args))
    handler.__name__ = name.replace(".", "_")
    server.command(name)(handler)


_command(CommandName.BUILD_DIAGNOSTICS, lambda ls, a: commands.build_diagnostics(ls, ls.sim, a, None, republish(ls)))
_command(CommandName.BENCHMARK, _benchmark)
_command(CommandName.GENERATE, lambda ls, a: commands.generate(ls, a, None))
_command(CommandName.FIX_WITH_ASSISTANT, lambda ls, a: commands.fix_with_assistant(ls, a, None))
_command(CommandName.FIX_COMPILE_ERRORS, lambda ls, a: commands.fix_compile_errors(ls, a))
