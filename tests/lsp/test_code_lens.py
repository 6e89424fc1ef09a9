"""Code lenses above the hot lines after a benchmark (issue 22): the server answers textDocument/codeLens
with "kgen: 12.4% of modelled time (..), MTE2 bound" above each line of the file that spent at least 1%
of the modelled kernel time in the last bench, and asks the client to refresh its lenses when a bench ends."""
from __future__ import annotations

import shutil

from lsp.lenses import PIPE_WORDS, hot_line_lenses
from tests.lsp.client import ROOT
from tests.lsp.test_commands import Client

ADD = ROOT / "examples/add/add.asc"


def test_lenses_after_a_benchmark_sit_on_the_hot_lines(tmp_path):
    f = tmp_path / "add.asc"
    shutil.copy(ADD, f)
    text = f.read_text().splitlines()
    uri = f.as_uri()
    c = Client(timeout=60)
    try:
        c.initialize({"window": {"workDoneProgress": True}, "workspace": {"codeLens": {"refreshSupport": True}}})
        c.open(uri, f.read_text())
        assert c.request("textDocument/codeLens", {"textDocument": {"uri": uri}}) == []   # nothing benched yet
        r = c.command("kgen.benchmark", [uri])
        assert r["status"] == "done" and r["report"]["correct"]
        assert any(q["method"] == "workspace/codeLens/refresh" for q in c.server_requests)
        lenses = c.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
    finally:
        c.close()
    hot = {h["line"]: h for h in r["report"]["cases"][0]["performance"]["hot_lines"]
           if h["file"] == str(f) and h["percent"] >= 1.0}
    assert hot, "add.asc's copies and Add are hot lines"
    got = {ls["range"]["start"]["line"] + 1: ls["command"]["title"] for ls in lenses}
    assert set(got) == set(hot)
    for line, title in got.items():
        h = hot[line]
        assert title.startswith(f"kgen: {h['percent']:.1f}% of modelled time ({h['us']:.2f} us)")
        assert title.endswith(PIPE_WORDS[h["pipe"]])
        # the lens is above the call that spent the time (the user's line, not the emulator's)
        assert any(api in text[line - 1] for api in h["apis"]), (line, text[line - 1], h["apis"])
    assert any("DataCopy" in text[ln - 1] for ln in got) and any("Add(" in text[ln - 1] for ln in got)


def test_lenses_show_the_slowest_case_and_only_this_file(tmp_path):
    k = tmp_path / "k.asc"
    k.write_text("x\n" * 30)

    def case(cid, us, rows):
        return {"case_id": cid, "status": "pass", "performance": {"modelled_us": us, "hot_lines": [
            {"site": f"{file}:{line}", "file": file, "line": line, "us": us * pct / 100, "percent": pct,
             "pipe": pipe, "apis": apis} for file, line, pct, pipe, apis in rows]}}

    report = {"cases": [
        case("0", 2.0, [(str(k), 10, 90.0, "MTE2", ["DataCopy"])]),
        case("1", 8.0, [(str(k), 12, 60.0, "V", ["Add"]), (str(k), 20, 0.5, "MTE3", ["DataCopy"]),
                        ("/elsewhere/h.h", 3, 30.0, "S", []), ("", 0, 9.5, "launch", [])]),
    ]}
    (lens,) = hot_line_lenses(report, k)
    assert lens.line == 11 and lens.case_id == "1"
    assert lens.title == "kgen: 60.0% of modelled time (4.80 us, case 1), vector bound"
    assert hot_line_lenses({"cases": [{"case_id": "0", "status": "fail", "performance": None}]}, k) == []
    assert hot_line_lenses(None, k) == []
