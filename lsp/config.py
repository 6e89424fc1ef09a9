"""The server's settings tree (``agent_graph.settings``): loaded once when the server starts, in the
workspace folder, with the editor's options (:class:`lsp.editor.EditorOptions`) as the top layer, and
handed to the lower packages (``agent_graph.settings.configure``); loaded again when the editor's
options change. Child processes (builds, benches) get the same tree through ``child_env``.

The load runs in a background thread: the loader's imports (pydantic-settings) cost ~0.3 s, measured,
which the first diagnostics do not wait for. A command that needs the settings waits for the load.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from concurrent.futures import Future
from typing import TYPE_CHECKING

from lsp.editor import EditorOptions

if TYPE_CHECKING:
    from agent_graph.settings import AgentSettings, ModelSettings, Settings

log = logging.getLogger("kgen.lsp")


def load(root: str | None, editor: EditorOptions) -> Settings:
    """The settings tree of the workspace ``root`` with the editor's options on top, configured for this
    process. A broken configuration file is logged and the defaults are used (with the editor's options:
    the CLI reports the mistake)."""
    # paid in the loading thread, so that the server answers the editor meanwhile
    # lazy: pydantic-settings and the section models cost ~0.3 s of imports (measured)
    from agent_graph.settings import Settings, SettingsError, apply_overrides, configure, load_settings

    try:
        settings = load_settings(cwd=root, overrides=editor.overrides())
    except SettingsError as e:
        log.warning("kgen settings: %s (using the defaults)", e)
        settings = apply_overrides(Settings(), editor.overrides(), cwd=root)
    return configure(settings)


def configure_child() -> Settings:
    """Settings for a child process of the server (``lsp.simbuild``, ``lsp.benchjob``): the tree its
    parent handed down in the environment (:meth:`ServerSettings.child_env`), configured here too."""
    return load(None, EditorOptions())


class ServerSettings:
    """The settings of one server: :meth:`start` loads them in the background; :meth:`result` waits."""

    def __init__(self) -> None:
        self.root: str | None = None
        self.editor = EditorOptions()
        self._future: Future | None = None
        self._lock = threading.Lock()

    def start(self, root: str | None, editor: EditorOptions, after: threading.Thread | None = None) -> None:
        """(Re)load for the workspace ``root`` and these editor options, in a daemon thread (that first
        waits for the thread ``after``: the server's warm-up, so the two do not share the CPU)."""
        fut: Future = Future()
        with self._lock:
            self.root, self.editor, self._future = root, editor, fut

        def work() -> None:
            if after is not None:
                after.join()
            try:
                fut.set_result(load(root, editor))
            except BaseException as e:   # noqa: BLE001 - handed to whoever waits
                fut.set_exception(e)
        threading.Thread(target=work, name="kgen-lsp-settings", daemon=True).start()

    def result(self) -> Settings:
        """The loaded settings (loads them now when :meth:`start` was never called)."""
        with self._lock:
            fut = self._future
        if fut is None:
            self.start(self.root, self.editor)
            return self.result()
        return fut.result()

    async def wait(self) -> Settings:
        """:meth:`result` without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, self.result)

    def agent(self) -> tuple[ModelSettings, AgentSettings]:
        """(model, agent) for the agent: the editor's ``offline`` drops the model (as ``--offline``)."""
        s = self.result()
        return (dataclasses.replace(s.model, url=None) if self.editor.offline else s.model), s.agent

    def child_env(self) -> dict[str, str]:
        """The ``KGEN_*`` variables that give a child process these settings."""
        # lazy: see load (the module is loaded by then; the import is a dictionary look-up)
        from agent_graph.settings import child_env

        return child_env(self.result())

