"""The panels render a run from its events alone (a hand-made run fed through the app's job plumbing)."""
from __future__ import annotations

import pytest
from textual.widgets import DataTable, OptionList

from tests.assistant.tui.helpers import KERNEL_V0, KERNEL_V1, SIZE, chat_text, make_app, plain, replay, sample_events, submit, \
    wait_until


@pytest.mark.anyio
async def test_a_run_fills_workflow_files_diff_and_results(tmp_path):
    proj = tmp_path / "proj"
    (proj / "op_kernel").mkdir(parents=True)
    (proj / "op_host").mkdir()
    (proj / "op_kernel" / "add_custom.cpp").write_text(KERNEL_V1)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        replay(app, sample_events(str(proj)))
        await wait_until(pilot, lambda: app.view.status == "verified" and not app.busy, 30, "the replayed run")
        flow = plain(app.query_one("#workflow"))
        for label in ("build 1/5", "repair 1/4", "build 2/5", "2/2 cases correct", "status: verified"):
            assert label in flow, flow
        assert [ln.split()[0] for ln in flow.splitlines() if "build" in ln] == ["✗", "✓"]
        # files: kernel first, highlighted view shows the repaired text
        names = [o.id for o in app.query_one("#file-list", OptionList).options]
        assert names == ["op_kernel/add_custom.cpp", "op_host/add_custom_tiling.h", "op_host/add_custom.cpp"]
        assert "AscendC::Add(zLocal" in plain(app.query_one("#file-view"))
        # diff of the repair
        diff = plain(app.query_one("#diff-text"))
        assert "round 1 (build repair) vs round 0 (draft)" in diff and "-    AscendC::ElementwiseAdd" in diff
        # results: one row per case, totals, bound, chart of the pipe busy fractions
        table = app.query_one("#results-table", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [r[:2] for r in rows] == [["even", "PASS"], ["tail", "PASS"]]
        assert rows[0][2:6] == ["12.50", "1.25x", "MTE2", "48x64 (+1)"] and rows[1][2] == "7.25"
        summary = plain(app.query_one("#results-summary"))
        assert "CORRECT" in summary and "modelled time per case: 7.25 to 12.50 us (2 cases)" in summary and "1.25x" in summary
        detail = plain(app.query_one("#results-detail"))
        mte2 = next(line for line in detail.splitlines() if line.startswith("MTE2"))
        assert mte2.count("█") == 18 and "75.0%" in mte2          # 0.75 of a 24-cell bar
        assert app.query_one("#tabs").active == "tab-results"
        # the chat: the streamed token, the compiler's complaint, the repair, the verdict
        text = chat_text(app)
        assert "Drafting the add kernel." in text
        assert "round 0: 1 error(s); first: `add_custom.cpp:8: no member named 'ElementwiseAdd'" in text
        assert "round 1 (build repair): changed op_kernel/add_custom.cpp" in text
        assert "**verified**: AddCustom verified: 2/2 cases correct (round 1)" in text
        assert "verified" in plain(app.query_one("#status"))
        saved = [(m.role, m.text) for m in app.session.messages()]
        assert ("assistant", "Drafting the add kernel.") in saved      # the streamed reply is in the transcript
        # /undo puts the draft back on disk; the diff view empties
        await submit(pilot, "/undo")
        assert (proj / "op_kernel" / "add_custom.cpp").read_text() == KERNEL_V0
        assert "restored round 0 (draft)" in chat_text(app)
        assert "No repair yet" in plain(app.query_one("#diff-text"))
        await submit(pilot, "/undo")
        assert chat_text(app).endswith("nothing to undo: this run has no repair round")
        # /save copies the project
        await submit(pilot, f"/save {tmp_path / 'saved'}")
        assert (tmp_path / "saved" / "op_kernel" / "add_custom.cpp").read_text() == KERNEL_V0
        assert (tmp_path / "saved" / "report.json").exists()


@pytest.mark.anyio
async def test_bad_input_is_a_message_in_the_chat_not_a_crash(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for line, expected in [("/frobnicate", "unknown command /frobnicate"),
                               ("/bench no/such/file.asc", "no such file or directory: no/such/file.asc"),
                               ("/generate", "no task yet"),
                               ("/undo", "nothing to undo"),
                               ("/fix", "no current project: not in an op project"),
                               ("/fix README.md", "README.md: not in an op project"),
                               ("/bench", "nothing to bench yet"),
                               ("/save out", "nothing to save"),
                               ("/resume nosuch", "no session 'nosuch'"),
                               ("/model ftp://x", "/model takes an endpoint URL"),
                               ("softmax over the last dim for fp16 [B, 4096]", "describing a kernel in words needs a model"),
                               ("/open README.md", "opened `README.md`")]:
            await submit(pilot, line)
            role, text = app.chat.texts[-1]
            assert expected in text, (line, text)
            assert role == ("system" if line.startswith("/open") else "error"), line
        assert app.is_running


@pytest.mark.anyio
async def test_tab_completes_commands_and_paths_and_model_switch_shows(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        prompt = app.query_one("#prompt")
        await pilot.press("/", "b", "e", "n")
        await pilot.press("tab")
        assert prompt.value == "/bench "
        await pilot.press(*"examples/ad")
        await pilot.press("tab")
        assert prompt.value == "/bench examples/add/"
        prompt.value = "/b"
        await pilot.press("tab")
        await pilot.pause()
        assert prompt.value == "/b" and "/bench" in plain(app.query_one("#completions"))
        await submit(pilot, "/model http://127.0.0.1:9/v1")
        assert "@ http://127.0.0.1:9/v1" in plain(app.query_one("#status")) and "(model)" in plain(app.query_one("#status"))
        assert app.sub_title.endswith("@ http://127.0.0.1:9/v1")
        await submit(pilot, "/model off")
        assert "offline drafter" in plain(app.query_one("#status"))
        await submit(pilot, "/backend npu")
        assert "backend npu" in plain(app.query_one("#status")) and app.agent.backend == "npu"
