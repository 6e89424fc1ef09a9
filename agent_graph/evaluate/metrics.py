"""The numbers of an evaluation, as NPUKernelBench / KernelBench define them.

- pass@k (the unbiased estimator of Chen et al. 2021): with n candidates of which c pass,
  ``1 - C(n-c, k) / C(n, k)``; compile@k and correct@k are its mean over the tasks.
- fast_p: the fraction of tasks whose best correct candidate is more than p times faster than the
  baseline (modelled PyTorch eager; the golden answer's modelled time, T_ref, where the task has one).
- task score: cases passed / cases x 100 of the task's best candidate; a level's score is the mean over
  its tasks; the weighted total uses the level weights 0.2 / 0.3 / 0.5 over the levels present.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from math import comb

from agent_graph.evaluate.scoring import rank_key
from agent_graph.evaluate.types import FAST_P, LEVEL_WEIGHTS, CandidateResult, SuiteTask

REF_SAMPLE = -1          # the golden answer timed as T_ref (not a candidate)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for n samples with c correct (k is clipped to n)."""
    if n <= 0:
        return 0.0
    k = min(k, n)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def best(cands: list[CandidateResult]) -> CandidateResult | None:
    if not cands:
        return None
    return max(cands, key=lambda r: (rank_key(r.compiled, r.cases_passed, r.modelled_us), -r.sample))


def _score(r: CandidateResult | None, cases: int) -> float:
    if r is None:
        return 0.0
    total = max(r.cases_total, cases, 1)
    return 100.0 * r.cases_passed / total if r.compiled else 0.0


def _fast(values: list[float | None], ps=FAST_P) -> dict[str, float]:
    n = len(values)
    return {f"fast_{p:g}": round(sum(1 for v in values if v is not None and v > p) / n, 4) if n else 0.0 for p in ps}


def _group(rows: list[dict]) -> dict:
    n = len(rows)
    if not n:
        return {"tasks": 0}
    return {"tasks": n,
            "score": round(sum(r["score"] for r in rows) / n, 2),
            "compiled": sum(r["compiled"] for r in rows),
            "correct": sum(r["correct"] for r in rows),
            "compile@k": round(sum(r["compile@k"] for r in rows) / n, 4),
            "correct@k": round(sum(r["correct@k"] for r in rows) / n, 4)}


def summarize(tasks: list[SuiteTask], results: dict[str, CandidateResult], k: int) -> dict:
    """Per-task rows, suite metrics, per-level and per-category tables, error classes."""
    by_task: dict[str, list[CandidateResult]] = defaultdict(list)
    refs: dict[str, CandidateResult] = {}
    for r in results.values():
        (refs.__setitem__(r.task, r) if r.sample == REF_SAMPLE else by_task[r.task].append(r))
    rows, errors = [], Counter()
    for t in tasks:
        cands = sorted(by_task.get(t.name, []), key=lambda r: r.sample)
        if not cands or all(c.outcome == "skipped" for c in cands):
            rows.append({"task": t.name, "level": t.level, "category": t.category, "skipped": True,
                         "message": cands[0].message if cands else "not run"})
            continue
        for c in cands:
            if c.error_class and not c.correct:
                errors[c.error_class] += 1
        n = len(cands)
        nc, nk = sum(c.compiled for c in cands), sum(c.correct for c in cands)
        b = best(cands)
        ref = refs.get(t.name)
        t_ref = ref.modelled_us if ref is not None and ref.correct else (
            b.modelled_us if b.generator == "golden" and b.correct else None)
        vs_golden = round(t_ref / b.modelled_us, 4) if b.correct and t_ref and b.modelled_us else None
        rows.append({"task": t.name, "level": t.level, "category": t.category, "skipped": False, "n": n,
                     "compiled": nc > 0, "correct": nk > 0, "compile@k": pass_at_k(n, nc, k),
                     "correct@k": pass_at_k(n, nk, k), "compile@1": pass_at_k(n, nc, 1), "correct@1": pass_at_k(n, nk, 1),
                     "cases_passed": b.cases_passed, "cases": max(b.cases_total, t.cases), "score": round(_score(b, t.cases), 2),
                     "best_sample": b.sample, "stage": b.stage, "error_class": None if b.correct else b.error_class,
                     "modelled_us": b.modelled_us if b.correct else None,
                     "speedup_vs_eager": b.speedup_vs_eager if b.correct else None,
                     "golden_us": t_ref, "speedup_vs_golden": vs_golden, "message": "" if b.correct else b.message})
    scored = [r for r in rows if not r["skipped"]]
    metrics = _group(scored)
    if scored:
        metrics["compile@1"] = round(sum(r["compile@1"] for r in scored) / len(scored), 4)
        metrics["correct@1"] = round(sum(r["correct@1"] for r in scored) / len(scored), 4)
    metrics["skipped"] = len(rows) - len(scored)
    metrics["fast_p_vs_eager"] = _fast([r["speedup_vs_eager"] for r in scored])
    with_ref = [r for r in scored if r["golden_us"]]
    metrics["fast_p_vs_golden"] = _fast([r["speedup_vs_golden"] for r in with_ref])
    metrics["tasks_with_golden_time"] = len(with_ref)
    levels = {lv: _group([r for r in scored if r["level"] == lv]) for lv in sorted({r["level"] for r in scored if r["level"]})}
    cats = {f"{lv}/{c}" if lv else c: _group([r for r in scored if r["category"] == c and r["level"] == lv])
            for lv, c in sorted({(r["level"], r["category"]) for r in scored if r["category"]})}
    present = [lv for lv in levels if lv in LEVEL_WEIGHTS]
    weighted = None
    if present:
        wsum = sum(LEVEL_WEIGHTS[lv] for lv in present)
        weighted = round(sum(LEVEL_WEIGHTS[lv] * levels[lv]["score"] for lv in present) / wsum, 2)
    for r in rows:
        for key in ("compile@k", "correct@k", "compile@1", "correct@1"):
            if key in r:
                r[key] = round(r[key], 4)
    return {"metrics": metrics, "levels": levels, "categories": cats, "per_task": rows,
            "error_classes": dict(sorted(errors.items())), "weighted_score": weighted}
