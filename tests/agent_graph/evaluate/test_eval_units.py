"""kgen eval pieces that need no kernel build: pass@k, the error classifier, suite discovery, the
checkpoint file, metrics, and the command's one-line usage errors."""
from __future__ import annotations

import json
import shutil
from math import comb
from pathlib import Path

import pytest

from agent_graph.evaluate import CandidateResult, EvalError, SuiteTask, pass_at_k
from agent_graph.evaluate.errors import classify_build, classify_cases, classify_message
from agent_graph.evaluate.metrics import summarize
from agent_graph.evaluate.results import ResultsFile
from agent_graph.evaluate.suite import discover
from tests.agent_graph.evaluate.helpers import DATA, SUITE6, kgen


@pytest.mark.parametrize("n,c,k,want", [
    (1, 1, 1, 1.0), (1, 0, 1, 0.0), (2, 1, 1, 0.5), (2, 1, 2, 1.0),
    (5, 2, 2, 0.7),                       # 1 - C(3,2)/C(5,2) = 1 - 3/10
    (10, 3, 1, 0.3), (10, 0, 5, 0.0), (4, 4, 3, 1.0),
    (10, 2, 3, 1 - comb(8, 3) / comb(10, 3)),   # = 1 - 56/120
    (3, 1, 5, 1.0),                       # k larger than n: clipped to n
])
def test_pass_at_k_matches_hand_values(n, c, k, want):
    assert pass_at_k(n, c, k) == pytest.approx(want)


def test_error_classifier_follows_the_taxonomy():
    cases = {
        "'ElementwiseAdd' is not a member of 'AscendC'": "api-signature",
        "no matching function for call to 'Add(LocalTensor<half>&, int)'": "api-signature",
        "invalid conversion from 'float*' to 'half*'": "dtype-conversion",
        "'tileLen' was not declared in this scope": "scope-lifetime",
        "UB overflow: 263168 B > 196608 B": "memory-misuse",
        "expected ';' before 'return'": "syntax-macro",
    }
    for msg, cls in cases.items():
        assert classify_message(msg) == cls, msg
    first, counts = classify_build([{"severity": "error", "message": "expected ')' before ';' token"},
                                    {"severity": "warning", "message": "unused variable"},
                                    {"severity": "error", "message": "cannot convert 'a' to 'b'"}])
    assert first == "syntax-macro" and counts == {"syntax-macro": 1, "dtype-conversion": 1}
    assert classify_cases([{"status": "pass"}, {"status": "fail"}]) == "wrong-result"
    assert classify_cases([{"status": "error", "message": "DataCopy out of bounds of GM"}]) == "memory-misuse"


def test_suite_list_mixes_the_three_formats():
    tasks = discover(SUITE6)
    assert [t.format for t in tasks].count("npukernelbench") == 2
    assert {t.format for t in tasks} == {"npukernelbench", "kernelbench", "kgen-spec"} and len(tasks) == 6
    golden = {t.name for t in tasks if t.golden}
    assert golden == {"npukb_scaled_add", "spec_scaled_add"}
    assert [t.name for t in discover(SUITE6, names=["kernelbench_*"])] == ["kernelbench_add", "kernelbench_relu"]
    with pytest.raises(EvalError, match="no task matches"):
        discover(SUITE6, names=["nothing*"])


def test_npukernelbench_tree_levels_and_categories(tmp_path):
    for lv, cat in (("level1", "Math"), ("level2", "Foreach")):
        shutil.copytree(DATA / "tasks" / "npukb_scaled_add", tmp_path / "tasks" / lv / cat / "ScaledAdd")
    tasks = discover(tmp_path / "tasks")
    assert [(t.name, t.level, t.category) for t in tasks] == [("level1/Math/ScaledAdd", "level1", "Math"),
                                                                ("level2/Foreach/ScaledAdd", "level2", "Foreach")]
    assert [t.name for t in discover(tmp_path / "tasks" / "level2")] == ["level2/Foreach/ScaledAdd"]
    assert [t.name for t in discover(tmp_path / "tasks", levels=["level1"])] == ["level1/Math/ScaledAdd"]
    assert [t.name for t in discover(tmp_path / "tasks", categories=["foreach"])] == ["level2/Foreach/ScaledAdd"]


