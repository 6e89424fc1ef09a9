"""Task formats kgen reads: NPUKernelBench task dirs, KernelBench/MultiKernelBench reference files, kgen specs.

``load_task(path)`` detects the format and returns a :class:`Task`; the PyTorch reference itself is
only ever executed in a child process (``bench_bridge.tasks.worker``).
"""
from bench_bridge.tasks.model import LAUNCH_SUFFIXES, TASK_FILE, CaseSpec, Task, TaskError, TaskFormat
from bench_bridge.tasks.loader import load_task

__all__ = ["LAUNCH_SUFFIXES", "TASK_FILE", "CaseSpec", "Task", "TaskError", "TaskFormat", "load_task"]
