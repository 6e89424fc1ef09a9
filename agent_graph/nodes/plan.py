"""plan: the op's category and tiling strategy, and which AscendC APIs a kernel for it needs.

The offline drafter's planner traces the PyTorch reference; when it covers the op, its category and
template are the plan (and in offline mode its drafted files are kept for the draft node). When it does
not, a model run plans free-form; an offline run ends here as "unsupported" with the drafter's reason."""
from __future__ import annotations

from agent_graph.drafter import Unsupported, draft
from agent_graph.events import Note
from agent_graph.nodes.context import Ctx
from agent_graph.state import GraphState, PlanInfo

# the APIs a kernel of each category usually needs (queries for retrieval)
_APIS = {
    "elementwise": ["TPipe InitBuffer", "TQue AllocTensor EnQue DeQue", "DataCopy", "DataCopyPad"],
    "broadcast": ["DataCopyPad", "Duplicate", "TPipe InitBuffer"],
    "reduction": ["ReduceSum", "WholeReduceSum", "ReduceMax", "DataCopyPad"],
    "normalization": ["ReduceSum", "Muls", "Rsqrt", "DataCopyPad"],
    "softmax": ["ReduceMax", "Exp", "ReduceSum", "Div"],
}
_STRATEGY = {
    "flat": "flatten the tensors; split the elements evenly over the AI cores; loop over UB-sized tiles, tail padded",
    "row": "one row per step; rows split over the AI cores; each row fits UB (or is processed in chunks)",
    "col": "reduce over the leading axis: columns split over the AI cores, rows accumulated in UB",
}


def plan(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    spec = state["spec"]
    task = ctx.task(spec["path"])
    if state.get("mode") == "fix":
        return {"plan": PlanInfo(category="existing project", strategy="repair the given project", template="",
                                 apis=[])}, "repair an existing project"
    if ctx.offline:
        ctx.emit(Note("no model configured: using the offline drafter"))
    d = draft(task)
    if isinstance(d, Unsupported) and d.user_error:   # the task's own code fails: no draft or model can help
        return {"status": "invalid", "message": str(d)}, f"invalid task: {d.reason}"
    if isinstance(d, Unsupported):
        if ctx.offline:
            return {"status": "unsupported", "message": str(d)}, f"unsupported: {d}"
        info = PlanInfo(category="free-form", strategy="the offline templates do not cover it: the model plans the tiling",
                        template="", apis=["DataCopyPad", "TPipe InitBuffer", "TQue AllocTensor EnQue DeQue"])
        return {"plan": info}, "free-form, model-written (no template covers it)"
    ctx.cache["draft"] = d
    info = PlanInfo(category=d.plan.category, template=d.plan.template,
                    strategy=_STRATEGY.get(d.plan.template, "split the work over the AI cores, tile through UB"),
                    apis=_APIS.get(d.plan.category, _APIS["elementwise"]))
    # with a model the kernel is the model's: the drafter's template only informs the plan
    how = f"template {d.plan.template}" if ctx.offline else "model-written"
    return {"plan": info}, f"{d.plan.category}, {how}"
