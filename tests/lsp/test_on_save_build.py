"""On save: the emulator build's diagnostics mapped to the right file and line (source kgen-sim), a
superseded build cancelled, the run-time findings of the last bench, and kgen.buildDiagnostics.
Real server over stdio, real g++ builds."""
from __future__ import annotations

import shutil
import time
import uuid

import pytest

from tests.lsp.client import ROOT, LspClient

ADD = (ROOT / "examples/add/add.asc").read_text()
SIM = "kgen-sim"


def _line(text: str, needle: str) -> int:
    return text.count("\n", 0, text.index(needle))


@pytest.fixture()
def client():
    c = LspClient(timeout=90)
    try:
        c.initialize({"window": {"workDoneProgress": True}})
        yield c
    finally:
        c.close()


def _sim(c, uri, pred=lambda ds: True, timeout=120):
    p = c.wait_notification("textDocument/publishDiagnostics",
                            lambda p: p["uri"] == uri and pred([d for d in p["diagnostics"] if d.get("source") == SIM]),
                            timeout=timeout)
    return [d for d in p["diagnostics"] if d.get("source") == SIM]


def _save(c, path, text):
    path.write_text(text)
    c.notify("textDocument/didSave", {"textDocument": {"uri": path.as_uri()}})


def test_program_build_error_on_save(client, tmp_path):
    c = client
    f = tmp_path / "add.asc"
    text = ADD.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Add(z, x, yy, TILE);")
    f.write_text(text)
    c.open(f.as_uri(), text)
    c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == f.as_uri())
    _save(c, f, text)
    # the build runs in a child process: the server answers a hover at once meanwhile
    t0 = time.monotonic()
    hov = c.request("textDocument/hover", {"textDocument": {"uri": f.as_uri()},
                                           "position": {"line": _line(text, "AscendC::Add(z"), "character": 18}})
    assert time.monotonic() - t0 < 1.0 and "Add" in hov["contents"]["value"]
    assert not any(d.get("source") == SIM for n in c.notifications if n.get("method") == "textDocument/publishDiagnostics"
                   for d in n["params"]["diagnostics"])     # the build had not finished when the hover came back
    (d,) = _sim(c, f.as_uri(), lambda ds: len(ds) > 0)
    line = _line(text, "AscendC::Add(z, x, yy")
    col = text.split("\n")[line].index("yy")
    assert d["range"]["start"] == {"line": line, "character": col} and d["range"]["end"]["character"] == col + 2
    msg = d["message"].replace("\u2018", "'").replace("\u2019", "'")
    assert "'yy' was not declared" in msg or "undeclared identifier 'yy'" in msg    # g++ / clang++ wording
    assert d["severity"] == 1 and d["code"] == "compile"
    # fixed and saved again: the emulator's diagnostics go away
    c.notifications.clear()
    _save(c, f, ADD)
    assert _sim(c, f.as_uri(), lambda ds: ds == []) == []


def test_superseded_build_is_cancelled(client, tmp_path):
    c = client
    f = tmp_path / "add.asc"
    first = ADD.replace("AscendC::Add(z, x, y, TILE);", f"AscendC::Add(z, x, first_{uuid.uuid4().hex[:6]}, TILE);")
    second = ADD.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Add(z, x, second_name, TILE);")
    c.open(f.as_uri(), first)
    _save(c, f, first)
    _save(c, f, second)
    log = c.wait_notification("window/logMessage", lambda p: "superseded build" in p["message"], timeout=30)
    assert "add.asc" in log["message"]
    ds = _sim(c, f.as_uri(), lambda ds: len(ds) > 0)
    assert "second_name" in ds[0]["message"]
    published = [n for n in c.notifications if n.get("method") == "textDocument/publishDiagnostics"]
    assert not any("first_" in d["message"] for n in published for d in n["params"]["diagnostics"])


def test_bench_runtime_findings_are_published_and_kept_on_save(client, tmp_path):
    c = client
    f = tmp_path / "add.asc"
    text = ADD.replace("xGm_.SetGlobalBuffer((__gm__ half*)x + offset, blockLength_);",
                       "xGm_.SetGlobalBuffer((__gm__ half*)x + offset, blockLength_ / 2);")
    f.write_text(text)
    c.open(f.as_uri(), text)
    r = c.request("workspace/executeCommand", {"command": "kgen.benchmark", "arguments": [f.as_uri()]}, timeout=180)
    assert r["status"] == "done" and r["report"]["schema"] == "kgen.bench-report"
    ds = _sim(c, f.as_uri(), lambda ds: any(d["code"] == "gm-view-overrun" for d in ds))
    d = next(d for d in ds if d["code"] == "gm-view-overrun")
    assert d["range"]["start"]["line"] == _line(text, "AscendC::DataCopy(x, xGm_") and d["severity"] == 2
    assert "[case 0]" in d["message"] and "(block " in d["message"]
    # a later save rebuilds (no build errors) and still shows the last bench's findings
    c.notifications.clear()
    _save(c, f, text)
    ds = _sim(c, f.as_uri(), lambda ds: True)
    assert [x["code"] for x in ds] == ["gm-view-overrun"]


