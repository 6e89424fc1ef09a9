"""Retrieval quality of kgen's doc search: MRR@5 and recall@5 for lexical (BM25), vector and hybrid
search over the shipped knowledge base, on the queries in benchmarks/data/retrieval_queries.json.

    python benchmarks/retrieval_quality.py [--embedder hash|minilm|both] [--misses] [--json]

The index is built in a temporary data dir (or $KGEN_DATA_DIR when set)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
QUERIES = ROOT / "benchmarks" / "data" / "retrieval_queries.json"
K = 5
MODES = ("lexical", "vector", "hybrid")


def evaluate(idx, queries: list[dict]) -> dict:
    out = {}
    for mode in MODES:
        rr, hit, by_kind, misses = [], [], defaultdict(list), []
        for q in queries:
            pages = [p.page for p in idx.search(q["q"], k=K, mode=mode)]
            rank = next((i + 1 for i, p in enumerate(pages) if p in q["expect"]), None)
            rr.append(1.0 / rank if rank else 0.0)
            hit.append(1.0 if rank else 0.0)
            by_kind[q.get("kind", "?")].append(1.0 if rank else 0.0)
            if not rank:
                misses.append({"q": q["q"], "expect": q["expect"], "got": pages})
        n = len(queries)
        out[mode] = {"mrr@5": sum(rr) / n, "recall@5": sum(hit) / n,
                     "recall@5_by_kind": {k: sum(v) / len(v) for k, v in sorted(by_kind.items())}, "misses": misses}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", choices=("hash", "minilm", "both"), default="both")
    ap.add_argument("--misses", action="store_true", help="list the queries each mode missed")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not os.environ.get("KGEN_DATA_DIR"):
        os.environ["KGEN_DATA_DIR"] = tempfile.mkdtemp(prefix="kgen-bench-")
    from retrieval.index import Index

    queries = json.loads(QUERIES.read_text())["queries"]
    kinds = defaultdict(int)
    for q in queries:
        kinds[q.get("kind", "?")] += 1
    names = ["hash", "minilm"] if args.embedder == "both" else [args.embedder]
    report = {"queries": len(queries), "by_kind": dict(kinds), "k": K, "results": {}}
    for name in names:
        idx = Index.open(name, log=lambda m: None)
        report["results"][name] = evaluate(idx, queries)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    print(f"retrieval quality: {len(queries)} queries ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}), k = {K}")
    print(f"{'embedder':8} {'mode':8} {'MRR@5':>7} {'recall@5':>9}   recall@5 by kind")
    for name, res in report["results"].items():
        for mode in MODES:
            r = res[mode]
            kinds_s = " ".join(f"{k}={v:.2f}" for k, v in r["recall@5_by_kind"].items())
            label = "bm25" if mode == "lexical" else mode
            print(f"{name:8} {label:8} {r['mrr@5']:7.3f} {r['recall@5']:9.3f}   {kinds_s}")
    if args.misses:
        for name, res in report["results"].items():
            for mode in MODES:
                for m in res[mode]["misses"]:
                    print(f"MISS [{name}/{mode}] {m['q']!r}: expected {m['expect']}, got {m['got']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
