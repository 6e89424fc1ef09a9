"""A real VS Code for the extension's end-to-end test: code-server (VS Code in a browser) with the
extension's .vsix installed, driven by Playwright through Debian's chromium. ``scripts/vscode_e2e.sh``
installs what is missing (cached under ~/.cache/kgen-e2e); here we only find it, start it and drive it.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("KGEN_E2E_CACHE", Path.home() / ".cache" / "kgen-e2e"))


@dataclass(frozen=True)
class Tools:
    code_server: Path
    vsix: Path
    chromium: Path


def find_tools() -> Tools | str:
    """The code-server, the packaged extension and the browser, or why the test cannot run (one line)."""
    cs = Path(os.environ.get("KGEN_CODE_SERVER", CACHE / "node_modules" / ".bin" / "code-server"))
    vsix = Path(os.environ.get("KGEN_E2E_VSIX", CACHE / "kgen-ascendc.vsix"))
    chromium = Path(os.environ.get("KGEN_E2E_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (scripts/vscode_e2e.sh installs it)"
    for what, p in (("code-server", cs), ("the extension's .vsix", vsix), ("chromium", chromium)):
        if not p.exists():
            return f"{what} not found at {p} (scripts/vscode_e2e.sh installs it)"
    sources = [ROOT / "extension" / "package.json", *(ROOT / "extension" / "src").rglob("*.ts")]
    if "KGEN_E2E_VSIX" not in os.environ and any(f.stat().st_mtime > vsix.stat().st_mtime for f in sources):
        return f"{vsix} is older than extension/src (scripts/vscode_e2e.sh --setup-only packages it again)"
    return Tools(cs, vsix, chromium)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CodeServer:
    """code-server on a free local port with its own user data, extensions and a workspace folder;
    the extension installed from its .vsix and pointed at this checkout's kgen."""

    def __init__(self, tools: Tools, home: Path, workspace: Path) -> None:
        self.tools, self.home, self.workspace = tools, home, workspace
        self.user, self.exts = home / "user", home / "extensions"
        (self.user / "User").mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/?folder={workspace}"
        self.env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc: subprocess.Popen | None = None
        self.log = home / "code-server.log"

    def _cs(self, *args: str) -> list[str]:
        return [str(self.tools.code_server), "--user-data-dir", str(self.user), "--extensions-dir", str(self.exts),
                *args]

    def start(self) -> None:
        subprocess.run(self._cs("--install-extension", str(self.tools.vsix)), env=self.env, check=True,
                       capture_output=True, timeout=120)
        settings = {
            "kgen.path": f"{sys.executable} -m assistant.cli",   # this checkout's kgen (PYTHONPATH above)
            "workbench.startupEditor": "none",
            "workbench.colorTheme": "Default Light Modern",
            "workbench.tips.enabled": False,
            "security.workspace.trust.enabled": False,
            "telemetry.telemetryLevel": "off",
            "editor.minimap.enabled": False,
            "editor.stickyScroll.enabled": False,
            "workbench.activityBar.location": "hidden",
            "terminal.integrated.gpuAcceleration": "off",     # the DOM renderer: the terminal's text is readable
            "chat.commandCenter.enabled": False,
        }
        (self.user / "User" / "settings.json").write_text(json.dumps(settings, indent=1))
        self.proc = subprocess.Popen(
            self._cs("--auth", "none", "--bind-addr", f"127.0.0.1:{self.port}", "--disable-telemetry",
                     "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
                     "--config", str(self.home / "config.yaml"), str(self.workspace)),
            env=self.env, stdout=self.log.open("w"), stderr=subprocess.STDOUT, cwd=str(self.workspace))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2).read()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.3)
        raise RuntimeError(f"code-server did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