def _res(task: str, sample: int = 0, **kw) -> CandidateResult:
    base = dict(task=task, sample=sample, generator="offline", level="", category="", outcome="ok", stage="performance")
    return CandidateResult(**{**base, **kw})


def test_results_file_tolerates_a_torn_last_line(tmp_path):
    store = ResultsFile(tmp_path)
    store.append(_res("a", compiled=True, correct=True))
    store.append(_res("b"))
    with open(store.path, "a") as f:
        f.write('{"task": "c", "sam')          # a process killed mid-write
    loaded = store.load()
    assert sorted(loaded) == ["a#0", "b#0"]
    assert store.path.read_text().endswith("\n")     # the torn tail is gone before the next append
    store.append(_res("c"))
    assert sorted(store.load()) == ["a#0", "b#0", "c#0"]
    assert all(json.loads(line) for line in store.path.read_text().splitlines())


def test_metrics_scores_levels_and_fast_p():
    tasks = [SuiteTask("level1/M/a", "a", "npukernelbench", "level1", "M", cases=2),
             SuiteTask("level1/M/b", "b", "npukernelbench", "level1", "M", cases=4),
             SuiteTask("level2/F/c", "c", "npukernelbench", "level2", "F", cases=1)]
    res = {r.key: r for r in [
        _res("level1/M/a", 0, level="level1", compiled=True, correct=True, cases_passed=2, cases_total=2,
             modelled_us=10.0, speedup_vs_eager=2.0),
        _res("level1/M/a", -1, generator="golden-ref", compiled=True, correct=True, cases_passed=2, cases_total=2,
             modelled_us=12.0),
        _res("level1/M/b", 0, level="level1", compiled=True, cases_passed=1, cases_total=4, stage="correctness",
             error_class="wrong-result"),
        _res("level2/F/c", 0, level="level2", stage="compile", error_class="api-signature")]}
    s = summarize(tasks, res, k=1)
    assert s["levels"]["level1"]["score"] == pytest.approx((100 + 25) / 2)
    assert s["levels"]["level2"]["score"] == 0
    assert s["weighted_score"] == pytest.approx((0.2 * 62.5 + 0.3 * 0) / 0.5)
    m = s["metrics"]
    assert m["compile@k"] == pytest.approx(2 / 3, abs=1e-4) and m["correct@k"] == pytest.approx(1 / 3, abs=1e-4)
    assert m["fast_p_vs_eager"] == {"fast_0.8": pytest.approx(1 / 3, abs=1e-4), "fast_1": pytest.approx(1 / 3, abs=1e-4), "fast_1.5": pytest.approx(1 / 3, abs=1e-4)}
    row = next(r for r in s["per_task"] if r["task"] == "level1/M/a")
    assert row["speedup_vs_golden"] == pytest.approx(1.2) and m["tasks_with_golden_time"] == 1
    assert s["error_classes"] == {"api-signature": 1, "wrong-result": 1}


@pytest.mark.parametrize("args,needle", [
    (["no/such/suite"], "no such suite"),
    ([str(SUITE6), "--generator", "wizard"], "unknown generator"),
    ([str(SUITE6), "--generator", "projects:/no/such/dir"], "projects:DIR"),
    ([str(SUITE6), "-k", "0"], "at least 1"),
    ([str(SUITE6), "--generator", "model"], "needs a model"),
    (["--resume", "/no/such/run"], "not an eval run folder"),
    ([], "SUITE is required"),
])
def test_user_mistakes_are_one_line_and_exit_2(tmp_path, args, needle):
    r = kgen(tmp_path, "eval", *args, "-o", str(tmp_path / "out"))
    assert r.returncode == 2, r.stderr
    assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
