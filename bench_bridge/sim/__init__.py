"""The ``sim`` backend: kgen's clean-room CPU emulator of AscendC.

Public API:
    build(sources, ...) -> BuildResult      compile AscendC sources against the emulator headers
    run(binary, ...) -> RunResult           run an emulator binary with limits, collect diagnostics
    INCLUDE_DIR                             the emulator's header root
"""
from bench_bridge.sim.compiler import INCLUDE_DIR, BuildResult, build
from bench_bridge.sim.diagnostics import Diagnostic
from bench_bridge.sim.runner import RunResult, run

__all__ = ["INCLUDE_DIR", "BuildResult", "Diagnostic", "RunResult", "build", "run"]
