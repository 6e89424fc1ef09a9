"""``describe_project``: what a custom-operator project declares, read by compiling its op_host code
with the emulator's host headers into a small program that constructs the OpDefs and prints JSON
(no C++ parsing in Python)."""
from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from bench_bridge.project.gen import harness_main
from bench_bridge.project.linking import build_host_program
from bench_bridge.project.model import PARAM_TYPES, AttrInfo, OpProject, ParamInfo, TilingClassInfo, format_name, ge_name
from bench_bridge.sim import Diagnostic, run

SOC_KEYS = ("ascend910b",)
_OP_API_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](?:aclnn|opdev|aclnn_kernels)/', re.M)


def snake_case(op_type: str) -> str:
    """Kernel entry name of an operator type: AddCustom -> add_custom, Conv2DCustom -> conv2_d_custom."""
    out = []
    for i, c in enumerate(op_type):
        if c.isupper() and i > 0:
            prev = op_type[i - 1]
            nxt = op_type[i + 1] if i + 1 < len(op_type) else ""
            if prev.islower() or prev.isdigit() or (prev.isupper() and nxt.islower()):
                out.append("_")
        out.append(c.lower())
    return "".join(out)


def _err(project: OpProject, msg: str, file: str = "", code: str = "project") -> OpProject:
    project.diagnostics.append(Diagnostic("error", msg, file or str(project.path), 0, 0, code, "runtime"))
    return project


def _expand(params: list[dict], all_params: list[dict], project: OpProject) -> list[list[int]] | None:
    """Per-param dtype lists expanded to combinations (DataType lists are positional, DataTypeList
    entries combine with every combination); returns per-param lists of equal length, or None."""
    by_name = {p["name"]: p for p in all_params}
    for p in all_params:  # Follow: copy dtype/format lists
        seen = set()
        q = p
        while q.get("follow") and q["follow"] in by_name and q["follow"] not in seen:
            seen.add(q["follow"])
            q = by_name[q["follow"]]
        if q is not p and not p["dtypes"]:
            p["dtypes"], p["formats"], p["dtype_is_list"] = list(q["dtypes"]), list(q["formats"]), q["dtype_is_list"]
    fixed = [p for p in all_params if not p["dtype_is_list"]]
    lengths = {len(p["dtypes"]) for p in fixed}
    for p in all_params:
        if not p["dtypes"]:
            _err(project, f"{project.op_type}: '{p['name']}' declares no DataType list")
            return None
    if len(lengths) > 1:
        detail = ", ".join(f"{p['name']}: {len(p['dtypes'])}" for p in fixed)
        _err(project, f"{project.op_type}: the DataType lists have different lengths ({detail}); each position k of "
                      f"every list forms combination k, so they must all be equally long")
        return None
    n = lengths.pop() if lengths else 1
    combos = [[p["dtypes"][k] if not p["dtype_is_list"] else None for p in all_params] for k in range(n)]
    for j, p in enumerate(all_params):
        if p["dtype_is_list"]:
            combos = [c[:j] + [dt] + c[j + 1:] for c in combos for dt in p["dtypes"]]
    return [[c[j] for c in combos] for j in range(len(all_params))]


def _formats(p: dict, k_total: int, positional_len: int) -> list[str]:
    f = p["formats"]
    if not f:
        return ["FORMAT_ND"] * k_total
    if len(f) == k_total:
        return [format_name(x) for x in f]
    if p["format_is_list"] or len(f) == 1:
        return [format_name(f[0])] * k_total
    # positional formats repeated over DataTypeList expansion
    return [format_name(f[k % len(f)]) for k in range(k_total)]


