"""Detect a task's format from a path and load its description (no reference code is run here).

Formats:
- NPUKernelBench task directory: ``api_desc.md``, ``validation/module.py`` (``Model``),
  ``validation/prepare_inputs.py`` (``get_inputs(param, device)``), ``validation/test_cases.csv``,
  optional ``answer/N/`` projects (``answer/0`` is benched by default).
- KernelBench / MultiKernelBench reference file: a ``.py`` with ``Model``, ``get_inputs()`` and
  ``get_init_inputs()``; one case. Or, as MultiKernelBench's NPUKernelBench-level files, ``get_input_groups()``
  instead of ``get_inputs()``: a case per line of the ``<stem>.json`` beside it (groups.py).
- kgen spec: a ``.toml`` file (or a directory holding ``kgen-task.toml``); see docs/task-spec.md.
"""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from bench_bridge.tasks.csvcases import read_cases
from bench_bridge.tasks.groups import GROUPS_FN, group_cases
from bench_bridge.tasks.model import TASK_FILE, CaseSpec, Task, TaskError

DTYPES = {"float16", "bfloat16", "float32", "float", "float64", "int8", "uint8", "int16", "int32", "int64", "bool"}


def load_task(path: str | Path) -> Task:
    p = Path(path)
    if not p.exists():
        raise TaskError(f"{p}: no such file or directory")
    if p.is_dir():
        if (p / "validation" / "module.py").is_file():
            return _load_npukernelbench(p)
        if (p / TASK_FILE).is_file():
            return load_spec(p / TASK_FILE)
        raise TaskError(f"{p}: not a task directory (expected validation/module.py of an NPUKernelBench task, or {TASK_FILE})")
    if p.suffix == ".toml":
        return load_spec(p)
    if p.suffix == ".py":
        return _load_kernelbench(p)
    raise TaskError(f"{p}: unknown task format (expected an NPUKernelBench task dir, a KernelBench .py or a kgen .toml spec)")


