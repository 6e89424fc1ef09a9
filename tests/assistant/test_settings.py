"""The settings tree: layers (defaults < user config < project kgen.toml < env < flags), where each value
came from, and one-line errors naming the file and key; plus ``kgen config`` as a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent_graph.settings import SettingsError, child_env, describe_sources, load_settings

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty XDG config dir, a project tree, and no KGEN_* variables from the caller."""
    for k in list(os.environ):
        if k.startswith("KGEN_"):
            monkeypatch.delenv(k)
    cfg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(cfg))
    proj = tmp_path / "proj"
    (proj / "sub" / "deeper").mkdir(parents=True)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_defaults(home):
    s = load_settings(cwd=home / "proj")
    assert s.model.url is None and s.model.name == "AscendKernelGen/KernelGen-LM-32B-RL"
    assert (s.agent.build_repairs, s.agent.correctness_repairs, s.agent.samples) == (4, 3, 1)
    assert s.serve.port == 8000
    assert all(r.source == "default" for r in describe_sources(s))


def test_layers_in_order(home):
    user = write(home / "xdg" / "kgen" / "config.toml",
                 '[model]\nurl = "http://user:1/v1"\ntemperature = 0.5\nmax_tokens = 100\n[agent]\nsamples = 2\n')
    proj = write(home / "proj" / "kgen.toml", '[model]\nurl = "http://project:2/v1"\nmax_tokens = 200\n')
    env = {"KGEN_LLM_URL": "http://env:3/v1", "KGEN_AGENT__BUILD_REPAIRS": "7", "KGEN_STREAM": "off"}
    s = load_settings(cwd=home / "proj" / "sub" / "deeper", env=env, overrides={"agent.samples": 5, "model.name": None})
    assert s.model.temperature == 0.5 and s.sources["model.temperature"] == f"user config {user}"
    assert s.model.max_tokens == 200 and s.sources["model.max_tokens"] == f"project {proj}"
    assert s.model.url == "http://env:3/v1" and s.sources["model.url"] == "env KGEN_LLM_URL"
    assert s.agent.build_repairs == 7 and s.sources["agent.build_repairs"] == "env KGEN_AGENT__BUILD_REPAIRS"
    assert s.model.stream is False
    assert s.agent.samples == 5 and s.sources["agent.samples"] == "command line"
    assert s.sources["model.name"] == "default"                    # a flag that was not given changes nothing
    s2 = load_settings(cwd=home / "proj", env={}, overrides={"model": {"url": "http://flag:4/v1"}})
    assert s2.model.url == "http://flag:4/v1"


def test_nearest_project_file_wins(home):
    write(home / "proj" / "kgen.toml", '[agent]\nsamples = 2\n')
    inner = write(home / "proj" / "sub" / "kgen.toml", '[agent]\nsamples = 3\n')
    s = load_settings(cwd=home / "proj" / "sub" / "deeper", env={})
    assert s.agent.samples == 3 and s.sources["agent.samples"] == f"project {inner}"


def test_relative_paths_are_relative_to_their_file(home):
    write(home / "proj" / "kgen.toml", '[agent]\ndata_dir = "state/kgen"\n')
    s = load_settings(cwd=home / "proj" / "sub", env={})
    assert s.agent.data_dir == home / "proj" / "state" / "kgen"


