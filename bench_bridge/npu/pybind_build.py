"""Build an NPUKernelBench ``validation/pybind.cpp`` into the ``kernel_gen_ops`` extension against
torch_npu (CANN flow; UNTESTED here: needs torch_npu and the CANN toolkit).

    python -m bench_bridge.npu.pybind_build PYBIND_CPP --out DIR
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def build(pybind_cpp: Path, out: Path) -> Path:
    import torch_npu  # noqa: F401  # optional: torch_npu (fails clearly without the NPU stack)
    from torch.utils.cpp_extension import load  # optional: torch

    npu_root = Path(torch_npu.__file__).parent
    home = os.environ.get("ASCEND_HOME_PATH", "/usr/local/Ascend/ascend-toolkit/latest")
    out.mkdir(parents=True, exist_ok=True)
    load(
        name="kernel_gen_ops",
        sources=[str(pybind_cpp)],
        extra_include_paths=[str(npu_root / "include"), str(pybind_cpp.parent), f"{home}/include"],
        extra_ldflags=[f"-L{npu_root / 'lib'}", "-ltorch_npu", f"-L{home}/lib64", "-lascendcl", "-lnnopbase", "-lopapi"],
        build_directory=str(out),
        verbose=True,
    )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench_bridge.npu.pybind_build")
    ap.add_argument("pybind_cpp", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        build(a.pybind_cpp, a.out)
    except ImportError as e:
        print(f"pybind_build: the NPU stack is not importable: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
