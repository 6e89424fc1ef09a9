"""kgen eval with the model generator at k = 2 against the scripted local OpenAI-compatible server: each
sample is its own agent run with its repair loop; the training export turns the rounds into SFT records,
verified pairs and a preference pair (chosen verified, rejected compiled-but-wrong)."""
from __future__ import annotations

import json

import pytest

from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.evaluate.helpers import kgen, results, summary
from tests.agent_graph.openai_server import ScriptedOpenAI


def _jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_model_generator_k2_scores_samples_and_exports_training_data(tmp_path):
    out, export = tmp_path / "out", tmp_path / "train"
    # sample 0: a tiling bug (compiles, the tail case is wrong) then the fix; sample 1: a made-up API then the fix
    script = [sk.reply(sk.TILING_BUG), sk.reply(sk.GOOD), sk.reply(sk.HALLUCINATED), sk.reply(sk.GOOD)]
    with ScriptedOpenAI(script) as srv:
        r = kgen(tmp_path, "eval", str(sk.TASK), "--generator", "model", "-k", "2", "--jobs", "1", "--llm", srv.url,
                 "-o", str(out), "--export-training", str(export), KGEN_TEMPERATURE="0.7")
        requests = list(srv.requests)
    assert r.returncode == 0, r.stderr[-3000:]
    assert len(requests) == 4 and all(q["temperature"] == pytest.approx(0.7) for q in requests)
    lines = sorted(results(out), key=lambda d: d["sample"])
    assert [(d["sample"], d["correct"], d["stage"]) for d in lines] == [(0, True, "performance"), (1, True, "performance")]
    assert all(d["run_id"] and (out / "agent" / "runs" / d["run_id"] / "rounds" / "1").is_dir() for d in lines)
    s = summary(out)
    assert s["k"] == 2 and s["candidates"] == 2
    assert s["metrics"]["correct@k"] == 1.0 and s["metrics"]["correct@1"] == 1.0
    assert "training export: 2 SFT repair records, 2 verified pairs, 1 preference pairs" in r.stdout

    sft = _jsonl(export / "sft_repairs.jsonl")
    assert len(sft) == 2
    for rec in sft:
        roles = [m["role"] for m in rec["messages"]]
        assert roles[0] == "system" and roles[-1] == "assistant" and roles.count("assistant") >= 2
        assert rec["messages"][-1]["content"] == sk.reply(sk.GOOD) and rec["meta"]["round"] == 1
    by_class = {rec["meta"]["error_class"]: rec for rec in sft}
    assert set(by_class) == {"wrong-result", "api-signature"}
    assert "ElementwiseAdd" in by_class["api-signature"]["messages"][-2]["content"]    # the compiler's feedback
    assert "tail" in by_class["wrong-result"]["messages"][-2]["content"]              # the mismatch report

    verified = _jsonl(export / "verified.jsonl")
    assert len(verified) == 2 and all([m["role"] for m in v["messages"]] == ["system", "user", "assistant"] for v in verified)
    assert "AscendC::Add" in verified[0]["messages"][-1]["content"]

    (pair,) = _jsonl(export / "preferences.jsonl")
    assert [m["role"] for m in pair["prompt"]] == ["system", "user"]
    assert pair["chosen"][0]["role"] == pair["rejected"][0]["role"] == "assistant"
    assert sk.BAD_CHUNK.strip() in pair["rejected"][0]["content"] and sk.GOOD_CHUNK.strip() in pair["chosen"][0]["content"]
    assert pair["meta"]["error_class"] == "wrong-result"
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["error_classes"] == {"api-signature": 1, "wrong-result": 1}
