#!/usr/bin/env bash
# Set up kgen and run the main job: generate (offline drafter, no model), build, verify and benchmark
# a softmax operator on the CPU emulator; the project and report.json land in out/softmax.
# Each step says what it does first; pip shows its own progress (the first torch install takes minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*"; }

if python3 -c 'import sys, torch; sys.exit(0 if torch.__version__.split("+")[0] == "2.13.0" else 1)' 2>/dev/null; then
    step "torch 2.13.0 is installed"
else
    # the local CPU build; plain torch would pull a multi-GB CUDA build
    step "installing torch 2.13.0 (CPU build; a few minutes the first time, pip shows its progress)"
    python3 -m pip install --progress-bar on torch==2.13.0
fi
step "installing kgen and its dependencies (pip install -e .)"
python3 -m pip install --progress-bar on -e .
step "generating softmax with the offline drafter: draft, build, verify and benchmark on the CPU emulator -> out/softmax"
kgen generate examples/tasks/softmax/kgen-task.toml --offline --profile -o out/softmax
