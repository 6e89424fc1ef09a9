"""``kgen eval``: whole suites through generate -> compile -> correctness -> performance, scored the
NPUKernelBench way, on a local process pool or a Ray cluster, resumable, with training data out.

    from agent_graph.evaluate import EvalRequest, run_eval
    summary = run_eval(EvalRequest(suite=Path("tasks/level1"), generator="golden", jobs=2, output=Path("out")))

docs/eval.md defines the metrics and the schemas of results.jsonl, summary.json and the training export.
"""
from agent_graph.evaluate.engine import request_from_run, run_eval
from agent_graph.evaluate.metrics import pass_at_k
from agent_graph.evaluate.types import (GENERATORS, STAGES, CandidateResult, EvalError, EvalRequest, EvalSummary,
                                        GeneratorKind, Limits, Progress, Stage, SuiteTask)

__all__ = ["GENERATORS", "STAGES", "CandidateResult", "EvalError", "EvalRequest", "EvalSummary", "GeneratorKind",
           "Limits", "Progress", "Stage", "SuiteTask", "pass_at_k", "request_from_run", "run_eval"]
