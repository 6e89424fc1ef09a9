"""results.jsonl, the run's checkpoint: one CandidateResult a line, each written with flush + fsync.

Reading tolerates a torn last line (a process killed mid-write): it is dropped, and truncated away
before the next append, so a resumed run re-does exactly that candidate. A key seen twice keeps its
last line.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from agent_graph.evaluate.types import CandidateResult

NAME = "results.jsonl"


class ResultsFile:
    def __init__(self, folder: Path):
        self.path = Path(folder) / NAME
        self._lock = threading.Lock()

    def load(self) -> dict[str, CandidateResult]:
        """Every complete line, by candidate key; the torn tail (if any) is cut off the file."""
        if not self.path.is_file():
            return {}
        data = self.path.read_bytes()
        good = data[: data.rfind(b"\n") + 1]
        if len(good) != len(data):
            with open(self.path, "r+b") as f:
                f.truncate(len(good))
                f.flush()
                os.fsync(f.fileno())
        out: dict[str, CandidateResult] = {}
        for line in good.decode("utf-8", errors="replace").splitlines():
            try:
                res = CandidateResult.from_dict(json.loads(line))
            except (ValueError, TypeError):
                continue
            out[res.key] = res
        return out

    def append(self, res: CandidateResult) -> None:
        line = json.dumps(res.to_dict(), sort_keys=True) + "\n"
        with self._lock, open(self.path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
