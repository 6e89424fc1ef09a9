#!/usr/bin/env bash
# Set up kgen and run the main job: build and run a sample AscendC kernel on the CPU emulator.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q torch==2.13.0 >/dev/null  # the local CPU build; plain torch would pull a multi-GB CUDA build
python3 -m pip install -q -e . >/dev/null
kgen sim run examples/add/add.asc
