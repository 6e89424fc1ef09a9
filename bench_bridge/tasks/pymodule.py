"""Load a task's Python file (reference, input generator) as a module, with its folder importable."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_module(name: str, path: Path) -> ModuleType:
    """``path`` run as module ``name``, as if started on its own: its folder importable and a command line of
    its path alone (task code may parse the command line at import time, as NPUKernelBench's ``framework``
    does: kgen's own arguments would stop it)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    argv, sys.argv = sys.argv, [str(path)]
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.argv = argv
        sys.path.pop(0)
    return mod
