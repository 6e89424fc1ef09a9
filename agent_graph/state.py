"""The graph's typed state. Everything in it is plain data (str, int, float, bool, list, dict), so the
LangGraph SQLite checkpointer can store it and a resumed run reads it back unchanged: paths are str,
bench reports live in the run folder (``report_path``), never live objects.

A run holds one or more candidates (``AgentSettings.samples``). Each candidate moves through phases:

    build   -> its files are written; guards + compile next
    verify  -> compiled; run every shape case against the reference next
    repair  -> the model is asked to fix it (``repair_kind``: build | guard | correctness | parse)
    done    -> finished (``verdict`` verified | failed)

The graph's nodes each act on every candidate in the phase they handle; the routers pick the next
node from the phases present (graph.py).
"""
from __future__ import annotations

from typing import Any, Literal, TypedDict

from agent_graph.evaluate.scoring import rank_key
from agent_graph.types import RunStatus

Phase = Literal["build", "verify", "repair", "done"]
Verdict = Literal["", "verified", "failed"]
RepairKind = Literal["", "build", "guard", "correctness", "parse"]
Mode = Literal["offline", "model", "fix"]


class TaskSpecRef(TypedDict, total=False):
    """What ``understand`` learnt about the task (the Task itself is re-read from ``path`` when needed)."""

    path: str                # the task path bench_bridge loads (task dir, KernelBench .py, kgen spec)
    name: str
    format: str              # npukernelbench | kernelbench | kgen-spec
    op_type: str             # CamelCase op type the project must register (AddCustom)
    op_name: str             # its snake_case file stem (add_custom)
    cases: int
    case_ids: list[str]
    description: str


class PlanInfo(TypedDict, total=False):
    category: str            # elementwise | broadcast | reduction | ... ("unknown" when the drafter cannot tell)
    strategy: str            # one line: how to tile
    template: str            # the offline drafter's template, when it covers the op
    apis: list[str]          # AscendC APIs the plan names (retrieval queries)


class Candidate(TypedDict, total=False):
    id: int                  # sample index, 0-based
    round: int               # 0 = first draft, +1 per repair
    phase: Phase
    verdict: Verdict
    files: dict[str, str]    # project-relative op sources (op_host/..., op_kernel/...)
    project: str             # the candidate's current project folder (run_dir/rounds/<n>/files)
    history: list[dict]      # chat messages so far ({"role", "content"})
    compiled: bool
    diagnostics: list[dict]  # build diagnostics of the current round (Diagnostic.to_dict())
    cases: list[dict]        # {"case_id", "status", "message"} of the current round
    failures: list[dict]     # failed cases with where they differ (correctness repair input)
    passed: int
    total: int
    modelled_us: float | None
    report_path: str         # bench report JSON of the current round
    repair_kind: RepairKind
    complaint: str           # parse / guard complaint for the next repair
    build_repairs: int
    correctness_repairs: int
    parse_repairs: int
    note: str                # why it ended, one line


class GraphState(TypedDict, total=False):
    run_id: str
    run_dir: str
    mode: Mode               # "offline" (the drafter) | "model" | "fix" (an existing project)
    task: str                # task path as given (for words: the spec the model wrote)
    words: str               # the request in words, when no task path was given
    fix_project: str         # mode "fix": the project being repaired
    output: str              # where the final project goes
    replace_output: bool     # the user allowed replacing op sources in output that kgen did not write
    spec: TaskSpecRef
    plan: PlanInfo
    docs: list[str]          # retrieved passages (markdown) for the prompts
    candidates: list[Candidate]
    best: dict[str, Any]     # snapshot of the best candidate so far (see best_key)
    status: RunStatus        # running | verified | failed | unsupported | error | cancelled (spec declined)
    message: str
    report: dict | None      # the final bench report
    project: str             # the final project folder


def best_key(c: dict) -> tuple:
    """Ranking of candidates: compiled beats not compiled, more cases passed beats fewer, a shorter
    modelled time breaks ties (unknown time ranks after any known one)."""
    return rank_key(c.get("compiled"), c.get("passed"), c.get("modelled_us"))


def snapshot(c: Candidate) -> dict:
    """The fields of a candidate the run keeps as its best so far."""
    keys = ("id", "round", "files", "project", "compiled", "passed", "total", "modelled_us", "report_path", "verdict",
            "diagnostics")
    return {k: c.get(k) for k in keys}


def update_best(best: dict | None, c: Candidate) -> dict | None:
    """``best`` replaced by ``c`` when ``c`` ranks strictly higher (the earlier candidate wins ties), or when
    ``best`` is ``c``'s own earlier snapshot (the same candidate and round, taken when it was built): its
    verification's report, case counts and verdict must reach the final report even when no case passed."""
    if not c.get("files"):
        return best
    same = best is not None and (best.get("id"), best.get("round")) == (c.get("id"), c.get("round"))
    if best is None or same or best_key(c) > best_key(best):
        return snapshot(c)
    return best


def in_phase(state: GraphState, phase: Phase) -> list[Candidate]:
    return [c for c in state.get("candidates", []) if c.get("phase") == phase]


def new_candidate(cid: int) -> Candidate:
    return Candidate(id=cid, round=0, phase="build", verdict="", files={}, project="", history=[], compiled=False,
                     diagnostics=[], cases=[], failures=[], passed=0, total=0, modelled_us=None, report_path="",
                     repair_kind="", complaint="", build_repairs=0, correctness_repairs=0, parse_repairs=0, note="")
