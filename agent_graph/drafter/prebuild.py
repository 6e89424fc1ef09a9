"""Build every dtype combination of a drafted project at once, before it is verified.

``kgen bench`` builds one emulator executable per dtype combination, lazily, case after case; each
build is a separate g++ process (about 9 s of CPU for host + harness + kernel translation units on
the reference machine), and the builds are cached by content. ``prebuild`` starts all of them
together on up to ``jobs`` cores, so the bench that follows finds every build in the cache: on a
machine with free cores the wall time of the builds drops from their sum to about the longest.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_bridge.api import build_project, describe_project


def prebuild(project: str | Path, jobs: int | None = None) -> list:
    """Build every dtype combination of ``project``; returns the ``ProjectBuild`` of each (in order)."""
    op = describe_project(Path(project))
    return build_all(op, jobs) if op.ok else []


def build_all(op, jobs: int | None = None) -> list:
    """``prebuild`` of an already described project (``bench_bridge.api.describe_project``)."""
    jobs = max(1, min(op.num_combos, jobs or os.cpu_count() or 1))
    if jobs == 1:
        return [build_project(op, c) for c in range(op.num_combos)]
    with ThreadPoolExecutor(max_workers=jobs) as ex:  # each build is a g++ child process
        return list(ex.map(lambda c: build_project(op, c), range(op.num_combos)))
