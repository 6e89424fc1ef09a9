"""``kgen serve``: start a vLLM OpenAI-compatible server for KernelGen-LM, wait until it answers, stop it cleanly.

The launcher builds a ``vllm serve`` command line (127.0.0.1, port 8000, ``--served-model-name``,
``--max-model-len``, ``--tensor-parallel-size``), starts it in its own process group, polls ``/health``
(then ``/v1/models``) with progress dots until the model is loaded, prints the endpoint and the
``kgen generate --llm URL`` line to use, and on Ctrl+C / SIGTERM stops the server: SIGTERM to its
process group, SIGKILL after a grace period. On Ascend NPU hosts the same command runs vLLM with the
vllm-ascend plugin. The executable is overridable (``--vllm-cmd`` / ``KGEN_VLLM_CMD`` /
``serve.vllm_cmd``), which is how the tests run a stand-in server.
"""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

import httpx

from agent_graph.settings import DEFAULT_MODEL, ServeSettings

INSTALL_HINT = ("install it with: pip install 'kgen[serve]' (on an Ascend NPU host also: pip install vllm-ascend, "
                "with the CANN toolkit environment sourced)")


class ServeError(Exception):
    """A launcher failure a user can act on; ``str`` is one line."""


def served_name(cfg: ServeSettings) -> str:
    if cfg.served_name:
        return cfg.served_name
    p = Path(os.path.expanduser(cfg.model))
    return p.name if (cfg.model.startswith(("/", ".", "~")) or p.is_dir()) else cfg.model


def endpoint(cfg: ServeSettings) -> str:
    host = "127.0.0.1" if cfg.host in ("0.0.0.0", "") else cfg.host
    return f"http://{host}:{cfg.port}/v1"


def npu_host() -> bool:
    """An Ascend NPU machine: a davinci device node, npu-smi, or a sourced CANN environment."""
    return Path("/dev/davinci0").exists() or shutil.which("npu-smi") is not None or bool(os.environ.get("ASCEND_HOME_PATH"))


def build_command(cfg: ServeSettings) -> list[str]:
    """The full ``vllm serve`` command line for ``cfg``."""
    head = shlex.split(cfg.vllm_cmd)
    if not head:
        raise ServeError("the vllm command is empty (serve.vllm_cmd / --vllm-cmd / KGEN_VLLM_CMD)")
    return head + ["serve", cfg.model, "--host", cfg.host, "--port", str(cfg.port),
                   "--served-model-name", served_name(cfg), "--max-model-len", str(cfg.max_model_len),
                   "--tensor-parallel-size", str(cfg.tensor_parallel_size)] + list(cfg.extra_args)


def check_launchable(cfg: ServeSettings) -> None:
    """Raise ServeError when the executable is missing or the port is taken."""
    exe = shlex.split(cfg.vllm_cmd)[0] if cfg.vllm_cmd.strip() else ""
    if not exe or (shutil.which(exe) is None and not Path(exe).is_file()):
        if Path(exe).name == "vllm":
            raise ServeError(f"vllm is not installed; {INSTALL_HINT}; or point --vllm-cmd / KGEN_VLLM_CMD at a vllm executable")
        raise ServeError(f"cannot run the model server: '{exe}' not found (check --vllm-cmd / KGEN_VLLM_CMD)")
    if cfg.port <= 0 or cfg.port > 65535:
        raise ServeError(f"port {cfg.port} is not a TCP port (1-65535)")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((cfg.host, cfg.port))
        except OSError:
            raise ServeError(f"port {cfg.port} on {cfg.host} is already in use (a server already running? "
                             f"try GET {endpoint(cfg)}/models, or pick another --port)") from None


def _answers(base: str) -> bool:
    """True once the server reports healthy (GET /health 200, or GET /v1/models 200 when /health is absent)."""
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    try:
        r = httpx.get(f"{root}/health", timeout=2.0)
        if r.status_code == 200:
            return True
        if r.status_code == 404:
            return httpx.get(f"{base}/models", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False
    return False


def stop_process(proc: subprocess.Popen, grace: float) -> int:
    """SIGTERM to the server's process group, SIGKILL after ``grace`` seconds; returns its exit status."""
    if proc.poll() is not None:
        return proc.returncode
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            return proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    return proc.wait()


def serve(cfg: ServeSettings, out: IO[str], err: IO[str], stop: threading.Event, poll: float = 0.5) -> int:
    """Run the server until ``stop`` is set (or it exits). Returns the exit status for ``kgen serve``."""
    check_launchable(cfg)
    cmd = build_command(cfg)
    base = endpoint(cfg)
    name = served_name(cfg)
    if npu_host():
        print("kgen serve: Ascend NPU host: vllm runs on the NPU through the vllm-ascend plugin "
              "(pip install vllm-ascend; source the CANN set_env.sh first)", file=err)
    print(f"kgen serve: starting {shlex.join(cmd)}", file=err, flush=True)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err, start_new_session=True)
    try:
        start, dots = time.monotonic(), 0
        print("kgen serve: waiting for the model to load ", end="", file=err, flush=True)
        while not _answers(base):
            if proc.poll() is not None:
                print("", file=err)
                raise ServeError(f"the model server exited with status {proc.returncode} before it was ready "
                                 "(its log is above)")
            if stop.wait(poll):
                print("", file=err)
                print("kgen serve: stopping before the model was ready", file=err, flush=True)
                stop_process(proc, cfg.stop_grace)
                return 130
            if time.monotonic() - start > cfg.health_timeout:
                print("", file=err)
                raise ServeError(f"the model server did not become healthy within {cfg.health_timeout:g} s "
                                 "(raise serve.health_timeout for large models)")
            dots += 1
            print(".", end="", file=err, flush=True)
        print(f" ready after {time.monotonic() - start:.1f} s", file=err, flush=True)
        print(f"kgen serve: {name} is ready at {base}", file=out)
        print(f"use it with: kgen generate TASK --llm {base}", file=out)
        if name != DEFAULT_MODEL:
            print(f"(and the model name: KGEN_MODEL={shlex.quote(name)}, or model.name in kgen.toml)", file=out)
        print("press Ctrl+C to stop it", file=out, flush=True)
        while not stop.wait(poll):
            if proc.poll() is not None:
                raise ServeError(f"the model server exited on its own with status {proc.returncode} (its log is above)")
        print("kgen serve: stopping the model server", file=err, flush=True)
        code = stop_process(proc, cfg.stop_grace)
        print(f"kgen serve: stopped (status {code})", file=err, flush=True)
        return 0
    finally:
        if proc.poll() is None:
            stop_process(proc, cfg.stop_grace)
