"""kgen's one typed settings tree, loaded from five layers (later wins):

    defaults < user config ($XDG_CONFIG_HOME/kgen/config.toml) < project kgen.toml (nearest upward from
    the working directory) < environment (KGEN_LLM_URL, KGEN_MODEL, ... and KGEN_<SECTION>__<KEY>)
    < explicit overrides (command-line flags)

Sections: ``model`` (agent_graph.settings.ModelSettings), ``agent`` (AgentSettings), ``serve``
(agent_graph.llm.serve.ServeSettings). An unknown key, a wrong type or a bad value is a
:class:`SettingsError` whose message is one line naming the file (or variable) and the key.
The keys are documented in docs/configuration.md.
"""
from __future__ import annotations

import dataclasses
import os
import shlex
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_graph.llm.serve import ServeSettings
from agent_graph.settings import AgentSettings, ModelSettings

PROJECT_FILE = "kgen.toml"


class SettingsError(Exception):
    """A configuration mistake; ``str`` is one line naming where it is and which key."""


@dataclass
class Settings:
    model: ModelSettings = field(default_factory=ModelSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    serve: ServeSettings = field(default_factory=ServeSettings)
    sources: dict[str, str] = field(default_factory=dict)   # "section.key" -> where its value came from
    files: list[tuple[str, Path, bool]] = field(default_factory=list)   # (layer, path, found)


SECTIONS: dict[str, type] = {"model": ModelSettings, "agent": AgentSettings, "serve": ServeSettings}

# Named environment variables; any key is also reachable as KGEN_<SECTION>__<KEY> (e.g. KGEN_AGENT__SAMPLES=3).
ENV_VARS: dict[str, str] = {
    "KGEN_LLM_URL": "model.url",
    "KGEN_MODEL": "model.name",
    "KGEN_API_KEY": "model.api_key",
    "KGEN_TEMPERATURE": "model.temperature",
    "KGEN_MAX_TOKENS": "model.max_tokens",
    "KGEN_LLM_TIMEOUT": "model.timeout",
    "KGEN_STREAM": "model.stream",
    "KGEN_BACKEND": "agent.backend",
    "KGEN_BUILD_REPAIRS": "agent.build_repairs",
    "KGEN_CORRECTNESS_REPAIRS": "agent.correctness_repairs",
    "KGEN_SAMPLES": "agent.samples",
    "KGEN_DATA_DIR": "agent.data_dir",
    "KGEN_VLLM_CMD": "serve.vllm_cmd",
}

CHOICES: dict[str, tuple[str, ...]] = {"agent.backend": ("sim", "npu")}
MINIMUM: dict[str, float] = {"model.temperature": 0, "model.max_tokens": 1, "model.timeout": 0.001,
                             "agent.build_repairs": 0, "agent.correctness_repairs": 0, "agent.samples": 1,
                             "agent.run_timeout": 0.001, "serve.port": 1, "serve.max_model_len": 1,
                             "serve.tensor_parallel_size": 1, "serve.health_timeout": 0.001, "serve.stop_grace": 0}


def user_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return Path(base) / "kgen" / "config.toml"


def find_project_file(cwd: Path | None = None) -> Path | None:
    """The nearest ``kgen.toml`` in ``cwd`` or one of its parents."""
    here = Path(cwd or os.getcwd()).resolve()
    for d in (here, *here.parents):
        p = d / PROJECT_FILE
        if p.is_file():
            return p
    return None


def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _type_name(t: Any) -> str:
    args = [a for a in typing.get_args(t) if a is not type(None)]
    if typing.get_origin(t) in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args) + " (or empty)"
    if typing.get_origin(t) is list:
        return "a list of strings"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string", Path: "a path"}.get(t, str(t))


def _coerce(value: Any, t: Any, from_text: bool, base: Path | None) -> Any:
    """``value`` as type ``t``; ``from_text`` values (environment, some CLI flags) are parsed from strings."""
    if typing.get_origin(t) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(t) if a is not type(None)]
        if value is None or (from_text and value == ""):
            return None
        return _coerce(value, args[0], from_text, base)
    if typing.get_origin(t) is list:
        if from_text and isinstance(value, str):
            return shlex.split(value)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        raise TypeError
    if t is bool:
        if isinstance(value, bool):
            return value
        if from_text and isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return value.strip().lower() in ("1", "true", "yes", "on")
        raise TypeError
    if t is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if from_text and isinstance(value, str):
            return int(value.strip())
        raise TypeError
    if t is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if from_text and isinstance(value, str):
            return float(value.strip())
        raise TypeError
    if t is Path:
        if isinstance(value, (str, Path)) and str(value):
            p = Path(os.path.expanduser(str(value)))
            return p if p.is_absolute() or base is None else (base / p)
        raise TypeError
    if t is str:
        if isinstance(value, str):
            return value
        raise TypeError
    raise TypeError


