"""Settings for library code under test, the way a front end hands them down.

Below the front ends nothing reads the environment for settings: ``kgen`` and ``kgen lsp`` load the tree
once and call ``agent_graph.settings.configure``. The test process is such a front end: at start it loads
the settings from its environment (``KGEN_CXX=clang++-19 pytest`` still picks the compiler), and a test
that sets or removes a ``KGEN_*`` / ``XDG_*`` variable with ``monkeypatch`` stands for a user who did,
so after every such change (and after ``undo``) the tree is loaded and configured again. Tests that run
``kgen`` in a child process pass the environment to it as before.
"""
from __future__ import annotations

import os

import pytest

from agent_graph import settings

_SETTING_VARS = ("KGEN_", "XDG_")


def configure_from_environment() -> None:
    """Load the tree from ``os.environ`` (and the config files it names) and hand it down; a variable a test
    made invalid on purpose leaves the defaults configured (the test expects the error elsewhere)."""
    try:
        settings.configure(settings.load_settings(env=os.environ))
    except settings.SettingsError:
        settings.configure(settings.Settings())


def _reconfiguring(method):
    def wrapper(self, name, *args, **kwargs):
        out = method(self, name, *args, **kwargs)
        if str(name).startswith(_SETTING_VARS):
            configure_from_environment()
        return out
    return wrapper


def _undo_then_reconfigure(method):
    def wrapper(self):
        touched = any(d is os.environ and str(name).startswith(_SETTING_VARS) for d, name, _old in self._setitem)
        method(self)
        if touched:
            configure_from_environment()
    return wrapper


def pytest_addoption(parser):
    parser.addoption("--full-suite", action="store_true",
                     help="verify every drafter-suite reference (the default run verifies a fixed quarter of them)")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``full_suite`` (three quarters of the drafter suite) are skipped unless ``--full-suite``."""
    if config.getoption("--full-suite"):
        return
    skip = pytest.mark.skip(reason="outside the default run's quarter of the drafter suite (pytest --full-suite, "
                                   "or python benchmarks/drafter_suite.py)")
    for item in items:
        if "full_suite" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config):
    pytest.MonkeyPatch.setenv = _reconfiguring(pytest.MonkeyPatch.setenv)
    pytest.MonkeyPatch.delenv = _reconfiguring(pytest.MonkeyPatch.delenv)
    pytest.MonkeyPatch.undo = _undo_then_reconfigure(pytest.MonkeyPatch.undo)
    configure_from_environment()
