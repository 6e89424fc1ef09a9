"""kgen's one typed settings tree (pydantic-settings), loaded once by a front end and passed down.

Layers, later wins::

    defaults < user config ($XDG_CONFIG_HOME/kgen/config.toml) < project kgen.toml (nearest upward from
    the working directory) < environment (KGEN_LLM_URL, KGEN_MODEL, ... see ENV_VARS, and any key as
    KGEN_<SECTION>__<KEY>) < overrides (command-line flags, editor options: ``"section.key" -> value``)

Sections (:class:`Settings`): ``model`` (:class:`ModelSettings`), ``agent`` (:class:`AgentSettings`),
``serve`` (:class:`ServeSettings`), ``bench`` (``bench_bridge.settings.BenchSettings``), ``docs``
(``retrieval.settings.DocsSettings``; its data dir is ``agent.data_dir``: one data dir for run folders
and the doc index). Types, choices (``Literal``) and minimums (``Field(ge=...)``) live on the section
models; a TOML value must already have its type (``samples = "3"`` is a mistake), an environment value
or a textual flag is parsed (``KGEN_STREAM=off``). Relative paths are relative to the file that names them
(to the working directory for the environment and flags). A mistake is a :class:`SettingsError` whose
message is one line naming the file (or variable) and the key.

A front end calls :func:`load_settings` and then :func:`configure`, which hands ``bench`` and ``docs``
to bench_bridge and retrieval (``configure``/``current`` in their settings modules); below the front end
nothing reads the environment for settings. The keys are documented in docs/configuration.md.
"""
from __future__ import annotations

import contextvars
import dataclasses
import os
import shlex
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass as plain_dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError, model_validator
from pydantic.dataclasses import dataclass
from pydantic_settings import (BaseSettings, InitSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict,
                               TomlConfigSettingsSource)

from bench_bridge.settings import BenchSettings, default_cache_dir
from bench_bridge.settings import configure as configure_bench
from retrieval import DocsSettings, default_data_dir
from retrieval import configure_docs

DEFAULT_MODEL = "AscendKernelGen/KernelGen-LM-32B-RL"
PROJECT_FILE = "kgen.toml"
SECTION_CONFIG = ConfigDict(extra="forbid", validate_assignment=True)


class SettingsError(Exception):
    """A configuration mistake; ``str`` is one line naming where it is and which key."""


@dataclass(config=SECTION_CONFIG)
class ModelSettings:
    """An OpenAI-compatible chat endpoint (vLLM by default). ``url`` None means: no model, offline drafter."""

    url: str | None = None               # e.g. http://127.0.0.1:8000/v1
    name: str = DEFAULT_MODEL            # the served model name ("" = ask the endpoint's /v1/models)
    api_key: str = "EMPTY"               # vLLM accepts any key unless started with --api-key
    temperature: float = Field(0.2, ge=0)
    max_tokens: int = Field(8192, ge=1)
    timeout: float = Field(600.0, ge=0.001)   # seconds for one model reply
    stream: bool = True

    @property
    def configured(self) -> bool:
        return bool(self.url)


@dataclass(config=SECTION_CONFIG)
class AgentSettings:
    """Bounds and switches of the generate -> build -> repair -> verify -> benchmark loop."""

    build_repairs: int = Field(4, ge=0)          # repair rounds on compiler diagnostics
    correctness_repairs: int = Field(3, ge=0)    # repair rounds on wrong results
    samples: int = Field(1, ge=1)                # candidates drafted in parallel (pass@k)
    reply_format: Literal["ascendc", "dsl", "auto"] = "ascendc"   # what the model writes: AscendC files, a tile DSL program
                                                                   # (docs/dsl.md), or auto: the DSL when no drafter template covers the task
    retrieve: bool = True                        # put AscendC docs for the named APIs into prompts
    backend: Literal["sim", "npu"] = "sim"       # the emulator, or a real NPU through CANN
    profile: bool = True                         # model the kernel's time and the speedup over PyTorch eager
    run_timeout: float = Field(120.0, ge=0.001)  # wall-clock limit per kernel run
    data_dir: Path = Field(default_factory=default_data_dir)   # runs/, checkpoints.sqlite and the doc index


