"""The agent's typed settings: the ``model`` and ``agent`` sections of kgen's settings tree.

``assistant.settings`` loads the whole tree (defaults < user config < project ``kgen.toml`` < ``KGEN_*``
environment < command-line flags); the agent only ever receives these dataclasses.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_MODEL = "AscendKernelGen/KernelGen-LM-32B-RL"


def data_dir() -> Path:
    """Where runs and checkpoints live: ``$KGEN_DATA_DIR`` or ``$XDG_DATA_HOME/kgen`` (~/.local/share/kgen)."""
    base = os.environ.get("KGEN_DATA_DIR") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "kgen")
    return Path(base)


@dataclass
class ModelSettings:
    """An OpenAI-compatible chat endpoint (vLLM by default). ``url`` None means: no model, offline drafter."""

    url: str | None = None               # e.g. http://127.0.0.1:8000/v1
    name: str = DEFAULT_MODEL            # the served model name ("" = ask the endpoint's /v1/models)
    api_key: str = "EMPTY"               # vLLM accepts any key unless started with --api-key
    temperature: float = 0.2
    max_tokens: int = 8192
    timeout: float = 600.0               # seconds for one model reply
    stream: bool = True

    @property
    def configured(self) -> bool:
        return bool(self.url)


@dataclass
class AgentSettings:
    """Bounds and switches of the generate -> build -> repair -> verify -> benchmark loop."""

    build_repairs: int = 4               # repair rounds on compiler diagnostics
    correctness_repairs: int = 3         # repair rounds on wrong results
    samples: int = 1                     # candidates drafted in parallel (pass@k)
    retrieve: bool = True                # put AscendC docs for the named APIs into prompts
    backend: str = "sim"                 # "sim" (emulator) | "npu"
    profile: bool = True                 # model the kernel's time and the speedup over PyTorch eager
    run_timeout: float = 120.0           # wall-clock limit per kernel run
    data_dir: Path = field(default_factory=data_dir)   # runs/ and checkpoints.sqlite live here
