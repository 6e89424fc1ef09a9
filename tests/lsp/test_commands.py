"""The server's commands over stdio: kgen.benchmark (report + timeline PNG, work-done progress,
cancellation), kgen.fixCompileErrors (every deterministic quick fix, sent as workspace/applyEdit),
kgen.generate (offline drafter through agent_graph.api.run) and kgen.fixWithAssistant (the agent's
repair against the local scripted OpenAI server; the WorkspaceEdit carries the repaired file)."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from bench_bridge.perf import chrome_trace
from lsp.checks import check_text
from tests.lsp.client import ROOT, LspClient

ADD = ROOT / "examples/add/add.asc"


class Client(LspClient):
    """The test client, recording the server's requests (workspace/applyEdit...)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.server_requests: list[dict] = []

    def send(self, msg: dict) -> None:
        super().send(msg)

    def pump(self, until, timeout: float):
        """Read messages until ``until(msg)`` is true; answers server requests with null."""
        import queue

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                m = self.msgs.get(timeout=0.1)
            except queue.Empty:
                continue
            if "method" in m and "id" in m:
                self.server_requests.append(m)
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            elif "method" in m:
                self.notifications.append(m)
            if until(m):
                return m
        raise TimeoutError("no such message")

    def command(self, name: str, args: list, timeout: float = 180):
        self._id += 1
        rid = self._id
        self.send({"jsonrpc": "2.0", "id": rid, "method": "workspace/executeCommand",
                   "params": {"command": name, "arguments": args}})
        m = self.pump(lambda m: m.get("id") == rid and "method" not in m, timeout)
        assert "error" not in m, m
        return m["result"]


def _progress(c):
    return [n["params"] for n in c.notifications if n.get("method") == "$/progress"]


@pytest.fixture()
def client():
    c = Client(timeout=60)
    try:
        c.initialize({"window": {"workDoneProgress": True}, "workspace": {"applyEdit": True}})
        yield c
    finally:
        c.close()


