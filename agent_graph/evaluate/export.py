"""Training data out of an evaluation (``--export-training DIR``), from the agent's run folders
(agent_graph/runs.py: rounds/<n>/prompt.json, reply.md, files/, diagnostics.json, report.json).

- ``sft_repairs.jsonl``: error-derived SFT records. A repair round that verified: the messages the model
  saw (the task, its failing answer, the compiler or mismatch feedback) and the reply that fixed it.
- ``verified.jsonl``: plain (prompt, answer) pairs of every verified candidate; the answer is its files
  in the reply format the prompts ask for.
- ``preferences.jsonl``: DPO pairs per task from its k samples: chosen = a verified answer, rejected = an
  answer that compiled but computed wrong numbers (the most useful negatives, per the paper).

Chat records: ``{"messages": [{"role", "content"}...], "meta": {...}}``; DPO records:
``{"prompt": [messages], "chosen": [assistant message], "rejected": [assistant message], "meta": {...}}``.
``meta`` holds task, run_id, round, and the failure's error class (agent_graph/evaluate/errors.py).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from agent_graph.evaluate.errors import classify_build, classify_cases
from agent_graph.evaluate.types import CandidateResult
from agent_graph.prompts import render_files

ROUND_RE = re.compile(r"^(\d+)(?:-s(\d+))?$")


@dataclass
class Round:
    number: int
    dir: Path
    prompt: list[dict] | None
    reply: str | None
    files: dict[str, str]
    compiled: bool
    correct: bool
    error_class: str | None


@dataclass
class ExportCounts:
    sft_repairs: int = 0
    verified: int = 0
    preferences: int = 0
    error_classes: dict[str, int] = field(default_factory=dict)


def _read_json(p: Path):
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):
        return None


def _files(d: Path) -> dict[str, str]:
    root = d / "files"
    if not root.is_dir():
        return {}
    return {str(p.relative_to(root)): p.read_text(errors="replace") for p in sorted(root.rglob("*"))
            if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}


def read_rounds(run_dir: Path) -> list[Round]:
    """The rounds of a one-sample agent run, in order."""
    out = []
    for d in sorted((run_dir / "rounds").glob("*"), key=lambda p: [int(x or 0) for x in ROUND_RE.match(p.name).groups()]
                    if ROUND_RE.match(p.name) else [1 << 30]):
        m = ROUND_RE.match(d.name)
        if not m or not d.is_dir():
            continue
        rep = _read_json(d / "report.json")
        diags = _read_json(d / "diagnostics.json") or []
        errors = [x for x in diags if isinstance(x, dict) and x.get("severity") == "error"]
        compiled = bool(rep.get("compiled")) if rep else (not errors and (d / "files").is_dir() and rep is not None)
        correct = bool(rep and rep.get("correct"))
        cls = None
        if errors:
            cls = classify_build(errors)[0]
        elif rep and not correct:
            cls = classify_cases(rep.get("cases") or []) if rep.get("compiled") else classify_build(rep.get("build_diagnostics") or [])[0]
        reply = (d / "reply.md").read_text(errors="replace") if (d / "reply.md").is_file() else None
        out.append(Round(int(m.group(1)), d, _read_json(d / "prompt.json"), reply, _files(d), compiled, correct, cls))
    return out


def export_training(results: list[CandidateResult], runs_root: Path, dest: Path) -> ExportCounts:
    """Write the three files under ``dest`` from the runs of ``results`` (sorted, so the files are stable)."""
    dest.mkdir(parents=True, exist_ok=True)
    counts, classes = ExportCounts(), Counter()
    sft, verified, prefs = [], [], []
    by_task: dict[str, list[tuple[CandidateResult, list[Round]]]] = {}
    for r in sorted(results, key=lambda r: (r.task, r.sample)):
        if not r.run_id or not (runs_root / r.run_id).is_dir():
            continue
        rounds = read_rounds(runs_root / r.run_id)
        by_task.setdefault(r.task, []).append((r, rounds))
        first = next((x.prompt for x in rounds if x.prompt), None)
        for prev, cur in zip(rounds, rounds[1:]):
            if prev.error_class:
                classes[prev.error_class] += 1
            if cur.correct and cur.prompt and cur.reply and not prev.correct:
                sft.append({"messages": cur.prompt + [{"role": "assistant", "content": cur.reply}],
                            "meta": _meta(r, cur.number, prev.error_class)})
        if rounds and rounds[-1].error_class and not rounds[-1].correct:
            classes[rounds[-1].error_class] += 1
        good = next((x for x in reversed(rounds) if x.correct and x.files), None)
        if good is not None and first:
            verified.append({"messages": _prompt(first) + [{"role": "assistant", "content": render_files(good.files)}],
                             "meta": _meta(r, good.number, None)})
    for task, runs in sorted(by_task.items()):
        first = next((x.prompt for _, rs in runs for x in rs if x.prompt), None)
        chosen = [(r, x) for r, rs in runs for x in rs if x.correct and x.files]
        rejected = [(r, x) for r, rs in runs for x in rs if x.compiled and not x.correct and x.files]
        if not first:
            continue
        for (rc, c), (rr, w) in zip(chosen, rejected):
            prefs.append({"prompt": _prompt(first),
                          "chosen": [{"role": "assistant", "content": render_files(c.files)}],
                          "rejected": [{"role": "assistant", "content": render_files(w.files)}],
                          "meta": {"task": task, "chosen": f"{rc.run_id}/{c.number}", "rejected": f"{rr.run_id}/{w.number}",
                                   "error_class": w.error_class}})
    for name, rows in (("sft_repairs.jsonl", sft), ("verified.jsonl", verified), ("preferences.jsonl", prefs)):
        (dest / name).write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in rows))
    counts.sft_repairs, counts.verified, counts.preferences = len(sft), len(verified), len(prefs)
    counts.error_classes = dict(sorted(classes.items()))
    (dest / "manifest.json").write_text(json.dumps({"schema": "kgen.training-export/1", **counts.__dict__}, indent=2) + "\n")
    return counts


def _prompt(messages: list[dict]) -> list[dict]:
    """The task part of a prompt: system messages and the first user message."""
    keep = [m for m in messages if m.get("role") == "system"]
    user = next((m for m in messages if m.get("role") == "user"), None)
    return keep + ([user] if user else [])


def _meta(r: CandidateResult, rnd: int, error_class: str | None) -> dict:
    return {"task": r.task, "sample": r.sample, "run_id": r.run_id, "round": rnd, "error_class": error_class}