def _apply(settings: Settings, key: str, value: Any, origin: str, from_text: bool = False,
           base: Path | None = None) -> None:
    section, _, name = key.partition(".")
    if section not in SECTIONS:
        raise SettingsError(f"{origin}: unknown section '{section}' (known: {', '.join(SECTIONS)})")
    types_ = _field_types(SECTIONS[section])
    if name not in types_:
        raise SettingsError(f"{origin}: unknown key '{key}' (known in [{section}]: {', '.join(types_)})")
    try:
        v = _coerce(value, types_[name], from_text, base)
    except (TypeError, ValueError):
        raise SettingsError(f"{origin}: '{key}' must be {_type_name(types_[name])}, not {value!r}") from None
    if key in CHOICES and v not in CHOICES[key]:
        raise SettingsError(f"{origin}: '{key}' must be one of {', '.join(CHOICES[key])}, not {v!r}")
    if key in MINIMUM and isinstance(v, (int, float)) and v < MINIMUM[key]:
        raise SettingsError(f"{origin}: '{key}' must be at least {MINIMUM[key]:g}, not {v!r}")
    setattr(getattr(settings, section), name, v)
    settings.sources[key] = origin


def _load_file(settings: Settings, path: Path, layer: str) -> None:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: invalid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise SettingsError(f"{path}: not a text file (byte {e.start} is not UTF-8)") from None
    except OSError as e:
        raise SettingsError(f"{path}: cannot read: {e.strerror}") from None
    for section, table in data.items():
        if section not in SECTIONS:
            raise SettingsError(f"{path}: unknown section [{section}] (known: {', '.join(SECTIONS)})")
        if not isinstance(table, dict):
            raise SettingsError(f"{path}: '{section}' must be a table ([{section}])")
        for name, value in table.items():
            _apply(settings, f"{section}.{name}", value, f"{path}", base=path.parent)
            settings.sources[f"{section}.{name}"] = f"{layer} {path}"


def _flatten(overrides: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for k, v in overrides.items():
        if isinstance(v, dict) and k in SECTIONS:
            for kk, vv in v.items():
                flat[f"{k}.{kk}"] = vv
        else:
            flat[k] = v
    return flat


def load_settings(cwd: str | Path | None = None, overrides: dict[str, Any] | None = None,
                  env: dict[str, str] | None = None) -> Settings:
    """The effective settings (see the module docstring for the layers). ``overrides`` maps
    ``"section.key"`` (or ``{"section": {...}}``) to values; None values are ignored (flags not given)."""
    env = dict(os.environ if env is None else env)
    s = Settings()
    for section, cls in SECTIONS.items():
        for name in _field_types(cls):
            s.sources[f"{section}.{name}"] = "default"
    user = user_config_path()
    s.files.append(("user config", user, user.is_file()))
    if user.is_file():
        _load_file(s, user, "user config")
    project = find_project_file(Path(cwd) if cwd else None)
    if project is not None:
        s.files.append(("project", project, True))
        _load_file(s, project, "project")
    for var, key in ENV_VARS.items():
        if var in env:
            _apply(s, key, env[var], f"env {var}", from_text=True, base=Path(cwd or os.getcwd()))
    for var in sorted(env):
        if var.startswith("KGEN_") and "__" in var:
            section, _, name = var[len("KGEN_"):].lower().partition("__")
            _apply(s, f"{section}.{name}", env[var], f"env {var}", from_text=True, base=Path(cwd or os.getcwd()))
    for key, value in _flatten(overrides or {}).items():
        if value is not None:
            _apply(s, key, value, "command line", from_text=isinstance(value, str), base=Path(cwd or os.getcwd()))
    return s


@dataclass
class SettingRow:
    key: str
    value: Any
    source: str


def describe_sources(settings: Settings | None = None, cwd: str | Path | None = None,
                     overrides: dict[str, Any] | None = None) -> list[SettingRow]:
    """Every key with its effective value and where it came from (for ``kgen config``)."""
    s = settings or load_settings(cwd, overrides)
    rows = []
    for section in SECTIONS:
        obj = getattr(s, section)
        for name in _field_types(SECTIONS[section]):
            v = getattr(obj, name)
            if section == "model" and name == "api_key" and v not in ("EMPTY", ""):
                v = v[:3] + "..." if len(v) > 6 else "***"
            rows.append(SettingRow(f"{section}.{name}", str(v) if isinstance(v, Path) else v, s.sources[f"{section}.{name}"]))
    return rows
