"""The build caches' pruning spares entries another build may be using (a PCH removed under a running
compile failed it with "prelude.h: No such file or directory" when several checkouts built at once)."""
import os
import time

from bench_bridge.sim import compiler


def _entry(root, name, age_s):
    d = root / name
    d.mkdir()
    (d / "prelude.h").write_text("x")
    t = time.time() - age_s
    os.utime(d, (t, t))
    return d


def test_prune_keeps_the_newest_and_spares_recent_entries(tmp_path):
    old = [_entry(tmp_path, f"old{i}", compiler.IN_USE_S + 100 + i) for i in range(4)]
    recent = [_entry(tmp_path, f"recent{i}", 10 + i) for i in range(5)]
    compiler._prune(tmp_path, keep=3)
    left = sorted(p.name for p in tmp_path.iterdir())
    # the 5 recent ones are in use (3 kept by count, 2 spared by age); every old one beyond the count goes
    assert left == sorted(p.name for p in recent)
    assert not any(p.exists() for p in old)


def test_prune_removes_old_entries_beyond_the_count(tmp_path):
    es = [_entry(tmp_path, f"e{i}", compiler.IN_USE_S + 100 + i) for i in range(5)]
    compiler._prune(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e0", "e1"]
    assert not es[4].exists()
