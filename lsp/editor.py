"""The options an editor hands the server, typed: ``initializationOptions`` at start and the ``kgen``
section of ``workspace/didChangeConfiguration`` later (the VS Code extension's ``serverSettings``:
``model.url``, ``backend``, ``buildOnSave``). They are the top layer of the settings tree
(:meth:`EditorOptions.overrides`, handed to the settings loader like command-line flags).

A plain dataclass, not a pydantic model: the options are read while the server starts, and pydantic
costs ~0.2 s of imports there (measured); the loader validates what :meth:`overrides` hands it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

Backend = Literal["sim", "npu"]


@dataclass(frozen=True)
class EditorOptions:
    model_url: str | None = None        # "model": {"url": ...} (or "model.url"); None: the settings tree decides
    offline: bool = False               # the offline drafter, whatever model is configured
    backend: Backend | None = None      # None: the settings tree decides
    build_on_save: bool = True          # "buildOnSave": the emulator build of a saved file

    def merged(self, raw: Any) -> EditorOptions:
        """These options with the keys that the JSON object ``raw`` names replaced (the others kept);
        a value of the wrong type unsets its option. Anything but an object changes nothing."""
        if not isinstance(raw, dict):
            return self
        new: dict[str, Any] = {}
        if isinstance(raw.get("model"), dict):
            new["model_url"] = _text(raw["model"].get("url"))
        elif "model.url" in raw:
            new["model_url"] = _text(raw["model.url"])
        if "offline" in raw:
            new["offline"] = bool(raw["offline"])
        if "backend" in raw:
            new["backend"] = raw["backend"] if raw["backend"] in get_args(Backend) else None
        if "buildOnSave" in raw:
            new["build_on_save"] = bool(raw["buildOnSave"])
        return dataclasses.replace(self, **new)

    def configured(self, settings: Any) -> EditorOptions:
        """These options with ``workspace/didChangeConfiguration``'s settings (its ``kgen`` section, or
        the settings themselves when they have none)."""
        if isinstance(settings, dict):
            settings = settings.get("kgen", settings)
        return self.merged(settings)

    def overrides(self) -> dict[str, str]:
        """The settings loader's top layer (``"section.key"`` -> value) for what the editor sets.
        ``offline`` is not a settings key: the caller drops the model after loading (as ``--offline``)."""
        out: dict[str, str] = {}
        if self.model_url:
            out["model.url"] = self.model_url
        if self.backend is not None:
            out["agent.backend"] = self.backend
        return out


def _text(v: Any) -> str | None:
    return v if isinstance(v, str) else None