def test_build_diagnostics_command(client, tmp_path):
    c = client
    f = tmp_path / "prog.asc"
    text = ADD.replace("outZ_.FreeTensor(z);", "outZ_.FreeTensor(z, 3);")
    f.write_text(text)
    res = c.request("workspace/executeCommand", {"command": "kgen.buildDiagnostics", "arguments": [f.as_uri()]},
                    timeout=180)
    errs = [x for x in res if x["severity"] == "error"]
    assert errs and errs[0]["file"] == str(f.resolve()) and errs[0]["line"] == _line(text, "outZ_.FreeTensor(z, 3)")
    # begin/end work-done progress around the build
    kinds = [n["params"]["value"]["kind"] for n in c.notifications if n.get("method") == "$/progress"]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    bad = c.request("workspace/executeCommand", {"command": "kgen.buildDiagnostics",
                                                 "arguments": [(tmp_path / "notes.txt").as_uri()]})
    assert bad["status"] == "error" and "neither a kernel-launch program" in bad["message"]


@pytest.mark.slow
def test_project_errors_map_to_their_files(client, tmp_path):
    c = client
    proj = tmp_path / "elt_add"
    shutil.copytree(ROOT / "tests/data/projects/elt_add", proj)
    kern = proj / "op_kernel/elt_add.cpp"
    host = proj / "op_host/elt_add.cpp"
    ktext = kern.read_text().replace("tile_ = t.tileLength;", "tile_ = t.tileLengthh;")
    c.open(kern.as_uri(), ktext)
    _save(c, kern, ktext)
    ds = _sim(c, kern.as_uri(), lambda ds: len(ds) > 0, timeout=240)
    assert ds[0]["range"]["start"]["line"] == _line(ktext, "tile_ = t.tileLengthh;") and "tileLengthh" in ds[0]["message"]
    # an error in op_host while saving the kernel: published on the op_host file, the kernel's cleared
    htext = host.read_text()
    needle = "context->SetBlockDim("
    assert needle in htext
    c.notifications.clear()
    host.write_text(htext.replace(needle, "context->SetBlockDimm(", 1))
    _save(c, kern, kern.read_text().replace("tileLengthh", "tileLength"))
    hd = _sim(c, host.as_uri(), lambda ds: len(ds) > 0, timeout=240)
    assert hd[0]["range"]["start"]["line"] == _line(host.read_text(), "SetBlockDimm(") and "SetBlockDimm" in hd[0]["message"]
    assert _sim(c, kern.as_uri(), lambda ds: ds == [], timeout=30) == []


def test_shutdown_kills_a_running_build(tmp_path):
    import os

    f = tmp_path / "add.asc"
    text = ADD.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Add(z, x, y_shut, TILE);")
    c = LspClient(timeout=30)
    try:
        c.initialize()
        c.open(f.as_uri(), text)
        _save(c, f, text)

        def builds():
            out = []
            for pid in os.listdir("/proc"):
                try:
                    cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                if "lsp.simbuild" in cmd and str(f) in cmd:
                    out.append(pid)
            return out

        deadline = time.monotonic() + 20
        while not builds() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert builds()
        c.request("shutdown", {}, timeout=10)
        deadline = time.monotonic() + 0.5         # a build takes seconds; the kill takes milliseconds
        while builds() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert builds() == []
    finally:
        c.close()


def test_build_on_save_can_be_turned_off(client, tmp_path):
    c = client
    c.notify("workspace/didChangeConfiguration", {"settings": {"kgen": {"buildOnSave": False}}})
    f = tmp_path / "add.asc"
    text = ADD.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Add(z, x, y_off, TILE);")
    c.open(f.as_uri(), text)
    c.notifications.clear()
    _save(c, f, text)
    c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == f.as_uri())   # the checks
    with pytest.raises(TimeoutError):
        _sim(c, f.as_uri(), lambda ds: len(ds) > 0, timeout=8)
    # on request it still builds
    res = c.request("workspace/executeCommand", {"command": "kgen.buildDiagnostics", "arguments": [f.as_uri()]},
                    timeout=120)
    assert any("y_off" in x["message"] for x in res)
