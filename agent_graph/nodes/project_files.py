"""Writing a candidate's files as a CANN custom-op project (msopgen's layout, reduced to what a build
needs): the op sources the model wrote, a CMakeLists.txt, the op description JSON (once the OpDef has
been read), and for a kgen spec task its reference + a kgen-task.toml so the project benches alone."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from bench_bridge.api import TASK_FILE, from_any

_CMAKE = """# {op_type}: written by the kgen agent. CANN builds it through msopgen's project;
# the emulator (kgen bench) needs only op_host/ and op_kernel/.
cmake_minimum_required(VERSION 3.16)
project({snake} LANGUAGES CXX)
set(OP_TYPE {op_type})
set(OP_HOST_SOURCES {host})
set(OP_KERNEL_SOURCES {kernel})
set(ASCEND_COMPUTE_UNIT ascend910b)
"""

from agent_graph.output_dir import OP_DIRS  # noqa: E402  (one source for the layout)


def op_sources(project: Path) -> dict[str, str]:
    """The op sources of an existing project: ``op_host/*`` and ``op_kernel/*`` C++ files."""
    out = {}
    for sub in OP_DIRS:
        d = project / sub
        if d.is_dir():
            for p in sorted(d.rglob("*")):
                if p.is_file() and p.suffix in (".cpp", ".h", ".hpp", ".cc"):
                    out[p.relative_to(project).as_posix()] = p.read_text(errors="replace")
    return out


def write_candidate(files: dict[str, str], dest: Path, op_type: str, op_name: str, task=None, task_path: str = "") -> Path:
    """Write ``files`` (op_host/…, op_kernel/…) and the scaffolding under ``dest`` (created, replaced)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for rel, text in files.items():
        p = dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    host = " ".join(sorted(r for r in files if r.startswith("op_host/") and r.endswith(".cpp"))) or f"op_host/{op_name}.cpp"
    kernel = " ".join(sorted(r for r in files if r.startswith("op_kernel/") and r.endswith(".cpp"))) or f"op_kernel/{op_name}.cpp"
    (dest / "CMakeLists.txt").write_text(_CMAKE.format(op_type=op_type, snake=op_name, host=host, kernel=kernel))
    if task is not None and task.format == "kgen-spec":
        _copy_spec(task, Path(task_path), dest)
    return dest


def _copy_spec(task, spec: Path, dest: Path) -> None:
    """The task's kgen spec beside the project, pointing at a copied reference and at the project."""
    src = spec / TASK_FILE if spec.is_dir() else spec
    if not src.is_file() or src.suffix != ".toml":
        return
    shutil.copyfile(task.reference, dest / "reference.py")
    text = src.read_text()
    text = re.sub(r'(?m)^reference\s*=.*$', 'reference = "reference.py"', text)
    if re.search(r"(?m)^project\s*=", text):
        text = re.sub(r'(?m)^project\s*=.*$', 'project = "."', text)
    else:
        text = re.sub(r'(?m)^(reference = "reference.py")$', r'\1\nproject = "."', text, count=1)
    (dest / TASK_FILE).write_text(text)


def write_op_json(op, dest: Path, op_name: str) -> None:
    """``<op>.json``, msopgen's op description, from the OpDef the emulator read (bench_bridge OpProject)."""
    def short(ge: str) -> str:
        try:
            return {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}.get(from_any(ge).short, from_any(ge).short)
        except KeyError:
            return ge

    def desc(p) -> dict:
        return {"name": p.name, "param_type": p.param_type, "format": [f.replace("FORMAT_", "") for f in p.formats],
                "type": [short(d) for d in p.dtypes]}

    data = [{"op": op.op_type, "language": "cpp", "input_desc": [desc(p) for p in op.inputs],
             "output_desc": [desc(p) for p in op.outputs],
             "attr": [{"name": a.name, "param_type": "required" if a.required else "optional", "type": a.kind,
                       **({"default_value": str(a.default)} if a.has_default else {})} for a in op.attrs]}]
    (dest / f"{op_name}.json").write_text(json.dumps(data, indent=2) + "\n")
