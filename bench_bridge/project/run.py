"""``run_project``: run one case of a built project in a child process (limits, private temp dir):
the host TilingFunc on a TilingContext made from the inputs/outputs/attrs, then the kernel."""
from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench_bridge import settings as bench_settings
from bench_bridge.project.build import ProjectBuild
from bench_bridge.project.dtypes import FORMATS, DType, dtype_of, from_any, from_bytes, to_bytes
from bench_bridge.project.model import OpProject
from bench_bridge.sim import Diagnostic, RunResult, run
from bench_bridge.soc import DEFAULT_SOC, soc_facts, soc_names

SOC_VECTOR_CORES = {name: soc_facts(name).vector_cores for name in soc_names()}   # the SoC table's


@dataclass
class ProjectRun:
    ok: bool
    outputs: list[np.ndarray] = field(default_factory=list)
    run: RunResult | None = None
    block_dim: int = 0
    tiling_key: int = 0
    workspace_bytes: int = 0
    workspace_sizes: list[int] = field(default_factory=list)
    tiling_bytes: bytes = b""
    summary: dict = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    inputs_after: list = field(default_factory=list)  # ops without outputs: the inputs as the kernel left them

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def _fail(project: OpProject, msg: str, code: str) -> ProjectRun:
    return ProjectRun(False, diagnostics=[Diagnostic("error", msg, str(project.path), 0, 0, code, "runtime")])


def _attr_line(a, value) -> str:
    k = a.kind
    try:
        if k == "int":
            return f"attr {a.name} int {int(value)}"
        if k == "float":
            return f"attr {a.name} float {float(value)!r}"
        if k == "bool":
            return f"attr {a.name} bool {int(bool(value))}"
        if k == "str":
            h = str(value).encode().hex()
            return f"attr {a.name} str {h or '-'}"
        if k in ("list_int", "list_float", "list_bool"):
            # a number where a list is declared is a list of one (torch.split's split_size_or_sections, an int or a list)
            vals = [value] if isinstance(value, (int, float, bool)) else list(value)
            conv = {"list_int": lambda v: str(int(v)), "list_float": lambda v: repr(float(v)), "list_bool": lambda v: str(int(bool(v)))}[k]
            return f"attr {a.name} {k} {len(vals)} " + " ".join(conv(v) for v in vals)
    except (TypeError, ValueError) as e:
        raise ValueError(f"attribute '{a.name}' ({k}): cannot use value {value!r}: {e}") from None
    raise ValueError(f"attribute '{a.name}': type {k} is not supported by the emulator")


def _soc() -> str:
    s = bench_settings.current().soc or DEFAULT_SOC   # already the table's short name
    return s if s in SOC_VECTOR_CORES else DEFAULT_SOC


def _instances(p, v) -> list | None:
    """The tensors of one OpDef parameter: a DYNAMIC parameter takes a list (or tuple) of tensors,
    the others one tensor (or None when absent)."""
    if p.param_type == "dynamic":
        return list(v) if isinstance(v, (list, tuple)) else None
    return [v]