@dataclass(config=SECTION_CONFIG)
class ServeSettings:
    """The ``serve`` section: how ``kgen serve`` starts vLLM (agent_graph.llm.serve)."""

    model: str = DEFAULT_MODEL           # Hugging Face id or a local model folder
    served_name: str = ""                # --served-model-name ("" = the model id, or the folder's name)
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1)
    max_model_len: int = Field(32768, ge=1)
    tensor_parallel_size: int = Field(1, ge=1)
    vllm_cmd: str = "vllm"               # executable (and leading words), e.g. "python -m vllm.entrypoints.cli.main"
    extra_args: list[str] = Field(default_factory=list)   # appended verbatim
    health_timeout: float = Field(1800.0, ge=0.001)       # seconds to wait for the model to load
    stop_grace: float = Field(15.0, ge=0)                 # seconds between SIGTERM and SIGKILL on shutdown


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
    "KGEN_SOC": "bench.soc",
    "KGEN_CXX": "bench.cxx",
    "KGEN_CACHE_DIR": "bench.cache_dir",
    "KGEN_NO_SANDBOX": "bench.no_sandbox",
    "KGEN_EMBEDDER": "docs.embedder",
    "KGEN_TORCH_THREADS": "docs.torch_threads",
    "KGEN_EMBED_SEED": "docs.embed_seed",
}

# "section.key" -> value, or {"section": {"key": value}}: command-line flags and editor options. A None value
# is a flag that was not given (it changes nothing); a string is parsed like an environment value.
Overrides = Mapping[str, Any]


# -- the tree --------------------------------------------------------------------------------------------
_LAYERS: contextvars.ContextVar[tuple[PydanticBaseSettingsSource, ...]] = contextvars.ContextVar("kgen_layers", default=())


class Settings(BaseSettings):
    """The whole tree. ``Settings()`` is the defaults; :func:`load_settings` builds it from the layers and
    records where each value came from (``sources``: "section.key" -> "default" / "user config PATH" /
    "project PATH" / "env VAR" / "command line"; ``files``: (layer, path, found))."""

    model_config = SettingsConfigDict(env_prefix="KGEN_", env_nested_delimiter="__", extra="forbid")

    model: ModelSettings = Field(default_factory=ModelSettings)
    agent: AgentSettings = Field(default_factory=AgentSettings)
    serve: ServeSettings = Field(default_factory=ServeSettings)
    bench: BenchSettings = Field(default_factory=BenchSettings)
    docs: DocsSettings = Field(default_factory=DocsSettings)
    sources: dict[str, str] = Field(default_factory=dict, exclude=True)
    files: list[tuple[str, Path, bool]] = Field(default_factory=list, exclude=True)

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings):
        """Highest priority first: the init kwargs, then the layers :func:`load_settings` is building (none
        otherwise: ``Settings()`` itself reads no file and no environment)."""
        return (init_settings, *reversed(_LAYERS.get()))

    @model_validator(mode="after")
    def _one_data_dir(self) -> Settings:
        """The doc index lives under the agent's data dir: one ``data_dir`` decides both."""
        if self.docs.data_dir != self.agent.data_dir:
            self.docs = dataclasses.replace(self.docs, data_dir=self.agent.data_dir)
        return self


SECTIONS: dict[str, type] = {name: f.annotation for name, f in Settings.model_fields.items()
                             if dataclasses.is_dataclass(f.annotation)}


def keys(section: str) -> list[str]:
    """The keys a user may set in ``section`` (derived fields, such as docs.data_dir, are not keys)."""
    return [name for name, f in SECTIONS[section].__pydantic_fields__.items()
            if not (isinstance(f.json_schema_extra, dict) and "derived_from" in f.json_schema_extra)]


# -- checking one value ----------------------------------------------------------------------------------
def _type_name(t: Any) -> str:
    args = [a for a in typing.get_args(t) if a is not type(None)]
    if typing.get_origin(t) in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args) + " (or empty)"
    if typing.get_origin(t) is list:
        return "a list of strings"
    if typing.get_origin(t) is Literal:
        return "one of " + ", ".join(map(str, args))
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string", Path: "a path"}.get(t, str(t))


def _is_path(t: Any) -> bool:
    return t is Path or Path in typing.get_args(t)