def _read_text(path: Path) -> str:
    """A task file's text; a file that cannot be read or is not UTF-8 text is a TaskError naming it."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise TaskError(f"{path}: not a text file (byte {e.start} is not UTF-8)") from e
    except OSError as e:
        raise TaskError(f"{path}: cannot read: {e.strerror}") from e


def check_python(path: Path, text: str | None = None) -> str:
    """The source of a task's Python file (a reference, an input generator) once it parses; a syntax
    error is a TaskError naming the file and line, found here rather than when the reference runs."""
    text = _read_text(path) if text is None else text
    try:
        ast.parse(text, filename=str(path))
    except SyntaxError as e:
        raise TaskError(f"{path}:{e.lineno or 0}: not valid Python: {e.msg}") from e
    except ValueError as e:     # NUL bytes
        raise TaskError(f"{path}: not valid Python: {e}") from e
    return text


def _load_npukernelbench(root: Path) -> Task:
    val = root / "validation"
    prepare = val / "prepare_inputs.py"
    csv = val / "test_cases.csv"
    if not csv.is_file():
        raise TaskError(f"{csv}: missing (an NPUKernelBench task lists its shape cases there)")
    check_python(val / "module.py")
    if prepare.is_file():
        check_python(prepare)
    cases = read_cases(csv)
    answer = root / "answer" / "0"
    desc = (root / "api_desc.md").read_text(errors="replace") if (root / "api_desc.md").is_file() else ""
    return Task(
        name=root.name,
        format="npukernelbench",
        root=root.resolve(),
        reference=(val / "module.py").resolve(),
        prepare=prepare.resolve() if prepare.is_file() else None,
        cases=cases,
        project=answer.resolve() if (answer / "op_host").is_dir() else None,
        description=desc,
    )


def _load_kernelbench(path: Path) -> Task:
    text = check_python(path)
    groups = re.search(rf"^def\s+{GROUPS_FN}\s*\(", text, re.M) is not None
    missing = [n for n, pat in (("class Model", r"^class\s+Model\b"), ("get_inputs()", r"^def\s+get_inputs\s*\("))
               if not re.search(pat, text, re.M) and not (groups and n == "get_inputs()")]
    if missing:
        raise TaskError(f"{path}: not a KernelBench reference (missing {', '.join(missing)})")
    uses_groups = groups and not re.search(r"^def\s+get_inputs\s*\(", text, re.M)
    return Task(name=path.stem, format="kernelbench", root=path.parent.resolve(), reference=path.resolve(),
                cases=group_cases(path) if uses_groups else [CaseSpec(id="0", params={})])


def load_spec(path: Path) -> Task:
    """Read a kgen task spec (TOML); every mistake names the file and the offending key."""
    try:
        data = tomllib.loads(_read_text(path))
    except tomllib.TOMLDecodeError as e:
        raise TaskError(f"{path}: invalid TOML: {e}") from e
    base = path.parent
    ref = data.get("reference")
    if not isinstance(ref, str):
        raise TaskError(f"{path}: 'reference' (the .py file defining Model) is required")
    ref_path = (base / ref).resolve()
    if not ref_path.is_file():
        raise TaskError(f"{path}: reference file {ref_path} does not exist")
    check_python(ref_path)
    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise TaskError(f"{path}: at least one [[cases]] table is required")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TaskError(f"{path}: 'seed' must be an integer, not {seed!r}")
    cases = []
    for i, c in enumerate(raw_cases):
        where = f"{path}: cases[{i}]"
        if not isinstance(c, dict):
            raise TaskError(f"{where}: each case must be a table ([[cases]] with inputs = [...])")
        for key in ("args", "init"):
            if not isinstance(c.get(key, []), list):
                raise TaskError(f"{where}: '{key}' must be a list")
        inputs = c.get("inputs")
        if not isinstance(inputs, list) or not inputs:
            raise TaskError(f"{where}: 'inputs' must be a list of {{shape = [...], dtype = \"...\"}}")
        for j, inp in enumerate(_flat_inputs(inputs, where)):
            if not isinstance(inp, dict) or not isinstance(inp.get("shape"), list):
                raise TaskError(f"{where}.inputs[{j}]: needs shape = [dims...]")
            if not all(isinstance(d, int) and d >= 0 for d in inp["shape"]):
                raise TaskError(f"{where}.inputs[{j}]: shape must hold non-negative integers")
            if inp.get("dtype", "float32") not in DTYPES:
                raise TaskError(f"{where}.inputs[{j}]: unknown dtype {inp.get('dtype')!r} (one of {', '.join(sorted(DTYPES))})")
            rng = inp.get("range")
            if rng is not None and not (isinstance(rng, list) and len(rng) == 2):
                raise TaskError(f"{where}.inputs[{j}]: range must be [low, high]")
        params = {"inputs": inputs, "args": c.get("args", []), "init": c.get("init", [])}
        cases.append(CaseSpec(id=str(c.get("id", i)), params=params))
    project = data.get("project")
    proj_path = (base / project).resolve() if isinstance(project, str) else None
    if proj_path is not None and not (proj_path / "op_host").is_dir():
        raise TaskError(f"{path}: project {proj_path} has no op_host/ directory")
    return Task(name=str(data.get("name", path.parent.name if path.name == TASK_FILE else path.stem)), format="kgen-spec",
                root=base.resolve(), reference=ref_path, cases=cases, project=proj_path,
                description=str(data.get("description", "")), seed=seed)


def _flat_inputs(inputs: list, where: str) -> list:
    """The tensor entries of a case's inputs, the items of a tensor list ``{list = [...]}`` included."""
    out = []
    for j, inp in enumerate(inputs):
        if isinstance(inp, dict) and ("value" in inp or inp.get("absent") is True):
            continue   # a number or list passed in place ({value = [4096]}), an absent optional tensor ({absent = true})
        if isinstance(inp, dict) and "list" in inp:
            if not isinstance(inp["list"], list) or not inp["list"]:
                raise TaskError(f"{where}.inputs[{j}]: list must hold {{shape = [...], dtype = \"...\"}} entries")
            out += inp["list"]
        else:
            out.append(inp)
    return out
