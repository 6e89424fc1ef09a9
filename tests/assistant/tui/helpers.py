"""Shared by the kgen chat tests: an app on a private data dir, waiting on it, and a hand-made run."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

from agent_graph.events import (CaseResult, Diagnostics, FilesWritten, NodeFinished, NodeStarted, Note, Report,
                                RunFinished, RunStarted, Token)
from agent_graph.settings import AgentSettings, ModelSettings
from assistant.tui.app import ChatConfig, KgenChat

REPO = Path(__file__).resolve().parents[3]
SIZE = (120, 40)


def make_app(tmp_path: Path, url: str | None = None, resume: str | None = None, **agent_kw) -> KgenChat:
    kw = dict(retrieve=False, profile=True, data_dir=tmp_path / "data")
    kw.update(agent_kw)
    return KgenChat(ChatConfig(model=ModelSettings(url=url, timeout=60.0), agent=AgentSettings(**kw), cwd=REPO,
                               resume=resume, output_root=tmp_path / "out"))


async def wait_until(pilot, cond, timeout: float = 120.0, what: str = "condition") -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.05)
    await pilot.pause()


async def submit(pilot, line: str) -> None:
    prompt = pilot.app.query_one("#prompt")
    prompt.focus()
    prompt.value = line
    await pilot.press("enter")
    await pilot.pause()


def chat_text(app: KgenChat) -> str:
    return "\n".join(t for _, t in app.chat.texts)


# ---- a hand-made run: a draft with a wrong API, the compiler's complaint, one repair, two cases ----------

KERNEL_V0 = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    // ... queues and copies ...
    AscendC::ElementwiseAdd(zLocal, xLocal, yLocal, t.tile);
}
"""
KERNEL_V1 = KERNEL_V0.replace("AscendC::ElementwiseAdd", "AscendC::Add")
TILING = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, tile);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}
"""
HOST = """#include "add_custom_tiling.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) { return ge::GRAPH_SUCCESS; }
}
"""


def perf(us: float, busy: dict[str, float]) -> dict:
    return {"soc": "910B2", "modelled_us": us, "time_us": us, "launch_overhead_us": 5.0, "pipe_busy": busy,
            "bound": "MTE2 (GM->UB copies)", "execution_bound": "MTE2 (GM->UB copies)", "achieved_gbps": 640.5,
            "peak_gbps": 1600.0, "speedup_vs_eager": 1.25, "source": "modelled"}


def sample_report(project: str) -> dict:
    case = dict(params={}, dtypes=["float32", "float32"], checker="npukernelbench", diagnostics=[], message="")
    out = dict(name="z", dtype="float32", passed=True, max_abs_error=0.0, max_rel_error=0.0, mismatches=0,
               first_mismatch=None, expected=None, actual=None, threshold=1e-5, reason="")
    return {"task": "add", "task_format": "kgen-spec", "path": "add/kgen-task.toml", "backend": "sim",
            "project": project, "compiled": True, "correct": True, "message": "", "seconds": 3.0,
            "build_diagnostics": [],
            "performance": {"source": "modelled", "soc": "910B2", "cases": 2, "modelled_us": [12.5, 7.25],
                            "bound": ["MTE2 (GM->UB copies)", "MTE2 (GM->UB copies)"],
                            "geomean_speedup_vs_eager": 1.25},
            "cases": [dict(case, case_id="even", input_shapes=[[48, 64], [48, 64]], status="pass",
                           outputs=[dict(out, shape=[48, 64], total=3072)],
                           performance=perf(12.5, {"MTE2": 0.75, "V": 0.25, "MTE3": 0.5, "S": 0.125})),
                      dict(case, case_id="tail", input_shapes=[[5, 77], [5, 77]], status="pass",
                           outputs=[dict(out, shape=[5, 77], total=385)],
                           performance=perf(7.25, {"MTE2": 0.5, "V": 0.1, "MTE3": 0.3, "S": 0.05}))]}


def sample_events(project: str, run_id: str = "20261201-000000-add-demo") -> list:
    files0 = {"op_kernel/add_custom.cpp": KERNEL_V0, "op_host/add_custom_tiling.h": TILING,
              "op_host/add_custom.cpp": HOST}
    diag = {"severity": "error", "message": "no member named 'ElementwiseAdd' in namespace 'AscendC'",
            "file": "op_kernel/add_custom.cpp", "line": 8, "column": 5, "code": "compile", "source": "compiler"}
    return [
        RunStarted(run_id, "runs/demo", "demo @ http://127.0.0.1:8000/v1", "add/kgen-task.toml"),   # a model repairs
        NodeStarted("understand"), NodeFinished("understand", True, "add (kgen-spec, 2 case(s))", 0.5),
        NodeStarted("plan"), NodeFinished("plan", True, "elementwise, template flat", 0.1),
        NodeStarted("draft"), Token("Drafting the add kernel.", "draft"),
        FilesWritten(0, "draft", files0, project), NodeFinished("draft", True, "AddCustom", 0.2),
        NodeStarted("build"), Diagnostics(0, [diag]), NodeFinished("build", False, "1 error", 2.0),
        NodeStarted("repair"), FilesWritten(1, "build repair", {"op_kernel/add_custom.cpp": KERNEL_V1}, project),
        NodeFinished("repair", True, "op_kernel/add_custom.cpp", 0.3),
        NodeStarted("build"), NodeFinished("build", True, "compiled", 2.5),
        NodeStarted("verify"), Note("case even: running on the emulator"),
        CaseResult(1, 2, "even", "pass"), CaseResult(2, 2, "tail", "pass"),
        NodeFinished("verify", True, "2/2 cases correct", 1.5),
        NodeStarted("benchmark"), NodeFinished("benchmark", True, "modelled 19.8 us over 2 case(s)", 0.1),
        Report(sample_report(project), project),
        RunFinished(run_id, "verified", "AddCustom verified: 2/2 cases correct (round 1)", project),
    ]


def replay(app: KgenChat, events: list, label: str = "generate add") -> None:
    """Feed events through the app's real job plumbing (a thread posting them), as a run would."""
    app.start_job(label, "generate", "add/kgen-task.toml", lambda post, cancel: [post(e) for e in events])


def plain(static, width: int = 100) -> str:
    """The text a Static shows (its Rich renderable printed without styles)."""
    import io

    from rich.console import Console

    c = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    c.print(static.content)
    return c.file.getvalue()
