"""retrieve: AscendC documentation for the APIs the plan (and later, a repair's diagnostics) names.

Uses the retrieval package (the shipped knowledge base + anything the user indexed). The offline
drafter needs no docs; when the index cannot be opened the node is skipped without failing the run."""
from __future__ import annotations

import re

import retrieval

from agent_graph.nodes.context import Ctx
from agent_graph.state import GraphState

MAX_PASSAGES = 6
MAX_CHARS = 1500


def search_docs(queries: list[str], k: int = 2) -> list[str]:
    """Passages (markdown, one per page, at most MAX_PASSAGES) for ``queries``; [] when retrieval fails."""
    try:
        seen, out = set(), []
        for q in queries:
            for p in retrieval.search(q, k=k):
                key = (p.page, p.section)
                if key in seen:
                    continue
                seen.add(key)
                out.append(f"### {p.page} — {p.section}\n{p.text[:MAX_CHARS]}")
                if len(out) >= MAX_PASSAGES:
                    return out
        return out
    except Exception:   # noqa: BLE001 — retrieval is best effort: a missing/broken index must not stop a run
        return []


def names_in_diagnostics(diags: list[dict]) -> list[str]:
    """API names a compiler message points at ("no member named 'Softmax'" -> Softmax and its neighbours)."""
    names: list[str] = []
    for d in diags:
        for m in re.finditer(r"['‘`](?:AscendC::)?([A-Z]\w+)['’`]", d.get("message", "")):
            if m.group(1) not in names and m.group(1) != "AscendC":
                names.append(m.group(1))
    return names[:4]


def retrieve(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    if ctx.offline:
        return {"docs": []}, "skipped (the offline drafter needs no docs)"
    if not ctx.agent.retrieve:
        return {"docs": []}, "skipped (retrieval off)"
    docs = search_docs(list(state.get("plan", {}).get("apis", [])))
    return {"docs": docs}, f"{len(docs)} passage(s)" if docs else "no index: skipped"
