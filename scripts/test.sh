#!/usr/bin/env bash
# Set up kgen with its test dependencies and run the whole test suite (2 workers).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q torch==2.13.0 >/dev/null
python3 -m pip install -q -e '.[test,ray]' >/dev/null
if command -v npm >/dev/null 2>&1; then
    (cd extension && npm ci --no-audit --no-fund && npm test && npm run package)
else
    echo "scripts/test.sh: npm not found: skipping the VS Code extension build and tests" >&2
fi
python3 -m pytest -n 2 --dist loadfile "$@"
