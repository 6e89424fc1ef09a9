"""``kgen bench --backend npu``: the CANN flow on a real NPU (not yet run on hardware); ``--dry-run``
prints the exact commands."""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path


def run_npu(args: argparse.Namespace) -> int:
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import (NpuUnavailable, TaskError, cann_op_json, describe_project, find_cann_env, load_task,
                                  npu_detect, npu_plan)

    from bench_bridge.api import LAUNCH_SUFFIXES  # lazy: as above

    task_dir = None
    project = Path(args.project) if args.project else None
    p = Path(args.path)
    if p.is_file() and p.suffix in LAUNCH_SUFFIXES and project is None:
        return _run_launch_program(p, args.dry_run, npu_detect, find_cann_env, NpuUnavailable)
    if (p / "op_host").is_dir() and project is None:
        project = p
    else:
        try:
            task = load_task(p)
        except TaskError as e:
            print(f"kgen: error: {e}", file=sys.stderr)
            return 2
        project = project or task.project
        task_dir = task.root if task.format == "npukernelbench" else None
    if project is None:
        print(f"kgen: error: {p}: no op project to bench: pass --project DIR", file=sys.stderr)
        return 2
    env = None
    if not args.dry_run:
        try:
            env = npu_detect()
        except NpuUnavailable as e:
            print(f"kgen: error: {e}", file=sys.stderr)
            return 2
    op = describe_project(project)
    if not op.ok:
        errs = [d.format() for d in op.diagnostics if d.severity == "error"]
        print(f"kgen: error: cannot read the op definition of {project}: {errs[0] if errs else 'unknown error'}", file=sys.stderr)
        return 2
    desc = cann_op_json(
        op.op_type,
        [{"name": i.name, "dtypes": [d.replace("DT_", "").lower() for d in i.dtypes], "param_type": i.param_type} for i in op.inputs],
        [{"name": o.name, "dtypes": [d.replace("DT_", "").lower() for d in o.dtypes], "param_type": o.param_type} for o in op.outputs],
        [{"name": a.name, "type": a.kind, "default": a.default} for a in op.attrs],
    )
    work = Path(tempfile.mkdtemp(prefix="kgen-npu-"))
    cmds = npu_plan(Path(project).resolve(), op.op_type, work, desc, task_dir, env=env or find_cann_env())
    if args.dry_run:
        print("# kgen bench --backend npu: the CANN flow (not yet run on real hardware)")
        print("\n".join(cmds))
        return 0
    script = work / "run.sh"
    script.write_text("set -euo pipefail\n" + "\n".join(cmds) + "\n")
    return subprocess.run(["bash", str(script)]).returncode


NPU_ARCH = "dav-2201"
"""The 910B (Atlas A2) AI core's architecture name for bisheng's --npu-arch (the core the SoC table's
figures are of; CANN's samples set it as CMAKE_ASC_ARCHITECTURES)."""


def launch_plan(src: Path, workdir: Path, env) -> list[str]:
    """Shell commands that build a kernel-launch program (``.asc``/``.cpp`` with a host ``main``) with CANN's
    bisheng compiler (``-xasc``: AscendC source, kernel and host in one file) and run it in ``workdir``; its
    exit status and PASS/FAIL line are the verdict, as on the emulator."""
    home = env.home if env else Path("${ASCEND_HOME_PATH:-/usr/local/Ascend/ascend-toolkit/latest}")
    setenv = env.setenv if env else home / "set_env.sh"
    exe = workdir / src.stem
    return [
        f"source {setenv}",
        f"mkdir -p {workdir}",
        f"bisheng -xasc --npu-arch={NPU_ARCH} -O2 -std=c++17 -I{home}/include -I{src.parent} {src} "
        f"-L{home}/lib64 -lascendcl -lruntime -o {exe}",
        f"cd {workdir} && {exe}",
    ]


def _run_launch_program(src: Path, dry_run: bool, detect, find_env, unavailable) -> int:
    env = None
    if not dry_run:
        try:
            env = detect()
        except unavailable as e:
            print(f"kgen: error: {e}", file=sys.stderr)
            return 2
    work = Path(tempfile.mkdtemp(prefix="kgen-npu-"))
    cmds = launch_plan(src.resolve(), work, env or find_env())
    if dry_run:
        print("# kgen bench --backend npu: build and run the kernel-launch program with CANN (not yet run on real hardware)")
        print("\n".join(cmds))
        return 0
    script = work / "run.sh"
    script.write_text("set -euo pipefail\n" + "\n".join(cmds) + "\n")
    return subprocess.run(["bash", str(script)]).returncode
