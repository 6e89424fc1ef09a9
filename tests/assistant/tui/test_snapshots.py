"""Snapshots of the main screens at 120x40 (pytest-textual-snapshot; `--snapshot-update` rewrites them).

Everything drawn is deterministic: the run is hand-made (fixed ids, times and paths), the session id and
the data dir are never drawn."""
from __future__ import annotations

from tests.assistant.tui.helpers import SIZE, make_app, replay, sample_events, submit, wait_until

PROJECT = "out/add"


def _app(tmp_path):
    app = make_app(tmp_path)
    app.animation_level = "none"      # the tab underline slides otherwise: a snapshot mid-slide differs
    return app


async def _steady(pilot) -> None:
    pilot.app.query_one("#prompt").cursor_blink = False      # a blinking cursor is drawn or not by chance
    await pilot.pause()


async def _replayed(pilot, tab: str | None = None) -> None:
    app = pilot.app
    await _steady(pilot)
    replay(app, sample_events(PROJECT))
    await wait_until(pilot, lambda: app.view.status == "verified" and not app.busy, 30, "the replayed run")
    if tab:
        app.action_show_tab(tab)
    await pilot.pause()


def test_welcome_screen(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_steady)


def test_help(snap_compare, tmp_path):
    async def run_before(pilot):
        await _steady(pilot)
        await submit(pilot, "/help")
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_slash_completion(snap_compare, tmp_path):
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, press=["/", "b"], run_before=_steady)


def test_run_results(snap_compare, tmp_path):
    async def run_before(pilot):
        await _replayed(pilot)
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_run_repair_diff(snap_compare, tmp_path):
    async def run_before(pilot):
        await _replayed(pilot, "tab-diff")
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_run_files(snap_compare, tmp_path):
    async def run_before(pilot):
        await _replayed(pilot, "tab-files")
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)
