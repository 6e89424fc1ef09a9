"""The agent's LangGraph StateGraph.

    understand -> plan -> retrieve -> draft -> build <-> repair (bounded: build repairs)
                                                 |
                                                 v
                                              verify <-> repair -> build (bounded: correctness repairs)
                                                 |
                                                 v
                                             benchmark -> report -> END

Every node acts on all candidates in the phase it handles (state.py); the routers below choose the
next node from the phases present, so K samples move through the same graph. An "unsupported",
"error" or "cancelled" (the user declined the spec written from words) status jumps straight to report.
Each node is wrapped to emit NodeStarted/NodeFinished and to honour the cancel flag before it starts;
the checkpointer saves the state after every node.
"""
from __future__ import annotations

import time
from typing import Callable, Literal, get_args

from langgraph.graph import END, START, StateGraph

from agent_graph.events import NodeFinished, NodeStarted
from agent_graph.nodes.benchmark import benchmark_node
from agent_graph.nodes.build import build_node
from agent_graph.nodes.context import Ctx
from agent_graph.nodes.draft import draft_node
from agent_graph.nodes.plan import plan
from agent_graph.nodes.repair import repair_node
from agent_graph.nodes.report import report_node
from agent_graph.nodes.retrieve import retrieve
from agent_graph.nodes.understand import understand
from agent_graph.nodes.verify import verify_node
from agent_graph.state import GraphState
from agent_graph.types import STOP_STATUSES, NodeName

# what each router may answer: the node to run next ("next": the following setup node)
SetupRoute = Literal["report", "next"]
DraftRoute = Literal["build", "repair", "verify", "benchmark", "report"]
BuildRoute = Literal["verify", "repair", "build", "benchmark"]
VerifyRoute = DraftRoute

NODES: dict[NodeName, Callable] = {"understand": understand, "plan": plan, "retrieve": retrieve, "draft": draft_node,
                              "build": build_node, "repair": repair_node, "verify": verify_node,
                              "benchmark": benchmark_node, "report": report_node}


def _stopped(state: GraphState) -> bool:
    return state.get("status") in STOP_STATUSES


def _phases(state: GraphState) -> set[str]:
    return {c.get("phase", "") for c in state.get("candidates", [])}


def after_setup(state: GraphState) -> SetupRoute:
    return "report" if _stopped(state) else "next"


def after_draft_or_repair(state: GraphState) -> DraftRoute:
    if _stopped(state):
        return "report"
    ph = _phases(state)
    return "build" if "build" in ph else "repair" if "repair" in ph else "verify" if "verify" in ph else "benchmark"


def after_build(state: GraphState) -> BuildRoute:
    ph = _phases(state)
    return "verify" if "verify" in ph else "repair" if "repair" in ph else "build" if "build" in ph else "benchmark"


def after_verify(state: GraphState) -> VerifyRoute:
    if _stopped(state):
        return "report"
    ph = _phases(state)
    return "repair" if "repair" in ph else "build" if "build" in ph else "verify" if "verify" in ph else "benchmark"


def _detail(name: NodeName, state: GraphState, ctx: Ctx) -> str:
    if name == "build":
        rounds = [c.get("round", 0) for c in state.get("candidates", []) if c.get("phase") == "build"]
        if rounds and max(rounds) > 0 and not ctx.offline:
            return f"build {max(rounds) + 1}/{ctx.agent.build_repairs + 1}"
    if name == "draft" and not ctx.offline and ctx.agent.samples > 1:
        return f"{ctx.agent.samples} samples"
    return ""


def wrap(name: NodeName, fn: Callable, ctx: Ctx) -> Callable[[GraphState], dict]:
    def node(state: GraphState) -> dict:
        ctx.check_cancel()
        ctx.emit(NodeStarted(name, _detail(name, state, ctx)))
        t0 = time.monotonic()
        update, detail = fn(state, ctx)
        ok = update.get("status") not in ("error", "unsupported", "invalid", "failed", "cancelled")   # running or verified
        if name in ("build", "verify"):
            ok = any(c.get("phase") in ("verify", "done") and c.get("verdict") != "failed"
                     for c in update.get("candidates", []))
        ctx.emit(NodeFinished(name, ok, detail, time.monotonic() - t0))
        return update
    return node


def build_graph(ctx: Ctx, checkpointer=None):
    g = StateGraph(GraphState)
    for name, fn in NODES.items():
        g.add_node(name, wrap(name, fn, ctx))
    g.add_edge(START, "understand")
    g.add_conditional_edges("understand", after_setup, {"report": "report", "next": "plan"})
    g.add_conditional_edges("plan", after_setup, {"report": "report", "next": "retrieve"})
    g.add_edge("retrieve", "draft")
    routes = {k: k for k in get_args(DraftRoute)}
    g.add_conditional_edges("draft", after_draft_or_repair, routes)
    g.add_conditional_edges("repair", after_draft_or_repair, routes)
    g.add_conditional_edges("build", after_build, {k: k for k in get_args(BuildRoute)})
    g.add_conditional_edges("verify", after_verify, routes)
    g.add_edge("benchmark", "report")
    g.add_edge("report", END)
    return g.compile(checkpointer=checkpointer)