def test_benchmark_program_report_and_picture(client, tmp_path):
    f = tmp_path / "add.asc"
    shutil.copy(ADD, f)
    r = client.command("kgen.benchmark", [f.as_uri()])
    assert r["status"] == "done" and r["target"]["kind"] == "program"
    rep = r["report"]
    assert rep["schema"] == "kgen.bench-report" and rep["correct"] and rep["compiled"]
    assert rep["cases"][0]["status"] == "pass" and rep["performance"]["modelled_us"][0] > 0
    assert json.loads(open(r["report_path"]).read())["correct"]
    png = open(r["png"], "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    # the picture and the trace are the report's own artifacts, kept beside its report.json
    arts = rep["artifacts"]
    assert r["png"] == arts["timeline_png"] and r["trace"] == arts["trace"]
    assert Path(arts["dir"]) == Path(r["report_path"]).parent == Path(r["png"]).parent
    trace = json.loads(open(r["trace"]).read())
    assert chrome_trace.validate(trace) == []
    assert [e["name"] for e in trace["traceEvents"] if e.get("cat") == "V"] == ["Add"] * 64   # add.asc: 8 blocks x 8 tiles
    prog = _progress(client)
    kinds = [p["value"]["kind"] for p in prog]
    assert kinds[0] == "begin" and kinds[-1] == "end" and "report" in kinds
    assert any("building add.asc" in (p["value"].get("message") or "") for p in prog)
    assert any(q["method"] == "window/workDoneProgress/create" for q in client.server_requests)


def test_benchmark_cancelled_from_the_progress(client, tmp_path):
    proj = _bench_project(tmp_path)
    client._id += 1
    rid = client._id
    client.send({"jsonrpc": "2.0", "id": rid, "method": "workspace/executeCommand",
                 "params": {"command": "kgen.benchmark", "arguments": [(proj / "op_kernel/elt_add.cpp").as_uri()]}})
    begin = client.pump(lambda m: m.get("method") == "$/progress" and m["params"]["value"]["kind"] == "begin", 60)
    assert begin["params"]["value"]["cancellable"] is True
    t0 = time.monotonic()
    client.notify("window/workDoneProgress/cancel", {"token": begin["params"]["token"]})
    m = client.pump(lambda m: m.get("id") == rid and "method" not in m, 60)
    assert m["result"] == {"status": "cancelled"}
    assert time.monotonic() - t0 < 15          # the bench child was killed, not waited for
    assert _children_of(str(proj)) == []


def _bench_project(tmp_path):
    proj = tmp_path / "elt_add"
    shutil.copytree(ROOT / "tests/data/projects/elt_add", proj)
    (proj / "kgen-task.toml").write_text('name = "elt_add"\nreference = "reference.py"\nproject = "."\n\n'
                                         '[[cases]]\ninputs = [{ shape = [4096], dtype = "float32" }, '
                                         '{ shape = [4096], dtype = "float32" }]\n')
    (proj / "reference.py").write_text("import torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                                       "    def forward(self, x, y):\n        return x + y\n")
    return proj


def _children_of(marker: str) -> list[str]:
    """Command lines of the running processes that mention ``marker``."""
    import os

    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if marker in cmd and "lsp.benchjob" in cmd:
                out.append(cmd)
    return out


def test_benchmark_cancelled_by_cancel_request(client, tmp_path):
    proj = _bench_project(tmp_path)
    client._id += 1
    rid = client._id
    client.send({"jsonrpc": "2.0", "id": rid, "method": "workspace/executeCommand",
                 "params": {"command": "kgen.benchmark", "arguments": [(proj / "op_kernel/elt_add.cpp").as_uri()]}})
    client.pump(lambda m: m.get("method") == "$/progress" and m["params"]["value"]["kind"] == "begin", 60)
    deadline = time.monotonic() + 20
    while not _children_of(str(proj)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _children_of(str(proj))            # the bench runs in its child process
    client.notify("$/cancelRequest", {"id": rid})
    m = client.pump(lambda m: m.get("id") == rid and "method" not in m, 30)
    assert m["error"]["code"] == -32800       # RequestCancelled
    deadline = time.monotonic() + 10
    while _children_of(str(proj)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _children_of(str(proj)) == []      # and the child was killed


def test_fix_compile_errors_applies_every_quick_fix(client, tmp_path):
    text = ADD.read_text().replace("constexpr uint32_t TILE = 1024;", "constexpr uint32_t TILE = 1000;")
    text = text.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Addd(z, x, y, TILE);")
    text = text.replace("        outZ_.FreeTensor(z);\n", "")
    f = tmp_path / "add.asc"
    f.write_text(text)
    client.open(f.as_uri(), text)
    r = client.command("kgen.fixCompileErrors", [f.as_uri()])
    assert len(r["fixes"]) == 5 and "Replace 'Addd' with 'Add'" in r["fixes"]
    (edit,) = r["edit"]["changes"][f.as_uri()]
    fixed = edit["newText"]
    assert check_text(fixed) == [] and "AscendC::Add(z, x, y, TILE);" in fixed and fixed.count("DataCopyPad(") == 3
    assert edit["range"]["start"] == {"line": 0, "character": 0}
    assert edit["range"]["end"]["line"] == text.count("\n")
    (applied,) = [q for q in client.server_requests if q["method"] == "workspace/applyEdit"]
    assert applied["params"]["edit"]["changes"][f.as_uri()][0]["newText"] == fixed


def _broken_add() -> str:
    text = ADD.read_text().replace("constexpr uint32_t TILE = 1024;", "constexpr uint32_t TILE = 1000;")
    text = text.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Addd(z, x, y, TILE);")
    return text.replace("        outZ_.FreeTensor(z);\n", "")


def _actions(c, uri, only=None, at=(0, 0)):
    ctx = {"diagnostics": []}
    if only is not None:
        ctx["only"] = only
    p = {"line": at[0], "character": at[1]}
    return c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": p, "end": p},
                                                 "context": ctx})


def test_fix_all_and_fix_with_assistant_code_actions(client, tmp_path):
    text = _broken_add()
    f = tmp_path / "add.asc"
    f.write_text(text)
    client.open(f.as_uri(), text)
    # the client asks for source.fixAll (e.g. on save): the edit itself
    (fa,) = _actions(client, f.as_uri(), only=["source.fixAll"])
    assert fa["kind"] == "source.fixAll" and fa["title"] == "Apply all kgen quick fixes (5)"
    (edit,) = fa["edit"]["changes"][f.as_uri()]
    assert check_text(edit["newText"]) == []
    # the light bulb: a command that runs kgen.fixCompileErrors; no assistant outside an op project
    acts = _actions(client, f.as_uri())
    cmd = [a for a in acts if a.get("command")]
    assert [a["command"]["command"] for a in cmd] == ["kgen.fixCompileErrors"]
    assert cmd[0]["command"]["arguments"] == [f.as_uri()]
    # a file of an op project with an error: "Fix with assistant"
    proj = _bench_project(tmp_path)
    kern = proj / "op_kernel/elt_add.cpp"
    ktext = kern.read_text().replace("AscendC::Add(zl, xl, yl, n);", "AscendC::Addd(zl, xl, yl, n);")
    client.open(kern.as_uri(), ktext)
    line = ktext.count("\n", 0, ktext.index("AscendC::Addd"))
    acts = _actions(client, kern.as_uri(), at=(line, ktext.split("\n")[line].index("Addd") + 1))
    assert acts[0]["title"] == "Replace 'Addd' with 'Add'"
    (fw,) = [a for a in acts if a.get("command", {}).get("command") == "kgen.fixWithAssistant"]
    assert fw["kind"] == "quickfix" and fw["command"]["arguments"] == [kern.as_uri()]
    assert not any(a.get("command", {}).get("command") == "kgen.fixWithAssistant"
                   for a in _actions(client, f.as_uri(), only=["quickfix"]))


def test_unknown_file_is_a_clear_error(client, tmp_path):
    f = tmp_path / "notes.md"
    f.write_text("hello")
    r = client.command("kgen.benchmark", [f.as_uri()])
    assert r["status"] == "error" and "neither a kernel-launch program" in r["message"]
    assert client.command("kgen.generate", [{}])["status"] == "error"


@pytest.mark.slow
def test_benchmark_project_against_its_spec(client, tmp_path):
    proj = _bench_project(tmp_path)
    r = client.command("kgen.benchmark", [(proj / "op_kernel/elt_add.cpp").as_uri()], timeout=600)
    assert r["status"] == "done" and r["target"] == {"kind": "project", "path": str(proj.resolve())}
    rep = r["report"]
    assert rep["correct"] and [c["status"] for c in rep["cases"]] == ["pass"]
    assert open(r["png"], "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert r["png"] == rep["artifacts"]["timeline_png"] and list(rep["artifacts"]["cases"]) == ["0"]
    # the report is left in the project, where the on-save diagnostics find it again
    assert json.loads((proj / "report.json").read_text())["correct"] is True


def test_project_without_a_task_is_a_clear_error(client, tmp_path):
    proj = tmp_path / "elt_add"
    shutil.copytree(ROOT / "tests/data/projects/elt_add", proj)
    r = client.command("kgen.benchmark", [(proj / "op_kernel/elt_add.cpp").as_uri()])
    assert r["status"] == "error" and "no task to bench the project against" in r["message"]


@pytest.mark.slow
def test_generate_offline(client, tmp_path):
    out = tmp_path / "gen"
    r = client.command("kgen.generate", [{"task": str(ROOT / "examples/tasks/add/kgen-task.toml"), "output": str(out),
                                          "offline": True}], timeout=600)
    assert r["status"] == "verified", r["message"]
    project = r["project"]
    assert project and (ROOT / project if not project.startswith("/") else __import__("pathlib").Path(project)).is_dir()
    assert r["report"]["correct"] is True
    assert any(p["value"]["kind"] == "report" for p in _progress(client))


@pytest.mark.slow
def test_fix_with_assistant_against_scripted_model(tmp_path, monkeypatch):
    from tests.agent_graph import scripted_kernels as sk
    from tests.agent_graph.openai_server import ScriptedOpenAI

    proj = tmp_path / "add_custom"
    for rel, text in sk.HALLUCINATED.items():
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)
    kernel = proj / f"op_kernel/{sk.OP}.cpp"
    monkeypatch.setenv("KGEN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KGEN_AGENT__RETRIEVE", "false")
    monkeypatch.setenv("KGEN_AGENT__PROFILE", "false")
    with ScriptedOpenAI([sk.reply(sk.GOOD)]) as srv:
        c = Client(timeout=60)
        try:
            c.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(),
                                     "capabilities": {"window": {"workDoneProgress": True}},
                                     "initializationOptions": {"model": {"url": srv.url}}}, timeout=60)
            c.notify("initialized", {})
            c.open(kernel.as_uri(), kernel.read_text())
            r = c.command("kgen.fixWithAssistant", [kernel.as_uri(), {"task": str(sk.TASK)}], timeout=900)
        finally:
            c.close()
        assert srv.requests, "the agent never asked the model"
    assert r["status"] == "verified", r
    assert kernel.as_uri() in r["changed"]
    (edit,) = r["edit"]["changes"][kernel.as_uri()]
    assert "AscendC::Add(zl, xl, yl, n);" in edit["newText"] and "ElementwiseAdd" not in edit["newText"]
    assert edit["newText"] == kernel.read_text()
    # the file changed on disk: the range runs past the end so it replaces whatever the editor holds
    assert edit["range"]["start"] == {"line": 0, "character": 0}
    assert edit["range"]["end"]["line"] > edit["newText"].count("\n")