@pytest.mark.parametrize("text, words", [
    ('[model]\nurll = "x"\n', ["kgen.toml", "unknown key 'model.urll'", "url"]),
    ('[modle]\nurl = "x"\n', ["kgen.toml", "unknown section [modle]"]),
    ('[model]\ntemperature = "hot"\n', ["kgen.toml", "'model.temperature' must be a number", "'hot'"]),
    ('[agent]\nsamples = 1.5\n', ["kgen.toml", "'agent.samples' must be an integer"]),
    ('[agent]\nretrieve = "yes"\n', ["kgen.toml", "'agent.retrieve' must be true or false"]),
    ('[agent]\nbackend = "gpu"\n', ["kgen.toml", "'agent.backend' must be one of sim, npu"]),
    ('[agent]\nsamples = 0\n', ["kgen.toml", "'agent.samples' must be at least 1"]),
    ('[model\nurl = 1\n', ["kgen.toml", "invalid TOML"]),
    ('model = 3\n', ["kgen.toml", "'model' must be a table"]),
])
def test_file_mistakes_name_the_file_and_key(home, text, words):
    write(home / "proj" / "kgen.toml", text)
    with pytest.raises(SettingsError) as ei:
        load_settings(cwd=home / "proj", env={})
    msg = str(ei.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


@pytest.mark.parametrize("env, words", [
    ({"KGEN_MAX_TOKENS": "lots"}, ["env KGEN_MAX_TOKENS", "'model.max_tokens' must be an integer"]),
    ({"KGEN_STREAM": "maybe"}, ["env KGEN_STREAM", "true or false"]),
    ({"KGEN_AGENT__NOPE": "1"}, ["env KGEN_AGENT__NOPE", "unknown key 'agent.nope'"]),
])
def test_env_mistakes_name_the_variable(home, env, words):
    with pytest.raises(SettingsError) as ei:
        load_settings(cwd=home / "proj", env=env)
    for w in words:
        assert w in str(ei.value)


def test_other_kgen_variables_are_left_alone(home):
    s = load_settings(cwd=home / "proj", env={"KGEN_SOC": "910B4", "KGEN_EMBEDDER": "hash"})
    assert s.model.url is None


def run_kgen(args, cwd, env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("KGEN_")}
    full.update(env)
    full["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], cwd=cwd, env=full, capture_output=True,
                          text=True, timeout=60)


def test_kgen_config_command(home):
    proj = write(home / "proj" / "kgen.toml", '[model]\nmax_tokens = 4096\n')
    env = {"XDG_CONFIG_HOME": str(home / "xdg"), "KGEN_LLM_URL": "http://127.0.0.1:8000/v1"}
    r = run_kgen(["config"], home / "proj" / "sub", env)
    assert r.returncode == 0, r.stderr
    lines = {ln.split("=")[0].strip(): ln for ln in r.stdout.splitlines() if not ln.startswith("#")}
    assert "http://127.0.0.1:8000/v1" in lines["model.url"] and "env KGEN_LLM_URL" in lines["model.url"]
    assert "4096" in lines["model.max_tokens"] and f"project {proj}" in lines["model.max_tokens"]
    assert "default" in lines["agent.build_repairs"]
    r = run_kgen(["config", "model", "--json"], home / "proj", env)
    data = json.loads(r.stdout)
    assert set(data) == {k for k in data if k.startswith("model.")} and data["model.max_tokens"]["value"] == 4096


def test_kgen_config_errors_are_one_line(home):
    write(home / "proj" / "kgen.toml", '[model]\ntemprature = 0.1\n')
    r = run_kgen(["config"], home / "proj", {"XDG_CONFIG_HOME": str(home / "xdg")})
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert r.stderr.startswith("kgen: error: ") and "unknown key 'model.temprature'" in r.stderr
    r = run_kgen(["config", "nosuch"], home, {"XDG_CONFIG_HOME": str(home / "xdg")})
    assert r.returncode == 2 and "unknown setting 'nosuch'" in r.stderr


def test_child_env_gives_a_child_the_same_tree(tmp_path):
    """What a parent hands a child process (agent_graph.settings.child_env), loaded back by the child's own
    load_settings, is the parent's tree: non-default values of every section, lists and paths included."""
    parent = load_settings(cwd=tmp_path, env={"KGEN_SOC": "910B4", "KGEN_AGENT__SAMPLES": "2",
                                              "KGEN_SERVE__EXTRA_ARGS": "--enforce-eager --seed 1",
                                              "KGEN_DATA_DIR": str(tmp_path / "data"), "KGEN_STREAM": "off"})
    env = child_env(parent)
    assert env["KGEN_BENCH__SOC"] == "910B4" and env["KGEN_AGENT__SAMPLES"] == "2"
    child = load_settings(cwd=tmp_path, env=env)
    for section in ("model", "agent", "serve", "bench", "docs"):
        assert getattr(child, section) == getattr(parent, section), section
