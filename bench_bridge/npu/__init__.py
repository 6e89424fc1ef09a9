"""The ``npu`` backend: the official CANN custom-operator flow (msopgen project, build.sh, install,
torch_npu binding, timing with NPU events). Written to the CANN documentation and NOT yet run on
real hardware; ``plan()`` gives the exact commands, ``detect()`` refuses clearly without CANN.
"""
from bench_bridge.npu.cann import CannEnv, NpuUnavailable, detect, plan

__all__ = ["CannEnv", "NpuUnavailable", "detect", "plan"]
