"""Okapi BM25 over passages, in memory (built at load time in milliseconds)."""
from __future__ import annotations

import math
from collections import Counter, defaultdict

from retrieval.tokenize import tokens


class BM25:
    def __init__(self, docs: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.n = len(docs)
        self.lengths: list[int] = []
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i, d in enumerate(docs):
            tf = Counter(tokens(d))
            self.lengths.append(sum(tf.values()))
            for t, c in tf.items():
                self.postings[t].append((i, c))
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0
        self.idf = {t: math.log(1 + (self.n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}

    def scores(self, query: str | dict[str, float]) -> dict[int, float]:
        """BM25 scores of the passages matching ``query``: a string, or tokens with weights
        (``retrieval.tokenize.expand``: synonyms count less than the query's own words)."""
        acc: dict[int, float] = defaultdict(float)
        weighted = query if isinstance(query, dict) else dict.fromkeys(tokens(query), 1.0)
        for t, qw in weighted.items():
            plist = self.postings.get(t)
            if not plist:
                continue
            idf = self.idf[t] * qw
            for i, c in plist:
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / (self.avgdl or 1))
                acc[i] += idf * c * (self.k1 + 1) / (c + norm)
        return acc

    def top(self, query: str | dict[str, float], k: int) -> list[tuple[int, float]]:
        s = self.scores(query)
        return sorted(s.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
