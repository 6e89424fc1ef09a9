"""Executors: where the candidates run. Both call the same function (isolate.run_isolated) and yield
results as they finish, in whatever order that is.

- ``LocalExecutor(n)``: a local process pool — n threads, each driving one isolated child at a time.
- ``RayExecutor(address)``: the same function as Ray tasks on a Ray cluster (``pip install 'kgen[ray]'``):
  one CPU per candidate for the sim backend, one ``NPU`` custom resource for ``--backend npu``.
  ``address`` "local" starts a private local Ray instance with ``jobs`` CPUs (tests, one machine).
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from agent_graph.evaluate.isolate import kill_all, run_isolated
from agent_graph.evaluate.types import CandidateJob, EvalError


class LocalExecutor:
    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)

    def run(self, jobs: list[CandidateJob], cancel: threading.Event) -> Iterator[dict]:
        pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="kgen-eval")
        todo = iter(jobs)
        live: set[Future] = set()
        try:
            while True:
                while len(live) < self.jobs and not cancel.is_set():
                    j = next(todo, None)
                    if j is None:
                        break
                    live.add(pool.submit(run_isolated, j.to_dict()))
                if not live:
                    return
                done, live = wait(live, timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    if not cancel.is_set():
                        yield f.result()
                if cancel.is_set():
                    return
        finally:
            if live:
                cancel.set()
                kill_all()
            pool.shutdown(wait=True, cancel_futures=True)


class RayExecutor:
    def __init__(self, address: str, backend: str, jobs: int):
        try:
            import ray  # optional: ray (pip install 'kgen[ray]')
        except ImportError:
            raise EvalError("--ray needs Ray: pip install 'kgen[ray]'") from None
        self.ray = ray
        try:
            if not ray.is_initialized():
                if address == "local":
                    ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False,
                             configure_logging=False, _node_ip_address="127.0.0.1")
                else:
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise EvalError(f"--ray {address}: cannot connect to a Ray cluster ({str(e).splitlines()[0]})") from None
        opts = {"num_cpus": 1, "max_retries": 0} if backend != "npu" else {"num_cpus": 0, "resources": {"NPU": 1},
                                                                           "max_retries": 0}
        self.remote = ray.remote(run_isolated).options(**opts)

    def run(self, jobs: list[CandidateJob], cancel: threading.Event) -> Iterator[dict]:
        ray = self.ray
        refs = [self.remote.remote(j.to_dict()) for j in jobs]
        try:
            while refs and not cancel.is_set():
                ready, refs = ray.wait(refs, num_returns=1, timeout=0.5)
                for r in ready:
                    yield ray.get(r)
        finally:
            for r in refs:
                ray.cancel(r, force=True)
