"""Plain-words doc questions (issue 22): recall@5 and MRR@5 of the default search settings on the
dev and test splits of benchmarks/data/retrieval_plain_queries.json, and on the older query set
(benchmarks/data/retrieval_queries.json) so that a gain on one is not a loss on the other.

    python benchmarks/retrieval_plain.py [--embedder hash|minilm] [--mode hybrid|lexical|vector] [--misses dev|test|old|all] [--json]

The index is built in a temporary data dir (or $KGEN_DATA_DIR when set). 'test' questions are
only scored, never looked at while tuning; list their misses only to report them."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PLAIN = ROOT / "benchmarks" / "data" / "retrieval_plain_queries.json"
OLD = ROOT / "benchmarks" / "data" / "retrieval_queries.json"
K = 5


def score(idx, queries: list[dict], mode: str) -> dict:
    rr, misses = [], []
    for q in queries:
        pages = [p.page for p in idx.search(q["q"], k=K, mode=mode)]
        rank = next((i + 1 for i, p in enumerate(pages) if p in q["expect"]), None)
        rr.append(1.0 / rank if rank else 0.0)
        if not rank:
            misses.append({"q": q["q"], "expect": q["expect"], "got": pages})
    n = len(queries) or 1
    return {"n": len(queries), "recall@5": sum(1 for r in rr if r) / n, "mrr@5": sum(rr) / n, "misses": misses}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", default=None, help="default: the product default ($KGEN_EMBEDDER or hash)")
    ap.add_argument("--mode", default="hybrid")
    ap.add_argument("--misses", choices=("dev", "test", "old", "all"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not os.environ.get("KGEN_DATA_DIR"):
        os.environ["KGEN_DATA_DIR"] = tempfile.mkdtemp(prefix="kgen-bench-")
    from retrieval.index import Index
    from retrieval.settings import embedder_name

    name = embedder_name(args.embedder)
    plain = json.loads(PLAIN.read_text())["queries"]
    sets = {"dev": [q for q in plain if q["split"] == "dev"], "test": [q for q in plain if q["split"] == "test"],
            "zh (dev+test)": [q for q in plain if q["kind"] == "zh"],
            "old": json.loads(OLD.read_text())["queries"]}
    idx = Index.open(name, log=lambda m: None)
    t0 = time.perf_counter()
    res = {k: score(idx, v, args.mode) for k, v in sets.items()}
    wall = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"embedder": name, "mode": args.mode, "k": K, "results": res}, ensure_ascii=False, indent=1))
        return 0
    print(f"plain-words doc questions, embedder {name}, mode {args.mode}, k = {K}  ({wall:.1f} s for all queries)")
    print(f"{'set':14} {'queries':>7} {'recall@5':>9} {'MRR@5':>7}")
    for k, r in res.items():
        print(f"{k:14} {r['n']:7d} {r['recall@5']:9.3f} {r['mrr@5']:7.3f}")
    if args.misses:
        for k, r in res.items():
            if args.misses in ("all", k) or (args.misses == "old" and k == "old"):
                for m in r["misses"]:
                    print(f"MISS [{k}] {m['q']!r}: expected {m['expect']}, got {m['got']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
