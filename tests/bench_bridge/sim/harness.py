"""Build an emulator test program once, then run its named cases with numpy inputs.

Usage in a test module::

    prog = SimProgram.fixture("vec_binary.cpp")      # module-scoped pytest fixture

    def test_add(prog):
        res = prog.run("add_half", x=np.ones(256, np.float16), y=...)
        np.testing.assert_array_equal(res.out("z", np.float16), expected)
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from bench_bridge.sim import BuildResult, RunResult, build, run

CPP_DIR = Path(__file__).parent / "cpp"


@dataclass
class CaseResult:
    run: RunResult
    workdir: Path

    def out(self, name: str, dtype) -> np.ndarray:
        path = self.workdir / f"{name}.bin"
        assert path.exists(), f"case wrote no output {name}.bin; stderr:\n{self.run.stderr}"
        return np.fromfile(path, dtype=dtype)

    @property
    def errors(self):
        return [d for d in self.run.diagnostics if d.severity == "error"]

    @property
    def warnings(self):
        return [d for d in self.run.diagnostics if d.severity == "warning"]


class SimProgram:
    """A compiled test program; ``run(case, **inputs)`` executes one case in a fresh directory."""

    def __init__(self, source: Path, result: BuildResult):
        self.source = source
        self.build = result

    @classmethod
    def compile(cls, name: str) -> "SimProgram":
        src = CPP_DIR / name
        res = build([src], include_dirs=[CPP_DIR])
        assert res.ok, "test program failed to build:\n" + "\n".join(d.format() for d in res.diagnostics) + res.log[-4000:]
        return cls(src, res)

    @staticmethod
    def fixture(name: str):
        @pytest.fixture(scope="module")
        def _prog():
            return SimProgram.compile(name)

        return _prog

    def run(self, case: str, timeout: float = 60.0, expect_ok: bool = True, **inputs) -> CaseResult:
        work = Path(tempfile.mkdtemp(prefix=f"kt-{case}-"))
        for k, v in inputs.items():
            arr = np.asarray(v)
            if arr.ndim == 0 and arr.dtype.kind in "iu":
                arr = arr.astype(np.int64)
            arr.tofile(work / f"{k}.bin")
        r = run(self.build.binary, [case], cwd=work, timeout=timeout)
        if expect_ok:
            assert r.ok, f"case {case} failed (exit {r.returncode}):\n{r.stderr}\n{r.stdout}"
        return CaseResult(r, work)


def build_inline(tmp_path: Path, name: str, source: str) -> Path:
    """Write a test's own program text to ``tmp_path/name``, build it (asserting the build worked, with the
    diagnostics in the message) and return the binary."""
    src = tmp_path / name
    src.write_text(source)
    res = build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    return res.binary


def marker_line(source: str, marker: str) -> int:
    """The 1-based line of ``source`` holding ``marker`` (a ``// @name`` comment the test looks for)."""
    return next(i for i, text in enumerate(source.splitlines(), 1) if marker in text)
