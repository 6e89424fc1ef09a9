"""Latency of kgen's doc search: full index build of the shipped knowledge base, and warm query
latency (p50/p95) with the hash and MiniLM embedders.

    python benchmarks/retrieval_latency.py [--embedder hash|minilm|both] [--rounds N]

Goals (issue 4): query p95 < 50 ms warm with the hash embedder, < 100 ms with MiniLM; full build < 60 s."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
QUERIES = ROOT / "benchmarks" / "data" / "retrieval_queries.json"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", choices=("hash", "minilm", "both"), default="both")
    ap.add_argument("--rounds", type=int, default=3, help="passes over the query set (default 3)")
    ap.add_argument("--cold", action="store_true",
                    help="ignore the shipped embedding seed (KGEN_EMBED_SEED=0): every vector is computed")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    os.environ["KGEN_DATA_DIR"] = tempfile.mkdtemp(prefix="kgen-lat-")
    if args.cold:
        os.environ["KGEN_EMBED_SEED"] = "0"
    t0 = time.perf_counter()
    from retrieval.index import Index  # noqa: E402  (chromadb import timed separately)
    import chromadb  # noqa: F401

    import_s = time.perf_counter() - t0
    queries = [q["q"] for q in json.loads(QUERIES.read_text())["queries"]]
    names = ["hash", "minilm"] if args.embedder == "both" else [args.embedder]
    out = {"import_s": import_s, "queries": len(queries), "rounds": args.rounds, "embedders": {}}
    for name in names:
        from retrieval.embedders import get_embedder

        t = time.perf_counter()
        get_embedder(name)
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        idx = Index.open(name, log=lambda m: None)
        build_s = time.perf_counter() - t
        t = time.perf_counter()
        idx2 = Index.open(name, log=lambda m: None)   # reopen: hash check of the KB, nothing to embed
        reopen_s = time.perf_counter() - t
        for q in queries[:5]:
            idx2.search(q)   # warm-up
        res = {}
        for mode in ("lexical", "vector", "hybrid"):
            lat = []
            for _ in range(args.rounds):
                for q in queries:
                    t = time.perf_counter()
                    idx2.search(q, k=5, mode=mode)
                    lat.append((time.perf_counter() - t) * 1000)
            res[mode] = {"p50_ms": statistics.median(lat), "p95_ms": pct(lat, 95), "max_ms": max(lat)}
        out["embedders"][name] = {"model_load_s": load_s, "build_s": build_s, "reopen_s": reopen_s,
                                  "passages": len(idx2), "query": res}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"retrieval latency: {out['queries']} queries x {args.rounds} rounds, warm; chromadb import {import_s:.2f} s"
          f"{'; cold build (no embedding seed)' if args.cold else ''}")
    for name, r in out["embedders"].items():
        print(f"[{name}] model load {r['model_load_s']:.2f} s, full index build {r['build_s']:.1f} s "
              f"({r['passages']} passages), reopen {r['reopen_s']:.2f} s")
        for mode, q in r["query"].items():
            print(f"  {mode:8} p50 {q['p50_ms']:6.1f} ms   p95 {q['p95_ms']:6.1f} ms   max {q['max_ms']:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
