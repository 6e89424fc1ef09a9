"""``build_project``: one emulator executable per dtype combination, as CANN builds one kernel binary
per combination the OpDef declares. The host code (op_host/*.cpp + the kgen harness main) and the
kernel (a generated wrapper that defines DTYPE_<ARG> etc. and includes op_kernel/<op>.cpp) are
separate translation units, as in the CANN flow. Builds are cached by content (bench_bridge.sim.build)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge.project.gen import generated_dir, harness_main, kernel_wrapper
from bench_bridge.project.linking import build_host_program
from bench_bridge.project.model import OpProject
from bench_bridge.sim import BuildResult, Diagnostic


@dataclass
class ProjectBuild:
    project: OpProject
    combo: int
    binary: Path | None = None
    result: BuildResult | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.binary is not None and not any(d.severity == "error" for d in self.diagnostics)

    @property
    def dtypes(self) -> dict[str, str]:
        return self.project.combo(self.combo)


def _write_if_changed(path: Path, text: str) -> Path:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def build_project(project: OpProject, combo: int = 0, timeout: float = 300.0) -> ProjectBuild:
    """Build the executable of dtype combination ``combo``; failures are diagnostics on the result."""
    pb = ProjectBuild(project, combo)
    if not project.ok:
        pb.diagnostics = list(project.diagnostics) or [Diagnostic("error", "the project could not be described", str(project.path), 0, 0, "project")]
        return pb
    if not 0 <= combo < project.num_combos:
        pb.diagnostics.append(Diagnostic("error", f"{project.op_type} declares {project.num_combos} dtype combinations; "
                                                  f"there is no combination {combo}", str(project.path), 0, 0, "project"))
        return pb
    gen = generated_dir(project.path, f"combo{combo}")
    main = harness_main()
    kern = _write_if_changed(gen / f"kgen_kernel_{project.kernel_name}.cpp", kernel_wrapper(project, combo))
    res = build_host_program([*project.host_sources, main, kern], [project.path / "op_host", project.path / "op_kernel"], timeout)
    pb.result = res
    pb.diagnostics = list(res.diagnostics)
    if res.ok:
        pb.binary = res.binary
    elif not res.errors:
        pb.diagnostics.append(Diagnostic("error", "the project build failed", str(project.path), 0, 0, "compile"))
    return pb
