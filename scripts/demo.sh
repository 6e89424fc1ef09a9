#!/usr/bin/env bash
# Set up kgen and run the main job: generate (offline drafter, no model), build, verify and benchmark
# a softmax operator on the CPU emulator; the project and report.json land in out/softmax.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q torch==2.13.0 >/dev/null  # the local CPU build; plain torch would pull a multi-GB CUDA build
python3 -m pip install -q -e . >/dev/null
kgen generate examples/tasks/softmax/kgen-task.toml --offline --profile -o out/softmax
