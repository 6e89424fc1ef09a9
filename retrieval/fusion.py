"""Reciprocal rank fusion of ranked lists."""
from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Sequence

RRF_K = 60


def rrf(rankings: Sequence[Sequence[Hashable]], weights: Sequence[float] | None = None, k: int = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse ranked lists (best first): score(d) = sum_i w_i / (k + rank_i(d)), rank from 1."""
    weights = weights or [1.0] * len(rankings)
    acc: dict[Hashable, float] = defaultdict(float)
    first_seen: dict[Hashable, int] = {}
    n = 0
    for ranking, w in zip(rankings, weights):
        for r, item in enumerate(ranking, start=1):
            acc[item] += w / (k + r)
            if item not in first_seen:
                first_seen[item] = n
                n += 1
    return sorted(acc.items(), key=lambda kv: (-kv[1], first_seen[kv[0]]))
