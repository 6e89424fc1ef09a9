"""The stand-in OpenAI server itself, checked with plain httpx (not with kgen's client): the wire format
of JSON and SSE replies, the scripted directives, request recording, and the process mode."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.agent_graph.openai_server import DEFAULT_MODEL, Reply, ScriptedOpenAI, split_chunks
from tests.agent_graph.openai_server import scripted_openai  # noqa: F401  (the fixture, used by test_fixture)

REPO = Path(__file__).resolve().parents[2]


def chat(url: str, stream: bool = False, model: str = DEFAULT_MODEL, **extra) -> httpx.Response:
    body = {"model": model, "messages": [{"role": "user", "content": "add two tensors"}], "stream": stream, **extra}
    return httpx.post(f"{url}/chat/completions", json=body, timeout=10)


def sse_events(text: str) -> list[str]:
    return [line[len("data: "):] for line in text.split("\n") if line.startswith("data: ")]


def test_non_streaming_reply_is_openai_chat_json():
    with ScriptedOpenAI(["first reply", "second"]) as srv:
        r = chat(srv.url)
        assert r.status_code == 200
        body = r.json()
        assert body["object"] == "chat.completion"
        assert body["model"] == DEFAULT_MODEL
        assert body["choices"][0]["message"] == {"role": "assistant", "content": "first reply"}
        assert body["choices"][0]["finish_reason"] == "stop"
        assert body["usage"]["completion_tokens"] == 2
        assert chat(srv.url).json()["choices"][0]["message"]["content"] == "second"


def test_streaming_reply_is_sse_chunks_ending_with_done():
    text = "extern \"C\" __global__ __aicore__ void add() {}\n"
    with ScriptedOpenAI([{"text": text, "finish_reason": "length"}]) as srv:
        r = chat(srv.url, stream=True, stream_options={"include_usage": True})
        assert r.headers["content-type"].startswith("text/event-stream")
        events = sse_events(r.text)
        assert events[-1] == "[DONE]"
        chunks = [json.loads(e) for e in events[:-1]]
        assert all(c["object"] == "chat.completion.chunk" for c in chunks)
        deltas = [c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"]]
        assert "".join(deltas) == text
        assert len([d for d in deltas if d]) == len(split_chunks(text))
        finals = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"] and c["choices"][0]["finish_reason"]]
        assert finals == ["length"]
        assert "usage" in chunks[-1]          # include_usage: a last chunk with usage and no choices


def test_chunk_size_and_chunk_delay():
    with ScriptedOpenAI([{"text": "abcdefghij", "chunk_size": 4, "chunk_delay": 0.15}]) as srv:
        t0 = time.monotonic()
        r = chat(srv.url, stream=True)
        took = time.monotonic() - t0
        deltas = [json.loads(e)["choices"][0]["delta"].get("content") for e in sse_events(r.text)[:-1]]
        assert [d for d in deltas if d] == ["abcd", "efgh", "ij"]
        assert took >= 0.3                    # two gaps between three chunks


def test_models_and_health_and_ready_after():
    with ScriptedOpenAI(models=["m1", "m2"], ready_after=0.6) as srv:
        root = srv.url[: -len("/v1")]
        assert httpx.get(f"{root}/health").status_code == 503
        assert chat(srv.url, model="m1").status_code == 503
        time.sleep(0.7)
        assert httpx.get(f"{root}/health").status_code == 200
        ids = [m["id"] for m in httpx.get(f"{srv.url}/models").json()["data"]]
        assert ids == ["m1", "m2"]


def test_error_directives():
    script = [{"status": 500, "error": "CUDA out of memory"}, {"malformed": True, "text": "x"},
              {"drop": True, "text": "a b c"}]
    with ScriptedOpenAI(script) as srv:
        r = chat(srv.url)
        assert r.status_code == 500 and r.json()["error"]["message"] == "CUDA out of memory"
        r = chat(srv.url)
        assert r.status_code == 200
        with pytest.raises(json.JSONDecodeError):
            json.loads(r.text)
        with pytest.raises(httpx.RemoteProtocolError):
            chat(srv.url)


def test_unknown_model_is_404_like_vllm_and_script_exhaustion_is_500():
    with ScriptedOpenAI(["only"]) as srv:
        r = chat(srv.url, model="nope")
        assert r.status_code == 404 and "nope" in r.json()["error"]["message"]
        assert chat(srv.url).status_code == 200
        r = chat(srv.url)
        assert r.status_code == 500 and "exhausted" in r.json()["error"]["message"]
    with ScriptedOpenAI([], default="again") as srv:
        assert [chat(srv.url).json()["choices"][0]["message"]["content"] for _ in range(2)] == ["again", "again"]


def test_requests_are_recorded(tmp_path):
    rec = tmp_path / "req.jsonl"
    with ScriptedOpenAI(["a", "b"], record=rec) as srv:
        chat(srv.url, temperature=0.7)
        chat(srv.url, stream=True)
        assert [r["stream"] for r in srv.requests] == [False, True]
        assert srv.requests[0]["temperature"] == 0.7
        assert srv.last_messages == [{"role": "user", "content": "add two tensors"}]
    lines = [json.loads(x) for x in rec.read_text().splitlines()]
    assert [x["stream"] for x in lines] == [False, True]


def test_bad_reply_directive_is_rejected():
    with pytest.raises(ValueError, match="unknown reply key"):
        Reply.of({"txt": "typo"})


def test_fixture(scripted_openai):
    scripted_openai.add("from the fixture")
    assert chat(scripted_openai.url).json()["choices"][0]["message"]["content"] == "from the fixture"


def test_runs_as_a_process_and_stops_on_sigterm(tmp_path):
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"replies": ["from the process"], "models": ["served-x"]}))
    rec = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "tests.agent_graph.openai_server", "--port", "0", "--script",
                             str(script), "--record", str(rec), "--max-model-len", "4096"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        url = line.split()[-1]
        r = chat(url, model="served-x")
        assert r.json()["choices"][0]["message"]["content"] == "from the process"
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        assert json.loads(rec.read_text().splitlines()[0])["model"] == "served-x"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
