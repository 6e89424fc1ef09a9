"""CANN environment detection and the command plan for benching an op project on a real NPU.

Flow (CANN custom-operator documentation): generate an operator project with ``msopgen`` from a
JSON description of the op, copy the user's ``op_host/`` and ``op_kernel/`` into it, ``build.sh``
it, install the resulting ``custom_opp_*.run`` into a private vendor path, build the task's
``validation/pybind.cpp`` extension against torch_npu, then run the task's ``ModelNew`` on the NPU
(timed with ``torch.npu.Event``) and compare with ``Model`` on the CPU.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from bench_bridge.soc import soc_facts

DEFAULT_SOC_VERSION = soc_facts().soc_version   # "Ascend910B2": the SoC table's default

# ge dtype short names -> msopgen type names
MSOPGEN_TYPES = {"float32": "float", "float": "float", "float16": "float16", "bf16": "bfloat16", "bfloat16": "bfloat16", "int8": "int8",
                 "uint8": "uint8", "int16": "int16", "int32": "int32", "int64": "int64", "bool": "bool"}


class NpuUnavailable(RuntimeError):
    """No usable CANN installation / NPU on this machine (message says what is missing)."""


@dataclass
class CannEnv:
    home: Path            # the toolkit root (ASCEND_HOME_PATH)
    setenv: Path          # the script that sets CANN's environment
    msopgen: Path
    soc: str = DEFAULT_SOC_VERSION


def _candidates() -> list[Path]:
    roots = [os.environ.get(k) for k in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH")]
    out = [Path(r) for r in roots if r]
    out += [Path("/usr/local/Ascend/ascend-toolkit/latest"), Path.home() / "Ascend/ascend-toolkit/latest"]
    return out


def find_env(soc: str = DEFAULT_SOC_VERSION) -> CannEnv | None:
    for root in _candidates():
        if root.name == "opp":
            root = root.parent
        msopgen = root / "python" / "site-packages" / "bin" / "msopgen"
        if not msopgen.exists():
            found = shutil.which("msopgen")
            msopgen = Path(found) if found else msopgen
        setenv = next((p for p in (root / "set_env.sh", root / "bin" / "setenv.bash", root.parent / "set_env.sh") if p.exists()), None)
        if msopgen.exists() and setenv:
            return CannEnv(root, setenv, msopgen, soc)
    return None


def detect(soc: str = DEFAULT_SOC_VERSION) -> CannEnv:
    """The CANN environment, or NpuUnavailable naming what is missing."""
    env = find_env(soc)
    if env is None:
        raise NpuUnavailable(
            "no CANN toolkit found (looked at $ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME and /usr/local/Ascend/ascend-toolkit/latest "
            "for set_env.sh and msopgen); use --backend sim, or --dry-run to see the commands")
    if not Path("/dev/davinci0").exists() and not os.environ.get("KGEN_NPU_ASSUME_DEVICE"):
        raise NpuUnavailable("CANN is installed but no NPU device (/dev/davinci0) is visible; use --backend sim")
    return env


def op_json(op_name: str, inputs: list[dict], outputs: list[dict], attrs: list[dict]) -> list[dict]:
    """The msopgen operator description: each param with its dtype and format lists."""
    def param(p: dict, kind: str) -> dict:
        types = [MSOPGEN_TYPES.get(d, d) for d in p.get("dtypes", ["float16"])]
        return {"name": p["name"], "param_type": p.get("param_type", "required"), "format": ["ND"] * len(types), "type": types}

    return [{
        "op": op_name,
        "input_desc": [param(p, "input") for p in inputs],
        "output_desc": [param(p, "output") for p in outputs],
        "attr": [{"name": a["name"], "param_type": "optional" if a.get("default") is not None else "required",
                  "type": a.get("type", "float"), "default_value": a.get("default")} for a in attrs],
    }]


def plan(project: Path, op_name: str, workdir: Path, desc: list[dict], task_dir: Path | None, soc: str = DEFAULT_SOC_VERSION,
         env: CannEnv | None = None) -> list[str]:
    """Shell commands (in order) that build, install and bench ``project`` on an NPU."""
    home = env.home if env else Path("${ASCEND_HOME_PATH:-/usr/local/Ascend/ascend-toolkit/latest}")
    setenv = env.setenv if env else home / "set_env.sh"
    gen = workdir / op_name
    cmds = [
        f"source {setenv}",
        f"mkdir -p {workdir}",
        f"cat > {workdir}/{op_name}.json <<'JSON'\n{json.dumps(desc, indent=2)}\nJSON",
        f"msopgen gen -i {workdir}/{op_name}.json -c ai_core-{soc} -lan cpp -out {gen}",
        f"cp -r {project}/op_host/. {gen}/op_host/ && cp -r {project}/op_kernel/. {gen}/op_kernel/",
        f"cd {gen} && bash build.sh",
        f"{gen}/build_out/custom_opp_*.run --install-path={workdir}/opp",
        f"export ASCEND_CUSTOM_OPP_PATH={workdir}/opp/vendors/customize:${{ASCEND_CUSTOM_OPP_PATH:-}}",
    ]
    if task_dir is not None:
        cmds += [
            f"python -m bench_bridge.npu.pybind_build {task_dir}/validation/pybind.cpp --out {workdir}/ext",
            f"PYTHONPATH={workdir}/ext python -m bench_bridge.npu.run_task {task_dir} --json {workdir}/npu_report.json",
        ]
    return cmds
