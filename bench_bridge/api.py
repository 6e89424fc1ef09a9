"""The bench bridge's public face: what the front ends (assistant, lsp) and the agent (agent_graph)
may use. Nothing outside bench_bridge imports its other modules (tests/test_architecture.py).

- benching: :func:`bench` with :class:`BenchOptions` -> :class:`BenchReport` (docs/report-schema.md),
  typed progress events (:mod:`bench_bridge.events`), :class:`BenchError` for a user mistake;
- tasks: :func:`load_task` -> :class:`Task` (NPUKernelBench dirs, KernelBench files, kgen specs);
- the emulator as a compiler: :func:`build` / :func:`run` (``sim``), its include tree and headers;
- custom-op projects: :func:`describe_project`, :func:`build_project`, :func:`run_project`;
- the NPU backend: :func:`npu_detect`, :func:`npu_plan`;
- the performance model: :func:`profile`, :func:`write_chrome_trace`, :func:`write_png`;
- the sandbox every child runs in: :class:`SandboxUnavailable`, :func:`require_sandbox`;
- hardware facts: :func:`soc_facts` -> :class:`SocFacts` (the SoC table, ``soc.toml``), :data:`DEFAULT_SOC`;
- names: :data:`TASK_FILE` (``kgen-task.toml``), :data:`LAUNCH_SUFFIXES` (kernel-launch programs);
- running a task's own Python (in a child process only): :func:`load_module`, :class:`CaseRow`,
  :func:`install_stubs`, :func:`group_inputs`, :func:`npu_only_ops`.
"""
from __future__ import annotations

from bench_bridge.bench import BenchError, BenchOptions, bench
from bench_bridge.events import BenchEvent, BenchEventSink, BenchNote, BenchPhase, CaseStarted, PhaseStarted
from bench_bridge.npu import CannEnv, NpuUnavailable
from bench_bridge.npu.cann import find_env as find_cann_env
from bench_bridge.npu.cann import op_json as cann_op_json
from bench_bridge.npu import detect as npu_detect
from bench_bridge.npu import plan as npu_plan
from bench_bridge.perf import (CostTable, EagerBaseline, PerfReport, eager_baseline, load_costs, profile,
                               write_chrome_trace, write_png)
from bench_bridge.project import (AttrInfo, DType, OpProject, ParamInfo, ProjectBuild, ProjectRun, build_project,
                                  describe_project, dtype_of, from_any, run_project, snake_case)
from bench_bridge.report import (Artifacts, Backend, BenchReport, CaseReport, CaseStatus, OutputCheck, ReportFormat, Verdict,
                                 render_text)
from bench_bridge.sandbox import SandboxUnavailable
from bench_bridge.sandbox import require as require_sandbox
from bench_bridge.sim import INCLUDE_DIR, BuildResult, Diagnostic, RunResult, build, run
from bench_bridge.sim.compiler import cache_root
from bench_bridge.sim.debugger import DEBUG_FLAGS, DebuggerUnavailable, debug
from bench_bridge.sim.headers import function_macros, header_files, preprocessed_source
from bench_bridge.soc import DEFAULT_SOC, SocFacts, soc_facts, soc_names
from bench_bridge.tasks import LAUNCH_SUFFIXES, TASK_FILE, CaseSpec, Task, TaskError, TaskFormat, load_task
from bench_bridge.tasks.csvcases import Row as CaseRow
from bench_bridge.tasks.groups import group_inputs
from bench_bridge.tasks.pymodule import load_module
from bench_bridge.tasks.stubs import install as install_stubs, npu_only_message, npu_only_ops
from bench_bridge.tasks.weights import drawn_at_random, module_tensor_items, module_tensors
from bench_bridge.tasks.worker import binding_call, spec_inputs

__all__ = [
    "binding_call", "spec_inputs",
    "Artifacts", "AttrInfo", "Backend", "BenchError", "BenchEvent", "BenchEventSink", "BenchNote", "BenchOptions",
    "BenchPhase", "BenchReport", "BuildResult", "CannEnv", "CaseReport", "CaseRow", "CaseSpec", "CaseStarted",
    "CaseStatus", "CostTable", "DEBUG_FLAGS", "DEFAULT_SOC", "DType", "DebuggerUnavailable", "Diagnostic", "EagerBaseline", "INCLUDE_DIR", "LAUNCH_SUFFIXES",
    "NpuUnavailable", "OpProject", "OutputCheck", "ParamInfo", "PerfReport", "PhaseStarted", "ProjectBuild",
    "ProjectRun", "ReportFormat", "RunResult", "SandboxUnavailable", "SocFacts", "TASK_FILE", "Task", "TaskError",
    "TaskFormat", "Verdict", "bench", "build", "build_project", "cache_root", "cann_op_json", "describe_project",
    "debug", "dtype_of", "eager_baseline", "find_cann_env", "from_any", "function_macros", "group_inputs", "header_files", "install_stubs", "npu_only_message", "npu_only_ops",
    "drawn_at_random", "load_costs", "load_module", "load_task", "module_tensor_items", "module_tensors", "npu_detect", "npu_plan", "preprocessed_source", "profile",
    "render_text",
    "require_sandbox", "run", "run_project", "snake_case", "soc_facts", "soc_names", "write_chrome_trace", "write_png",
]
