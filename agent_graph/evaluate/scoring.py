"""Candidate ranking shared by ``kgen eval`` (the best of a task's k candidates) and the agent's
best-of-k (``kgen generate --samples K``, agent_graph.state.best_key), so the two never drift."""
from __future__ import annotations


def rank_key(compiled: bool, passed: int, modelled_us: float | None) -> tuple:
    """Compiled beats not compiled, more cases passed beats fewer, a shorter modelled time breaks ties
    (an unknown time ranks after any known one). Higher is better."""
    return (bool(compiled), int(passed or 0), -(modelled_us if modelled_us is not None else float("inf")))
