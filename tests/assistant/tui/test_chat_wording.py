"""Issue 22 item 7, the chat's smaller defects, each as a user sees it in the Pilot app:

- the results table fits the results tab at 160 columns (it was cut off: long shapes, all columns);
- the summary does not add up the modelled times of different shapes: one case says its time, several say
  their range per case;
- a run of the offline drafter (which never repairs) and a bench show "build", not "build 1/5";
- the status bar says "offline drafter" once, not "offline drafter (offline)".
"""
from __future__ import annotations

import pytest
from textual.widgets import DataTable

from agent_graph.events import NodeFinished, NodeStarted, RunFinished, RunStarted
from tests.assistant.tui.helpers import make_app, plain, replay, sample_report, wait_until


def _long_report() -> dict:
    rep = sample_report("proj")
    for c in rep["cases"]:
        c["case_id"] = f"{c['case_id']}-batched-multicore-bf16"
        c["input_shapes"] = [[16, 4096, 11008], [16, 4096, 11008], [11008]]
        c["dtypes"] = ["bfloat16", "bfloat16", "bfloat16"]
        c["performance"]["bound"] = "MTE2 (GM->UB copies: 93% of the block time)"
    return rep


@pytest.mark.anyio
async def test_the_results_table_fits_the_tab_at_160_columns(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        app.results.show_report(_long_report())
        app.action_show_tab("tab-results")
        await pilot.pause()
        table = app.query_one("#results-table", DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width, \
            (table.virtual_size, table.scrollable_content_region)
        labels = [str(c.label) for c in table.columns.values()]
        assert labels[:3] == ["case", "result", "time us"]
        # what does not fit is in the shown case's detail, not lost
        detail = plain(app.query_one("#results-detail"))
        assert "16x4096x11008" in detail and "bfloat16" in detail


@pytest.mark.anyio
async def test_a_wide_terminal_shows_every_column(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(260, 40)) as pilot:
        app.results.show_report(_long_report())
        app.action_show_tab("tab-results")
        await pilot.pause()
        table = app.query_one("#results-table", DataTable)
        assert [str(c.label) for c in table.columns.values()] == ["case", "result", "time us", "speedup", "bound",
                                                                  "shape", "dtype", "max abs err"]


@pytest.mark.anyio
async def test_the_summary_gives_times_per_case_not_a_sum_over_shapes(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.results.show_report(sample_report("proj"))
        await pilot.pause()
        summary = plain(app.query_one("#results-summary"))
        assert "19.75" not in summary and "over 2 case(s)" not in summary
        assert "modelled time per case: 7.25 to 12.50 us (2 cases)" in summary
        one = sample_report("proj")
        one["cases"] = one["cases"][:1]
        one["performance"]["modelled_us"] = [12.5]
        app.results.show_report(one)
        await pilot.pause()
        assert "modelled time: 12.50 us" in plain(app.query_one("#results-summary"))


def _build_run(model: str) -> list:
    return [RunStarted("r-1", "runs/r-1", model, "add/kgen-task.toml"), NodeStarted("build"),
            NodeFinished("build", True, "compiled", 1.0), RunFinished("r-1", "verified", "ok")]


@pytest.mark.anyio
async def test_an_offline_run_shows_build_without_a_repair_budget(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        replay(app, _build_run("offline drafter"))
        await wait_until(pilot, lambda: app.view.status == "verified" and not app.busy, 30, "the run")
        flow = plain(app.query_one("#workflow"))
        assert "build" in flow and "build 1/" not in flow, flow


@pytest.mark.anyio
async def test_a_model_run_shows_its_build_budget(tmp_path):
    app = make_app(tmp_path, url="http://127.0.0.1:9/v1")
    async with app.run_test(size=(120, 40)) as pilot:
        replay(app, _build_run("model @ http://127.0.0.1:9/v1"))
        await wait_until(pilot, lambda: app.view.status == "verified" and not app.busy, 30, "the run")
        assert "build 1/5" in plain(app.query_one("#workflow"))


@pytest.mark.anyio
async def test_a_bench_shows_build_without_a_repair_budget(tmp_path):
    app = make_app(tmp_path, url="http://127.0.0.1:9/v1")
    async with app.run_test(size=(120, 40)) as pilot:
        app.start_job("bench add.asc", "bench", "add.asc",
                      lambda post, cancel: [post(e) for e in [RunStarted("bench-add", "", "", "add.asc"),
                                                              NodeStarted("build"),
                                                              NodeFinished("build", True, "compiled", 1.0),
                                                              RunFinished("bench-add", "verified", "ok")]])
        await wait_until(pilot, lambda: app.view.status == "verified" and not app.busy, 30, "the bench")
        flow = plain(app.query_one("#workflow"))
        assert "build" in flow and "build 1/" not in flow, flow


@pytest.mark.anyio
async def test_the_status_bar_names_the_offline_drafter_once(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        status = plain(app.query_one("#status"), width=120)
        assert "offline drafter" in status and "(offline)" not in status, status


@pytest.mark.anyio
async def test_the_case_detail_shows_where_the_time_goes(tmp_path):
    """Issue 22 (costs per source line): the chat's results show the shown case's hot lines."""
    rep = sample_report("proj")
    hot = [{"site": "/w/k.asc:37", "us": 6.0, "percent": 48.0, "pipe": "MTE2", "apis": ["DataCopy"],
            "pipe_us": {"MTE2": 6.0}, "file": "/w/k.asc", "line": 37},
           {"site": "(launch overhead)", "us": 5.0, "percent": 40.0, "pipe": "launch", "apis": [],
            "pipe_us": {"launch": 5.0}, "file": "", "line": 0}]
    hot += [{"site": f"/w/k.asc:{n}", "us": 0.25, "percent": 2.0, "pipe": "V", "apis": ["Add"],
             "pipe_us": {"V": 0.25}, "file": "/w/k.asc", "line": n} for n in range(40, 46)]
    rep["cases"][0]["performance"]["hot_lines"] = hot
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        app.results.show_report(rep)
        app.action_show_tab("tab-results")
        await pilot.pause()
        detail = plain(app.query_one("#results-detail"), width=80)
        assert "where the time goes (adds up to the modelled time):" in detail
        assert " 48.0% MTE2   k.asc:37  DataCopy" in detail
        assert " 40.0% launch (launch overhead)" in detail
        assert "  4.0% (2 more)" in detail


@pytest.mark.anyio
async def test_a_failing_programs_finding_is_in_its_case_detail(tmp_path):
    """Issue 22 item 1 in the chat: /bench of a program whose DataCopy drops elements shows the
    datacopy-rounded warning (its kernel line) with the FAIL, in the case's detail. A real /bench."""
    from tests.assistant.tui.helpers import REPO, submit

    kernel = REPO / "tests" / "bench_bridge" / "kernels" / "rounded_copy.asc"
    line = next(i for i, t in enumerate(kernel.read_text().splitlines(), 1) if "@rounded" in t)
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await submit(pilot, f"/bench {kernel}")
        await wait_until(pilot, lambda: app.view.status not in ("idle", "running") and not app.busy, 300, "the bench")
        detail = plain(app.query_one("#results-detail"), width=200)
        assert "case 0: fail" in detail
        assert f"rounded_copy.asc:{line}: warning:" in detail and "[datacopy-rounded]" in detail, detail
