"""Start-up cost of the three front doors a user waits on (issue 21: none may get slower):

- ``kgen --help``: a cold process, wall clock;
- ``kgen docs DataCopy``: a cold process with the index already built;
- ``kgen lsp`` first diagnostics: spawn the server, initialize, open a kernel, wait for the first
  ``publishDiagnostics``.

    python benchmarks/startup.py [--runs 7] [--json]

Prints the median and the slowest of --runs runs of each. The index lives in a temporary data dir
(built once before timing). Figures taken while other work shares the CPUs are noisy: compare runs
made on a quiet machine."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    LocalTensor<half> t = q.AllocTensor<half>();
    q.EnQue(t);
    LocalTensor<half> u = q.DeQue<half>();
    q.FreeTensor(u);
}
"""


def cli(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "assistant.cli", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def lsp_first_diagnostics(env: dict, work: Path) -> float:
    from tests.lsp.client import LspClient

    old = dict(os.environ)
    os.environ.update(env)
    try:
        t0 = time.perf_counter()
        client = LspClient(timeout=60.0)
        try:
            client.request("initialize", {"processId": None, "rootUri": work.as_uri(), "capabilities": {}})
            client.notify("initialized", {})
            uri = (work / "add_custom.cpp").as_uri()
            client.open(uri, KERNEL)
            client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
            return time.perf_counter() - t0
        finally:
            client.close()
    finally:
        os.environ.clear()
        os.environ.update(old)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kgen-startup-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "KGEN_DATA_DIR": str(work / "data"), "HOME": str(work),
               "XDG_CONFIG_HOME": str(work / "config")}
        cli(["docs", "DataCopy"], env)                      # builds the index once
        cases = {"kgen --help": lambda: cli(["--help"], env),
                 "kgen docs DataCopy": lambda: cli(["docs", "DataCopy"], env),
                 "kgen lsp first diagnostics": lambda: lsp_first_diagnostics(env, work)}
        rows = {}
        for name, fn in cases.items():
            fn()                                             # warm the page cache
            xs = [fn() for _ in range(a.runs)]
            rows[name] = {"median_s": statistics.median(xs), "max_s": max(xs), "runs": a.runs}
    if a.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'front door':30} {'median':>8} {'slowest':>8}   ({a.runs} runs each)")
        for name, r in rows.items():
            print(f"{name:30} {r['median_s']:8.3f} {r['max_s']:8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