def run_project(build: ProjectBuild, inputs: list, outputs: list, attrs: dict | None = None, timeout: float = 60.0,
                trace: bool = False, zero_outputs: bool = False) -> ProjectRun:
    """Run one case: ``inputs`` per OpDef input (numpy arrays or torch tensors; None for an absent optional
    input; a list of them for a DYNAMIC input), ``outputs`` as (shape, dtype) per OpDef output (a list of
    (shape, dtype) for a DYNAMIC output; shape None: the operator's InferShape gives it and the output
    comes back as None), ``attrs`` by name (defaults fill the rest). Outputs start filled with 0xCD bytes
    (the harness poisons them, so an element the kernel never writes shows; aclrtMalloc itself hands out
    zeros, as the NPU driver's fresh pages are: docs/emulator-rules.md, "Memory contents"), or with zeros
    when ``zero_outputs`` (the task's binding zero-fills them before the kernel runs).

    ``ProjectRun.outputs`` (and ``inputs_after``) follow the same structure: one array per parameter,
    a list of arrays for a DYNAMIC one. User mistakes, TilingFunc failures, kernel errors, crashes and
    hangs come back as diagnostics."""
    project = build.project
    if not build.ok:
        return ProjectRun(False, diagnostics=list(build.diagnostics) or [Diagnostic("error", "the build failed", str(project.path), 0, 0, "compile")])
    combo = project.combo(build.combo)
    if len(inputs) != len(project.inputs):
        return _fail(project, f"{project.op_type} takes {len(project.inputs)} inputs ({', '.join(p.name for p in project.inputs)}); "
                              f"{len(inputs)} given", "bad-inputs")
    if len(outputs) != len(project.outputs):
        return _fail(project, f"{project.op_type} has {len(project.outputs)} outputs ({', '.join(p.name for p in project.outputs)}); "
                              f"{len(outputs)} given", "bad-outputs")
    in_lists, out_lists = [], []
    for p, v in zip(project.inputs, inputs):
        inst = _instances(p, v)
        if inst is None or (p.param_type == "dynamic" and not inst):
            return _fail(project, f"input '{p.name}' is DYNAMIC (a tensor list): give a non-empty list of tensors", "bad-inputs")
        in_lists.append(inst)
    for p, o in zip(project.outputs, outputs):
        inst = list(o) if p.param_type == "dynamic" and isinstance(o, list) else ([o] if p.param_type != "dynamic" else None)
        if not inst:
            return _fail(project, f"output '{p.name}' is DYNAMIC (a tensor list): give a non-empty list of (shape, dtype)", "bad-outputs")
        out_lists.append(inst)
    in_types: list[list[DType | None]] = []
    for p, inst in zip(project.inputs, in_lists):
        types: list[DType | None] = []
        for v in inst:
            if v is None:
                if p.param_type != "optional":
                    return _fail(project, f"input '{p.name}' is required but was not given", "bad-inputs")
                types.append(None)
                continue
            try:
                types.append(dtype_of(v))
            except (KeyError, TypeError) as e:
                return _fail(project, f"input '{p.name}': {e}", "bad-inputs")
        if len({t.name for t in types if t}) > 1:
            return _fail(project, f"the tensors of list input '{p.name}' have different dtypes "
                                  f"({', '.join(sorted({t.short for t in types if t}))}); a DYNAMIC parameter has one dtype", "bad-inputs")
        in_types.append(types)
    try:
        out_types = [[from_any(dt) for _, dt in inst] for inst in out_lists]
    except KeyError as e:
        return _fail(project, f"outputs: {e}", "bad-outputs")
    got = [t[0].name if t[0] else None for t in in_types] + [t[0].name for t in out_types]
    want = [combo[p.name] for p in [*project.inputs, *project.outputs]]
    if any(g is not None and g != w for g, w in zip(got, want)):
        k = project.match_combo(got[:len(project.inputs)], got[len(project.inputs):])
        combos = "; ".join(", ".join(f"{n}={d}" for n, d in c.items()) for c in project.combos())
        if k is None:
            msg = (f"no dtype combination of {project.op_type} matches the given dtypes "
                   f"({', '.join(f'{p.name}={g}' for p, g in zip([*project.inputs, *project.outputs], got))}); the OpDef declares: {combos}")
            return _fail(project, msg, "no-dtype-combination")
        return _fail(project, f"this build is dtype combination {build.combo}; the given dtypes are combination {k} "
                              f"(build that one with build_project(project, {k}))", "dtype-combination-mismatch")
    attrs = dict(attrs or {})
    unknown = set(attrs) - {a.name for a in project.attrs}
    if unknown:
        return _fail(project, f"{project.op_type} has no attribute(s) {', '.join(sorted(unknown))} "
                              f"(declared: {', '.join(a.name for a in project.attrs) or 'none'})", "bad-attrs")

    work = Path(tempfile.mkdtemp(prefix="kgen-project-run-"))
    try:
        lines = [f"op {project.op_type}", f"summary {work / 'summary.json'}"] + (["zero_outputs"] if zero_outputs else [])
        in_paths: list[list[Path | None]] = []
        for k, (p, inst, types) in enumerate(zip(project.inputs, in_lists, in_types)):
            in_paths.append([])
            for j, (v, t) in enumerate(zip(inst, types)):
                if v is None:
                    lines.append(f"absent {k}")
                    in_paths[-1].append(None)
                    continue
                path = work / f"in{k}_{j}.bin"
                path.write_bytes(to_bytes(v, t))
                in_paths[-1].append(path)
                shape = tuple(v.shape)
                fmt = _fmt(p.formats[build.combo])
                lines.append(f"input {p.name} {k} {t.ge} {fmt} {int(p.value_depend)} {path} {len(shape)} " + " ".join(map(str, shape)))
        out_paths: list[list[Path]] = []
        for k, (p, inst, types) in enumerate(zip(project.outputs, out_lists, out_types)):
            out_paths.append([])
            for j, ((shape, _), t) in enumerate(zip(inst, types)):
                path = work / f"out{k}_{j}.bin"
                out_paths[-1].append(path)
                if shape is None:  # no shape given: the operator's InferShape decides it; not read back
                    lines.append(f"output {p.name} {k} {t.ge} {_fmt(p.formats[build.combo])} 0 {path} infer")
                    continue
                shape = tuple(int(s) for s in shape)
                lines.append(f"output {p.name} {k} {t.ge} {_fmt(p.formats[build.combo])} 0 {path} {len(shape)} " + " ".join(map(str, shape)))
        for a in project.attrs:
            if a.name in attrs and not (attrs[a.name] is None and a.has_default):   # None: the forward's default
                value = attrs[a.name]
            elif a.has_default:
                value = a.default
            else:
                return _fail(project, f"attribute '{a.name}' of {project.op_type} has no default and was not given: the "
                             "task must pass it (a scalar argument of the reference Model's forward, after the input "
                             "tensors, or a one-element tensor there; or a default in the OpDef's Attr)", "bad-attrs")
            try:
                lines.append(_attr_line(a, value))
            except ValueError as e:
                return _fail(project, str(e), "bad-attrs")
        job = work / "job.txt"
        job.write_text("\n".join(lines) + "\n")
        soc = _soc()
        env = {"KGEN_SOC": soc, "KGEN_SIM_VECTOR_CORES": str(SOC_VECTOR_CORES[soc]), "KGEN_SIM_TIMEOUT": str(int(timeout) + 1)}
        r = run(build.binary, ["run", str(job)], cwd=work, timeout=timeout, env=env, trace=trace, reads=[project.path])
        summary = {}
        if (work / "summary.json").exists():
            try:
                summary = json.loads((work / "summary.json").read_text())
            except json.JSONDecodeError:
                summary = {}
        pr = ProjectRun(r.ok and summary.get("stage") == "done", run=r, summary=summary, diagnostics=list(r.diagnostics))
        _with_host_output(pr.diagnostics, r.stdout, r.stderr)
        pr.block_dim = int(summary.get("block_dim", 0))
        pr.tiling_key = int(summary.get("tiling_key", 0))
        pr.workspace_sizes = [int(x) for x in summary.get("workspace_sizes", [])]
        pr.workspace_bytes = sum(pr.workspace_sizes)
        pr.tiling_bytes = bytes.fromhex(summary.get("tiling_hex", ""))
        if r.ok and summary.get("stage") != "done":
            pr.diagnostics.append(Diagnostic("error", f"the run ended at stage '{summary.get('stage', 'start')}' "
                                                      f"{summary.get('error', '')}".strip(), str(project.path), 0, 0, "project", "runtime"))
        if pr.ok:
            for p, paths, inst, types in zip(project.outputs, out_paths, out_lists, out_types):
                arrs = [None if shape is None else from_bytes(path.read_bytes(), t, tuple(int(s) for s in shape))
                        for path, (shape, _), t in zip(paths, inst, types)]
                pr.outputs.append(arrs if p.param_type == "dynamic" else arrs[0])
            if not project.outputs:
                for p, paths, inst, types in zip(project.inputs, in_paths, in_lists, in_types):
                    arrs = []
                    for path, v, t in zip(paths, inst, types):
                        after = Path(f"{path}.after") if path is not None else None
                        arrs.append(from_bytes(after.read_bytes(), t, tuple(v.shape)) if after is not None and after.exists() else None)
                    pr.inputs_after.append(arrs if p.param_type == "dynamic" else arrs[0])
        return pr
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _with_host_output(diags: list[Diagnostic], stdout: str, stderr: str, keep: int = 3) -> None:
    """A TilingFunc that returns a failure often says why with printf: its last lines join the message."""
    said = [ln.strip() for ln in (stdout + "\n" + stderr).splitlines()
            if ln.strip() and not ln.startswith("kgen: ") and "[tiling-failed]" not in ln][-keep:]
    for d in diags:
        if d.code == "tiling-failed" and said:
            d.message += "; the host printed: " + " | ".join(said)


def _fmt(name: str) -> int:
    return next((v for v, n in FORMATS.items() if n == name), 2)
