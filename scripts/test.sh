#!/usr/bin/env bash
# Set up kgen with its test dependencies and run the whole test suite (2 workers).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q torch==2.13.0 >/dev/null
python3 -m pip install -q -e '.[test,ray]' >/dev/null
# the emulator is tested with both of its compilers: clang++ (the default when installed) and g++
if ! command -v clang++ >/dev/null 2>&1 && ! ls /usr/bin/clang++-* >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "scripts/test.sh: installing clang-19 (Debian package) for the emulator's clang tests" >&2
        apt-get update -qq && apt-get install -y -qq clang-19 >/dev/null
    else
        echo "scripts/test.sh: clang++ not found and cannot apt-get install clang-19 (not root or no apt):" \
             "the emulator's clang tests are skipped, g++ is used" >&2
    fi
fi
# gdb for kgen sim debug's test (it skips without one)
if ! command -v gdb >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq gdb >/dev/null || echo "scripts/test.sh: could not install gdb" >&2
fi
# the sandbox of every child that runs task or model code (docs/security.md): bubblewrap
if ! command -v bwrap >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null
    else
        echo "scripts/test.sh: bwrap not found and cannot be installed here (needs root and apt-get):" \
             "the sandbox tests will skip and kgen will refuse to run task code without --no-sandbox" >&2
    fi
fi
if command -v npm >/dev/null 2>&1; then
    (cd extension && npm ci --no-audit --no-fund && npm test && npm run package)
else
    echo "scripts/test.sh: npm not found: skipping the VS Code extension build and tests" >&2
fi
if ! python3 -c "import sys; from bench_bridge.sandbox import probe; why = probe(); why and print(why); sys.exit(bool(why))"; then
    echo "scripts/test.sh: this machine cannot sandbox (above): running the suite with KGEN_NO_SANDBOX=1;" \
         "the sandbox tests skip" >&2
    export KGEN_NO_SANDBOX=1
fi
python3 -m pytest -n 2 --dist loadfile --durations=25 "$@"
