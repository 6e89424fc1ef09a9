"""The extension in a real VS Code (issue 22): code-server 4.99 (VS Code 1.99) with the packaged .vsix,
driven headlessly by Playwright through Debian's chromium, on a kernel we wrote (data/scale/scale.asc:
two DataCopy calls of 2000 bytes, not a whole number of 32-byte blocks).

What a user does and sees, in order: the language server's two ``datacopy-unaligned`` warnings in the
Problems view; Ctrl+. on each offers "Use DataCopyPad" and applying it clears the warning (the saved
file has the DataCopyPad calls); "kgen: Benchmark current file" opens the results view (the case passes
on the emulator) and puts code lenses above the hot lines ("..% of modelled time .., MTE2 bound");
"kgen: Debug current file on the emulator" with the cursor on the Muls line runs ``kgen sim debug`` in a
terminal, and gdb stops there in an emulated core ("kgen: stopped in emulated core 3 of 8").

Setup: ``scripts/vscode_e2e.sh`` (installs code-server, chromium, playwright; cached, idempotent) runs
this test and writes its screenshots to docs/img/ (KGEN_E2E_SCREENSHOTS). Skipped with the reason when
code-server, chromium or playwright are missing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tests.extension.vscode import ROOT, CodeServer, find_tools

KERNEL = Path(__file__).parent / "data" / "scale" / "scale.asc"
TOOLS = find_tools()
pytestmark = pytest.mark.skipif(isinstance(TOOLS, str), reason=str(TOOLS))

WAIT_MS = 60_000
BENCH_MS = 300_000


@pytest.fixture()
def vscode(tmp_path):
    # the workspace where the screenshots show it (paths in gdb's output): a short folder, not pytest's
    top = Path(tempfile.mkdtemp(prefix="kgen-e2e-"))
    ws = top / "kernels"
    ws.mkdir()
    shutil.copy(KERNEL, ws / KERNEL.name)
    cs = CodeServer(TOOLS, tmp_path / "code-server", ws)
    cs.start()
    try:
        yield cs
    finally:
        cs.stop()
        shutil.rmtree(top, ignore_errors=True)


def _problems(page) -> list[tuple[str, int, int]]:
    """(text, line, column) of each row of the Problems view."""
    rows = page.locator(".markers-panel .monaco-list-row").all_inner_texts()
    out = []
    for r in rows:
        m = re.search(r"\[Ln (\d+), Col (\d+)\]", r)
        if m:
            out.append((r, int(m.group(1)), int(m.group(2))))
    return out


def _wait(cond, timeout_ms: int, what: str):
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def _command(page, title: str) -> None:
    page.keyboard.press("F1")
    box = page.locator(".quick-input-widget input.input")
    box.wait_for(state="visible", timeout=WAIT_MS)
    box.fill(f">{title}")
    page.locator(".quick-input-list .monaco-list-row", has_text=title).first.wait_for(timeout=WAIT_MS)
    page.keyboard.press("Enter")


def _go_to(page, line: int, col: int) -> None:
    page.keyboard.press("Control+g")
    box = page.locator(".quick-input-widget input.input")
    box.wait_for(state="visible", timeout=WAIT_MS)
    box.fill(f":{line}:{col}")
    page.keyboard.press("Enter")
    box.wait_for(state="hidden", timeout=WAIT_MS)


def _open_kernel(page, url: str) -> None:
    """The workbench at ``url``, the kernel open (Ctrl+P), the extension started, the side bar closed."""
    page.goto(url)
    page.wait_for_selector(".monaco-workbench .part.editor", timeout=WAIT_MS)
    page.keyboard.press("Control+p")
    page.locator(".quick-input-widget input.input").fill(KERNEL.name)
    page.locator(".quick-input-list .monaco-list-row", has_text=KERNEL.name).first.wait_for(timeout=WAIT_MS)
    page.keyboard.press("Enter")
    page.wait_for_selector(f".tab.active >> text={KERNEL.name}", timeout=WAIT_MS)
    page.wait_for_selector(".statusbar-item >> text=kgen sim", timeout=WAIT_MS)   # the extension is up
    page.keyboard.press("Control+b")                                              # more room: no side bar


def _quick_fixes(page, title: str):
    """Ctrl+. at the cursor until the code-action menu offers ``title``. Right after an edit VS Code can
    answer "No code actions available" while its request for the new version is still on the way (seen
    once in three runs; the server answers at once over stdio), so a second Ctrl+. a moment later is
    what a user would do too."""
    fix = page.locator(".action-widget .monaco-list-row", has_text=title)
    for attempt in range(3):
        page.keyboard.press("Control+.")
        try:
            fix.first.wait_for(timeout=10_000)
            return fix
        except Exception:   # noqa: BLE001 - playwright's TimeoutError: try again
            page.keyboard.press("Escape")
            page.wait_for_timeout(1000)
    raise AssertionError(f"Ctrl+. never offered {title!r}")


def _results_text(page) -> str:
    """The text of the kgen results webview (a nested frame of the workbench), '' while it is not there."""
    for f in page.frames:
        try:
            t = f.evaluate("document.body ? document.body.innerText : ''")
        except Exception:   # noqa: BLE001 - a frame navigating away
            continue
        if "kernel time" in t and "bound by" in t:
            return t
    return ""


def test_diagnostic_quick_fix_benchmark_and_hot_line_lenses(vscode, tmp_path):
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("KGEN_E2E_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    kernel = vscode.workspace / KERNEL.name
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(TOOLS.chromium), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            _open_kernel(page, vscode.url)

            # 1. the language server's warnings in the Problems view
            page.keyboard.press("Control+Shift+m")
            found = _wait(lambda: [r for r in _problems(page) if "datacopy-unaligned" in r[0]] or None, WAIT_MS,
                          "the datacopy-unaligned warnings in the Problems view")
            assert len(found) == 2 and {ln for _, ln, _ in found} == {35, 47}
            assert all("2000 bytes is not a multiple of 32 bytes" in t for t, _, _ in found)
            page.screenshot(path=str(shots / "vscode-problems.png"))

            # 2. Ctrl+. on each warning: the quick fix rewrites the copy to DataCopyPad
            for n in range(2):
                _, line, col = [r for r in _problems(page) if "datacopy-unaligned" in r[0]][0]
                _go_to(page, line, col)
                fix = _quick_fixes(page, "Use DataCopyPad")
                if n == 0:
                    page.screenshot(path=str(shots / "vscode-quick-fix.png"))
                assert "focused" in (fix.first.get_attribute("class") or ""), "the quick fix is the preferred one"
                page.keyboard.press("Enter")
                _wait(lambda: len([r for r in _problems(page) if "datacopy-unaligned" in r[0]]) == 1 - n, WAIT_MS,
                      "the warning to go after its quick fix")
            page.locator(".markers-panel", has_text="No problems have been detected").wait_for(timeout=WAIT_MS)
            for _ in range(3):           # the last fix's edit can land just after the keypress: save again then
                page.keyboard.press("Control+s")
                try:
                    _wait(lambda: kernel.read_text().count("AscendC::DataCopyPad(") == 2, 10_000, "the save")
                    break
                except AssertionError:
                    continue
            saved = kernel.read_text()
            assert saved.count("AscendC::DataCopyPad(") == 2 and "AscendC::DataCopy(" not in saved

            # 3. kgen: Benchmark current file -> the results view, and lenses above the hot lines
            _command(page, "kgen: Benchmark current file")
            text = _wait(lambda: _results_text(page), BENCH_MS, "the kgen results view")
            assert "correct (sim)" in text and "pass" in text, text
            lens = page.locator(".codelens-decoration", has_text="of modelled time")
            lens.first.wait_for(timeout=WAIT_MS)
            titles = lens.all_inner_texts()
            assert any(re.search(r"kgen: \d+\.\d% of modelled time \(\d+\.\d+ us\), MTE2 bound", t) for t in titles), titles
            page.keyboard.press("Control+j")    # the panel closed: the kernel's hot lines in view
            _go_to(page, 33, 1)
            page.wait_for_timeout(500)
            page.screenshot(path=str(shots / "vscode-benchmark.png"))

            # 4. kgen: Debug current file on the emulator, the cursor on the Muls line: gdb stops there in a core
            _go_to(page, 41, 9)
            _command(page, "kgen: Debug current file on the emulator")
            term = page.locator(".terminal-wrapper .xterm-rows")
            _wait(lambda: "(gdb)" in " ".join(term.all_inner_texts()), BENCH_MS, "the debug build and gdb's prompt")
            assert re.search(r"Breakpoint 1 at .*scale\.asc, line 41", " ".join(term.all_inner_texts()))
            page.keyboard.type("run\n")        # the terminal has the focus: gdb's own prompt
            _wait(lambda: "stopped in emulated core" in " ".join(term.all_inner_texts()), WAIT_MS,
                  "gdb to stop at the breakpoint in the terminal")
            shown = " ".join(term.all_inner_texts())
            assert re.search(r"kgen: stopped in emulated core \d+ of 8", shown), shown
            assert "scale.asc:41" in shown, shown
            page.screenshot(path=str(shots / "vscode-debug.png"))
        except Exception:
            page.screenshot(path=str(shots / "failure.png"))   # what the window showed when a step failed
            raise
        finally:
            browser.close()


def test_f5_runs_the_kgen_sim_debug_configuration(vscode, tmp_path):
    """launch.json with the extension's snippet (breakLines: the copy-out line): F5 builds with debug info
    and gdb stops on that line in an emulated core."""
    from playwright.sync_api import sync_playwright

    conf = {"type": "kgen-sim", "request": "launch", "name": "kgen: debug kernel on the emulator",
            "program": "${file}", "breakLines": [47], "args": []}
    (vscode.workspace / ".vscode").mkdir()
    (vscode.workspace / ".vscode" / "launch.json").write_text(json.dumps({"version": "0.2.0", "configurations": [conf]}))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(TOOLS.chromium), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            _open_kernel(page, vscode.url)
            page.keyboard.press("F5")
            term = page.locator(".terminal-wrapper .xterm-rows")
            _wait(lambda: "(gdb)" in " ".join(term.all_inner_texts()), BENCH_MS, "the debug build and gdb's prompt")
            page.keyboard.type("run\n")
            _wait(lambda: "stopped in emulated core" in " ".join(term.all_inner_texts()), WAIT_MS, "gdb's stop")
            shown = " ".join(term.all_inner_texts())
            assert re.search(r"hit Breakpoint 1, KernelScale::CopyOut .* at .*scale\.asc:47", shown), shown
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"))
            raise
        finally:
            browser.close()