def _check(key: str, value: Any, origin: str, text: bool, base: Path | None) -> Any:
    """``value`` for ``key`` ("section.key"), validated by the section's own model: parsed from a string when
    ``text`` (environment, textual flags), else it must already have the key's type (TOML, typed flags)."""
    section, _, name = key.partition(".")
    if section not in SECTIONS:
        raise SettingsError(f"{origin}: unknown section '{section}' (known: {', '.join(SECTIONS)})")
    if name not in keys(section):
        raise SettingsError(f"{origin}: unknown key '{key}' (known in [{section}]: {', '.join(keys(section))})")
    field = SECTIONS[section].__pydantic_fields__[name]
    t = field.annotation
    given = value
    optional = type(None) in typing.get_args(t)
    if text and isinstance(value, str):
        if optional and value == "":
            return None
        if typing.get_origin(t) is list:
            value = shlex.split(value)
    if _is_path(t) and not (optional and value is None):
        if not (isinstance(value, (str, Path)) and str(value)):
            raise SettingsError(f"{origin}: '{key}' must be {_type_name(t)}, not {given!r}")
        p = Path(os.path.expanduser(str(value)))
        return p if p.is_absolute() or base is None else base / p
    try:
        scratch = SECTIONS[section]()   # the section's own validators and bounds check the one field
        SECTIONS[section].__pydantic_validator__.validate_assignment(scratch, name, value, strict=not text)
        return getattr(scratch, name)
    except ValidationError as e:
        err = e.errors()[0]
        if err["type"] == "literal_error":
            raise SettingsError(f"{origin}: '{key}' must be {_type_name(t)}, not {given!r}") from None
        if err["type"] == "value_error":   # a section's own validator said why (bench.soc: an unknown SoC)
            why = str(err["msg"]).removeprefix("Value error, ")
            raise SettingsError(f"{origin}: '{key}': {why}") from None
        if err["type"] in ("greater_than_equal", "greater_than"):
            bound = err["ctx"].get("ge", err["ctx"].get("gt"))
            raise SettingsError(f"{origin}: '{key}' must be at least {bound:g}, not {given!r}") from None
        raise SettingsError(f"{origin}: '{key}' must be {_type_name(t)}, not {given!r}") from None


# -- the layers ------------------------------------------------------------------------------------------
class _Layer(InitSettingsSource):
    """One layer's values, each checked by :func:`_check`, with where each came from (``origins``)."""

    def __init__(self, values: dict[str, tuple[Any, str]]):
        nested: dict[str, dict[str, Any]] = {}
        for key, (value, _origin) in values.items():
            section, _, name = key.partition(".")
            nested.setdefault(section, {})[name] = value
        self.origins = {key: origin for key, (_value, origin) in values.items()}
        super().__init__(Settings, nested)


class _TomlFile(TomlConfigSettingsSource):
    """A TOML settings file read by pydantic-settings, its mistakes told in one line naming the file."""

    def _read_file(self, file_path: Path) -> dict[str, Any]:
        try:
            return super()._read_file(file_path)
        except UnicodeDecodeError as e:
            raise SettingsError(f"{file_path}: not a text file (byte {e.start} is not UTF-8)") from None
        except OSError as e:
            raise SettingsError(f"{file_path}: cannot read: {e.strerror}") from None
        except ValueError as e:   # tomllib.TOMLDecodeError
            raise SettingsError(f"{file_path}: invalid TOML: {e}") from None


def _file_layer(path: Path, layer: str) -> _Layer:
    values: dict[str, tuple[Any, str]] = {}
    for section, table in _TomlFile(Settings, toml_file=path).toml_data.items():
        if section not in SECTIONS:
            raise SettingsError(f"{path}: unknown section [{section}] (known: {', '.join(SECTIONS)})")
        if not isinstance(table, dict):
            raise SettingsError(f"{path}: '{section}' must be a table ([{section}])")
        for name, value in table.items():
            key = f"{section}.{name}"
            values[key] = (_check(key, value, str(path), text=False, base=path.parent), f"{layer} {path}")
    return _Layer(values)


def _env_layer(env: Mapping[str, str], cwd: Path) -> _Layer:
    """The named variables (ENV_VARS), then KGEN_<SECTION>__<KEY> (Settings.model_config's prefix and delimiter)."""
    prefix, delim = Settings.model_config["env_prefix"], Settings.model_config["env_nested_delimiter"]
    values: dict[str, tuple[Any, str]] = {}
    for var, key in ENV_VARS.items():
        if var in env:
            values[key] = (_check(key, env[var], f"env {var}", text=True, base=cwd), f"env {var}")
    for var in sorted(env):
        if var.startswith(prefix) and delim in var:
            section, _, name = var[len(prefix):].lower().partition(delim)
            key = f"{section}.{name}"
            values[key] = (_check(key, env[var], f"env {var}", text=True, base=cwd), f"env {var}")
    return _Layer(values)


def _flatten(overrides: Overrides) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for k, v in overrides.items():
        if isinstance(v, dict) and k in SECTIONS:
            flat.update({f"{k}.{kk}": vv for kk, vv in v.items()})
        else:
            flat[k] = v
    return flat


def _override_layer(overrides: Overrides, cwd: Path) -> _Layer:
    return _Layer({key: (_check(key, v, "command line", text=isinstance(v, str), base=cwd), "command line")
                   for key, v in _flatten(overrides).items() if v is not None})


def user_config_path() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")) / "kgen" / "config.toml"


def find_project_file(cwd: Path | None = None) -> Path | None:
    """The nearest ``kgen.toml`` in ``cwd`` or one of its parents."""
    here = Path(cwd or os.getcwd()).resolve()
    for d in (here, *here.parents):
        p = d / PROJECT_FILE
        if p.is_file():
            return p
    return None