def _from_json(project: OpProject, data: dict) -> OpProject:
    project.raw = data
    ops = data.get("ops", [])
    if not ops:
        impls = data.get("impls", [])
        hint = f" (IMPL_OP registrations found for {', '.join(impls)})" if impls else ""
        return _err(project, f"no OpDef registered: op_host code must define `class X : public OpDef` and call OP_ADD(X){hint}")
    if len(ops) > 1:
        project.diagnostics.append(Diagnostic("warning", f"{len(ops)} OpDefs registered; using the first ({ops[0]['type']})",
                                              str(project.path), 0, 0, "project", "runtime"))
    op = ops[0]
    project.op_type = op["type"]
    project.kernel_name = snake_case(op["type"])
    project.has_tiling, project.has_infer_shape, project.has_infer_dtype = op["has_tiling"], op["has_infer_shape"], op["has_infer_dtype"]
    project.socs = [c["soc"] for c in op["configs"]]
    inputs, outputs = op["inputs"], op["outputs"]
    for c in op["configs"]:  # a SoC config with its own params overrides the OpDef's
        if c["soc"] in SOC_KEYS and (c["inputs"] or c["outputs"]):
            over = {p["name"]: p for p in [*c["inputs"], *c["outputs"]]}
            inputs = [over.get(p["name"], p) for p in inputs]
            outputs = [over.get(p["name"], p) for p in outputs]
    all_params = [dict(p) for p in [*inputs, *outputs]]
    expanded = _expand([], all_params, project)
    if expanded is None:
        return project
    k_total = len(expanded[0]) if expanded else 0
    infos = []
    for p, dts in zip(all_params, expanded):
        infos.append(ParamInfo(p["name"], PARAM_TYPES.get(p["param_type"], str(p["param_type"])), [ge_name(d) for d in dts],
                               _formats(p, k_total, len(p["formats"])), p["value_depend"]))
    project.inputs, project.outputs = infos[: len(inputs)], infos[len(inputs):]
    project.attrs = [AttrInfo(a["name"], a["kind"], a["required"], a["has_default"], a["default"]) for a in op["attrs"]]
    for c in data.get("tiling_classes", []):
        project.tiling_classes[c["name"]] = TilingClassInfo(c["name"], c["size"], c["align"], c["fields"])
    seen = set()
    for op_name, cls in data.get("tiling_registrations", []):
        if (op_name, cls) not in seen:
            seen.add((op_name, cls))
            project.tiling_registrations.append((op_name, cls))
    if not project.has_tiling:
        _err(project, f"{project.op_type} has no TilingFunc: call this->AICore().SetTiling(f) in the OpDef or "
                      f"IMPL_OP_OPTILING({project.op_type}).Tiling(f)")
    return project


def find_sources(project: OpProject) -> bool:
    root = project.path
    host_dir, kernel_dir = root / "op_host", root / "op_kernel"
    if not root.is_dir():
        _err(project, f"no such project directory: {root}")
        return False
    if not host_dir.is_dir():
        _err(project, f"{root} is not a custom-operator project: it has no op_host/ directory")
        return False
    # C++ sources as CMake takes them (.cpp, .cc, .cxx)
    sources = sorted(p for ext in ("cpp", "cc", "cxx") for p in host_dir.glob(f"*.{ext}") if p.is_file())
    # op-API (aclnn) layer files compile against CANN's aclnn/opdev headers into a separate library;
    # kgen's harness stands in for that layer, so they are not part of the op build
    api_layer = [p for p in sources if _OP_API_INCLUDE.search(p.read_text(errors="replace"))]
    project.host_sources = [p for p in sources if p not in api_layer]
    project.raw["op_api_sources"] = [str(p) for p in api_layer]
    if not project.host_sources:
        _err(project, f"{host_dir} holds no .cpp/.cc file (expected the OpDef and TilingFunc)")
        return False
    kernels = sorted(p for p in kernel_dir.glob("*.cpp") if p.is_file()) if kernel_dir.is_dir() else []
    if not kernels:
        _err(project, f"{root} has no op_kernel/*.cpp kernel source")
        return False
    project.kernel_source = kernels[0] if len(kernels) == 1 else None
    project.raw["kernel_candidates"] = [str(k) for k in kernels]
    return True


def _pick_kernel(project: OpProject) -> None:
    cands = [Path(k) for k in project.raw.get("kernel_candidates", [])]
    named = [k for k in cands if k.stem == project.kernel_name]
    if named:
        project.kernel_source = named[0]
    elif project.kernel_source is None:
        pat = re.compile(r"\b" + re.escape(project.kernel_name) + r"\s*\(")
        hits = [k for k in cands if pat.search(k.read_text(errors="replace"))]
        project.kernel_source = hits[0] if hits else cands[0]
    text = project.kernel_source.read_text(errors="replace")
    if not re.search(r"\b" + re.escape(project.kernel_name) + r"\s*\(", text):
        _err(project, f"kernel entry '{project.kernel_name}' (the snake-case form of operator type {project.op_type}) "
                      f"is not defined in {project.kernel_source.name}", str(project.kernel_source), "kernel-entry")


def describe_project(path: str | Path, timeout: float = 300.0) -> OpProject:
    """Describe the project at ``path``; problems are diagnostics on the result, never exceptions."""
    project = OpProject(Path(path).resolve())
    if not find_sources(project):
        return project
    main = harness_main()
    res = build_host_program([*project.host_sources, main], [project.path / "op_host", project.path / "op_kernel"], timeout)
    project.describe_build = res
    if not res.ok:
        project.diagnostics.extend(res.diagnostics or [Diagnostic("error", "building the op_host code failed", str(project.path), 0, 0, "compile")])
        return project
    tmp = Path(tempfile.mkdtemp(prefix="kgen-describe-"))
    try:
        out = tmp / "describe.json"
        r = run(res.binary, ["describe", str(out)], cwd=tmp, timeout=timeout, reads=[project.path])
        if not r.ok or not out.exists():
            project.diagnostics.extend(r.diagnostics)
            return _err(project, f"running the OpDef constructors failed (exit {r.returncode}): {r.stderr.strip()[-1500:]}")
        data = json.loads(out.read_text())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _from_json(project, data)
    if project.op_type:
        _pick_kernel(project)
    return project
