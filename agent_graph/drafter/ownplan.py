"""What a template with a planner of its own (pool, index, gather, resize) hands back to ``planner.plan``: the
filled parameters and rendered files, or a refusal (``reason``). The planner turns it into its ``Plan`` or
``Unsupported`` (this module imports nothing of the planner, so the planner can import these modules)."""
from __future__ import annotations

from dataclasses import dataclass, field

from agent_graph.drafter.analysis import OpGraph
from agent_graph.drafter.templates import KernelParams


@dataclass
class OwnPlan:
    category: str                        # pooling | indexing | resize
    reason: str = ""                     # one sentence naming the op or form when refused
    template: str = ""
    params: KernelParams | None = None
    graphs: list[OpGraph] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    case_meta: list[dict] = field(default_factory=list)


def case_meta(graphs: list[OpGraph]) -> list[dict]:
    """Per case: the input shapes/dtypes and init arguments (the writer's kgen-task.toml)."""
    return [{"inputs": [{"shape": list(n.shape), "dtype": n.dtype} for n in g.inputs], "args": [], "init": g.init}
            for g in graphs]
