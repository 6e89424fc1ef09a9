"""kgen bench bridge: task formats, backends (``sim`` emulator, ``npu``), verification, reports.

Other packages use its faces only: :mod:`bench_bridge.api` (benching, tasks, the emulator as a compiler,
op projects, the performance model, the SoC table), :mod:`bench_bridge.events` (typed bench progress)
and :mod:`bench_bridge.settings`. This module stays a docstring, so importing any of them is cheap.
"""
