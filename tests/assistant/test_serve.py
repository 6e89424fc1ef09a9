"""``kgen serve`` with a stand-in for ``vllm serve`` (tests/agent_graph/openai_server.py run as a process):
the command line, the health wait, the endpoint printed, a chat request through it, SIGINT stopping
both processes, and the one-line errors (vllm missing, port taken, server dying, never healthy)."""
from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from agent_graph.llm import ChatClient, ChatMessage
from agent_graph.llm.serve import ServeSettings, build_command, served_name
from agent_graph.settings import ModelSettings

REPO = Path(__file__).resolve().parents[2]
STAND_IN = f"{shlex.quote(sys.executable)} -m tests.agent_graph.openai_server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env(**extra: str) -> dict:
    e = {k: v for k, v in os.environ.items() if not k.startswith("KGEN_")}
    e["PYTHONPATH"] = str(REPO)
    e.update(extra)
    return e


def kgen(*args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "assistant.cli", "serve", *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (read from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_command_line():
    cfg = ServeSettings(model="/models/KernelGen-LM-32B-RL", port=8123, max_model_len=16384, tensor_parallel_size=4,
                        extra_args=["--enforce-eager"])
    cmd = build_command(cfg)
    assert cmd[:3] == ["vllm", "serve", "/models/KernelGen-LM-32B-RL"]
    flags = dict(zip(cmd[3::2], cmd[4::2]))
    assert flags["--host"] == "127.0.0.1" and flags["--port"] == "8123"
    assert flags["--served-model-name"] == "KernelGen-LM-32B-RL" == served_name(cfg)
    assert flags["--max-model-len"] == "16384" and flags["--tensor-parallel-size"] == "4"
    assert cmd[-1] == "--enforce-eager"
    assert served_name(ServeSettings()) == "AscendKernelGen/KernelGen-LM-32B-RL"


def test_dry_run_prints_the_command():
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "Qwen/Qwen3-1.7B", "--port", "9001", "--dry-run"],
                       cwd=REPO, env=env(), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    assert shlex.split(r.stdout)[:3] == ["vllm", "serve", "Qwen/Qwen3-1.7B"] and "9001" in r.stdout


def test_serve_waits_prints_endpoint_answers_and_stops_on_sigint(tmp_path):
    port = free_port()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"replies": ["served through kgen serve"]}))
    rec = tmp_path / "requests.jsonl"
    vllm = f"{STAND_IN} --script {script} --record {rec} --ready-after 1.2"
    proc = kgen("KernelGen-test", "--port", str(port), "--vllm-cmd", vllm, env=env())
    try:
        lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
            if line.startswith("press Ctrl+C"):
                break
        url = f"http://127.0.0.1:{port}/v1"
        assert f"kgen serve: KernelGen-test is ready at {url}" in lines, lines
        assert f"use it with: kgen generate TASK --llm {url}" in lines
        # the stand-in got vllm's command line and serves the name kgen gave it
        reply = ChatClient(ModelSettings(url=url, name="KernelGen-test", timeout=10), max_retries=0).complete(
            [ChatMessage("user", "hello")])
        assert reply.text == "served through kgen serve"
        assert json.loads(rec.read_text().splitlines()[0])["model"] == "KernelGen-test"
        kids = children(proc.pid)
        assert len(kids) == 1 and alive(kids[0])
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        err = proc.stderr.read()
        assert "waiting for the model to load" in err and "." in err.split("waiting for the model to load", 1)[1]
        assert "--max-model-len 32768" in err                 # the command line it started is shown
        deadline = time.monotonic() + 5
        while alive(kids[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(kids[0])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_missing_vllm_says_how_to_install_it(tmp_path):
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "serve"], cwd=REPO, capture_output=True, text=True,
                       env=env(PATH=str(tmp_path)), timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert r.stderr.startswith("kgen: error: vllm is not installed") and "pip install 'kgen[serve]'" in r.stderr


def test_missing_custom_command(tmp_path):
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "serve"], cwd=REPO, capture_output=True, text=True,
                       env=env(KGEN_VLLM_CMD=str(tmp_path / "no-such-vllm")), timeout=60)
    assert r.returncode == 2 and "no-such-vllm' not found" in r.stderr


