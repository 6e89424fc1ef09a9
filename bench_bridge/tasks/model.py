"""Typed description of a task: where its reference lives and which shape cases it has."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal


BENCHMARK_ROOT_DEPTH = 5   # how many of a task's ancestors may hold its benchmark's packages

TASK_FILE = "kgen-task.toml"
"""The file name of a kgen task spec (docs/task-spec.md): a directory holding it is a task."""

LAUNCH_SUFFIXES = (".asc", ".cpp", ".cc", ".cxx")
"""The suffixes of a kernel-launch program (one file with ``<<<>>>`` and aclrt calls) kgen builds and benches."""


TaskFormat = Literal["npukernelbench", "kernelbench", "kgen-spec"]
"""The task formats :func:`bench_bridge.tasks.load_task` reads (an NPUKernelBench task dir, a KernelBench
reference file, a kgen spec)."""


class TaskError(Exception):
    """A user mistake in a task (missing file, malformed row...): message names the file and line."""


@dataclass
class CaseSpec:
    """One shape case: an id and its parameters (a csv row, or a spec's case table)."""

    id: str
    params: dict[str, Any]


@dataclass
class Task:
    name: str
    format: TaskFormat
    root: Path
    reference: Path             # file defining Model (and for KernelBench get_inputs)
    prepare: Path | None = None  # NPUKernelBench prepare_inputs.py
    cases: list[CaseSpec] = field(default_factory=list)
    project: Path | None = None  # op project to bench by default (answer/0, or the spec's project)
    description: str = ""        # api_desc.md or the spec's description
    seed: int = 0

    def benchmark_roots(self) -> list[Path]:
        """The task's ancestor folders a reference may import its benchmark's own packages from
        (NPUKernelBench's ``framework``): the reference worker puts them at the end of ``sys.path``."""
        return [p for p in list(self.root.parents)[:BENCHMARK_ROOT_DEPTH] if p != Path("/")]

    def benchmark_dirs(self) -> list[Path]:
        """The :meth:`benchmark_roots` that hold a Python package (a folder with an ``__init__.py``),
        e.g. an NPUKernelBench checkout with its ``framework`` and ``base_config.yaml``: readable inside
        the sandbox. Never ``$HOME``, a folder above it, or a temporary-files root."""
        home = Path.home().resolve()
        never = {home, *home.parents, Path("/tmp"), Path("/var/tmp")}
        out = []
        for root in self.benchmark_roots():
            if root.resolve() in never:
                continue
            try:
                if any(d.is_dir() and (d / "__init__.py").is_file() for d in root.iterdir()):
                    out.append(root)
            except OSError:
                continue
        return out

    def files(self) -> list[Path]:
        """The folders of the task's own files and its benchmark's packages: what a sandboxed reference
        worker may read."""
        own = [p if p.is_dir() else p.parent for p in (self.root, self.reference, self.prepare) if p is not None]
        return [*own, *self.benchmark_dirs()]

    def to_json_dict(self) -> dict:
        d = asdict(self)
        for k in ("root", "reference", "prepare", "project"):
            d[k] = str(d[k]) if d[k] is not None else None
        return d

    @classmethod
    def from_json_dict(cls, d: dict) -> "Task":
        d = dict(d)
        for k in ("root", "reference", "prepare", "project"):
            d[k] = Path(d[k]) if d.get(k) else None
        d["cases"] = [CaseSpec(**c) for c in d.get("cases", [])]
        return cls(**d)
