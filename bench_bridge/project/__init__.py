"""CANN custom-operator projects on the emulator: describe, build (one binary per dtype combination),
run one case with the host TilingFunc and the kernel.

Public API:
    describe_project(path) -> OpProject
    build_project(project, combo) -> ProjectBuild
    run_project(build, inputs, outputs, attrs, timeout) -> ProjectRun
"""
from bench_bridge.project.build import ProjectBuild, build_project
from bench_bridge.project.describe import describe_project, snake_case
from bench_bridge.project.dtypes import DType, dtype_of, from_any
from bench_bridge.project.model import AttrInfo, OpProject, ParamInfo
from bench_bridge.project.run import ProjectRun, run_project

__all__ = ["AttrInfo", "DType", "OpProject", "ParamInfo", "ProjectBuild", "ProjectRun", "build_project", "describe_project",
           "dtype_of", "from_any", "run_project", "snake_case"]