def load_settings(cwd: str | Path | None = None, overrides: Overrides | None = None,
                  env: Mapping[str, str] | None = None) -> Settings:
    """The effective settings (see the module docstring for the layers). ``env`` defaults to ``os.environ``;
    ``overrides`` maps ``"section.key"`` (or ``{"section": {...}}``) to values; None values are ignored.
    The XDG base directories (user config, data and cache defaults) always come from ``os.environ``."""
    env = dict(os.environ if env is None else env)
    here = Path(cwd or os.getcwd())
    defaults = _Layer({"agent.data_dir": (default_data_dir(os.environ.get("XDG_DATA_HOME")), "default"),
                       "bench.cache_dir": (default_cache_dir(os.environ.get("XDG_CACHE_HOME")), "default")})
    layers = [defaults]
    files: list[tuple[str, Path, bool]] = []
    user = user_config_path()
    files.append(("user config", user, user.is_file()))
    if user.is_file():
        layers.append(_file_layer(user, "user config"))
    project = find_project_file(here)
    if project is not None:
        files.append(("project", project, True))
        layers.append(_file_layer(project, "project"))
    layers.append(_env_layer(env, here))
    layers.append(_override_layer(overrides or {}, here))
    token = _LAYERS.set(tuple(layers))
    try:
        s = Settings()
    except ValidationError as e:   # a cross-key rule of a section model (each key alone was checked)
        err = e.errors()[0]
        raise SettingsError(f"'{'.'.join(map(str, err['loc']))}': {err['msg']}") from None
    finally:
        _LAYERS.reset(token)
    s.sources = {f"{section}.{name}": "default" for section in SECTIONS for name in keys(section)}
    for layer in layers:
        s.sources.update(layer.origins)
    s.files = files
    return s


def apply_overrides(settings: Settings, overrides: Overrides, cwd: str | Path | None = None) -> Settings:
    """``settings`` with an overrides layer on top (a command's flags, an editor's options): each value is
    checked as :func:`load_settings` checks its ``overrides`` and recorded as "command line"."""
    layer = _override_layer(overrides, Path(cwd or os.getcwd()))
    sections = {name: getattr(settings, name) for name in SECTIONS}
    for name, values in layer.init_kwargs.items():
        sections[name] = dataclasses.replace(sections[name], **values)
    out = Settings(**sections)
    out.sources = {**settings.sources, **layer.origins}
    out.files = list(settings.files)
    return out


# -- handing it down -------------------------------------------------------------------------------------
_configured: Settings | None = None


def configure(settings: Settings) -> Settings:
    """Make ``settings`` this process's settings: bench_bridge and retrieval get their sections (their
    ``current()``); returns ``settings``. Called once by each front end after :func:`load_settings`."""
    global _configured
    _configured = settings
    configure_bench(settings.bench)
    configure_docs(settings.docs)
    return settings


def current() -> Settings:
    """The configured tree, else the defaults (a script or a test that configured nothing)."""
    return _configured if _configured is not None else Settings()


def child_env(settings: Settings | None = None) -> dict[str, str]:
    """``KGEN_<SECTION>__<KEY>`` variables that give a child process (a kgen entry point, itself a front end
    that calls ``load_settings``) every non-default value of ``settings``; the parent adds them to its env."""
    s = settings or current()
    prefix, delim = Settings.model_config["env_prefix"], Settings.model_config["env_nested_delimiter"]
    env: dict[str, str] = {}
    for section in SECTIONS:
        obj, default = getattr(s, section), SECTIONS[section]()
        for name in keys(section):
            v = getattr(obj, name)
            if v != getattr(default, name) or s.sources.get(f"{section}.{name}", "default") != "default":
                text = ("" if v is None else "true" if v is True else "false" if v is False
                        else shlex.join(v) if isinstance(v, list) else str(v))
                env[f"{prefix}{section.upper()}{delim}{name.upper()}"] = text
    return env


# -- kgen config -----------------------------------------------------------------------------------------
@plain_dataclass
class SettingRow:
    key: str
    value: Any
    source: str


def describe_sources(settings: Settings | None = None, cwd: str | Path | None = None,
                     overrides: Overrides | None = None) -> list[SettingRow]:
    """Every key with its effective value and where it came from (for ``kgen config``)."""
    s = settings or load_settings(cwd, overrides)
    rows = []
    for section in SECTIONS:
        obj = getattr(s, section)
        for name in keys(section):
            v = getattr(obj, name)
            if section == "model" and name == "api_key" and v not in ("EMPTY", ""):
                v = v[:3] + "..." if len(v) > 6 else "***"
            rows.append(SettingRow(f"{section}.{name}", str(v) if isinstance(v, Path) else v,
                                   s.sources.get(f"{section}.{name}", "default")))
    return rows