def test_port_in_use():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--port", str(port), "--vllm-cmd", STAND_IN],
                           cwd=REPO, capture_output=True, text=True, env=env(), timeout=60)
    assert r.returncode == 2 and f"port {port} on 127.0.0.1 is already in use" in r.stderr


def test_server_that_dies_while_loading(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--port", str(free_port()), "--vllm-cmd",
                        f"{STAND_IN} --script {bad}"], cwd=REPO, capture_output=True, text=True,
                       env=env(ASCEND_HOME_PATH=str(tmp_path)), timeout=60)
    assert r.returncode == 2
    assert "Ascend NPU host" in r.stderr and "vllm-ascend" in r.stderr      # a sourced CANN environment
    assert r.stderr.strip().splitlines()[-1].startswith("kgen: error: the model server exited with status 1 before it was ready")


def test_never_healthy_times_out_and_stops_the_server(tmp_path):
    port = free_port()
    proc = kgen("--port", str(port), "--health-timeout", "1.5", "--vllm-cmd", f"{STAND_IN} --ready-after 60", env=env())
    try:
        kids: list[int] = []
        while not kids and proc.poll() is None:     # the stand-in, once kgen (slow to start on a busy machine) runs it
            time.sleep(0.05)
            kids = children(proc.pid)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 2
        assert "did not become healthy within 1.5 s" in err
        assert kids and not any(alive(k) for k in kids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sigterm_while_loading_stops_the_server():
    proc = kgen("--port", str(free_port()), "--vllm-cmd", f"{STAND_IN} --ready-after 60", env=env())
    try:
        deadline = time.monotonic() + 20
        kids: list[int] = []
        while not kids and time.monotonic() < deadline:
            time.sleep(0.1)
            kids = children(proc.pid)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 130
        assert "stopping before the model was ready" in proc.stderr.read()
        assert kids and not any(alive(k) for k in kids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_extra_args_from_the_environment_and_the_command_line():
    def dry(*args: str, **e: str) -> list[str]:
        r = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--dry-run", *args], cwd=REPO,
                           capture_output=True, text=True, env=env(**e), timeout=60)
        assert r.returncode == 0, r.stderr
        return shlex.split(r.stdout)
    cmd = dry(KGEN_SERVE__EXTRA_ARGS="--enforce-eager --dtype 'bfloat16'")
    assert cmd[-3:] == ["--enforce-eager", "--dtype", "bfloat16"]
    cmd = dry("Qwen/Qwen3-4B", "--port", "8002", "--vllm-args=--reasoning-parser qwen3")
    assert cmd[2] == "Qwen/Qwen3-4B" and cmd[-2:] == ["--reasoning-parser", "qwen3"]
    cmd = dry("--vllm-args=--enforce-eager", KGEN_SERVE__EXTRA_ARGS="--dtype bfloat16")
    assert cmd[2] == "AscendKernelGen/KernelGen-LM-32B-RL" and cmd[-3:] == ["--dtype", "bfloat16", "--enforce-eager"]


def test_a_server_ignoring_sigterm_is_killed_after_the_grace_period():
    port = free_port()
    proc = kgen("--port", str(port), "--vllm-cmd", f"{STAND_IN} --ignore-sigterm",
                env=env(KGEN_SERVE__STOP_GRACE="0.5"))
    try:
        while not proc.stdout.readline().startswith("press Ctrl+C"):
            assert proc.poll() is None, proc.stderr.read()
        kids = children(proc.pid)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        assert time.monotonic() - t0 < 5
        assert f"stopped (status {-signal.SIGKILL})" in proc.stderr.read()
        assert kids and not any(alive(k) for k in kids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
