#!/usr/bin/env bash
# The extension in a real VS Code: install what is missing (idempotent), then run the end-to-end test
# (tests/extension/test_vscode_e2e.py) and write its screenshots to docs/img/.
#
#   scripts/vscode_e2e.sh               # set up, run the test, screenshots -> docs/img/
#   scripts/vscode_e2e.sh --setup-only  # only install (what CI or a later pytest run needs)
#   KGEN_E2E_SCREENSHOTS=/tmp/shots scripts/vscode_e2e.sh   # screenshots elsewhere
#
# What it installs, and where:
#   - Debian packages (root + apt-get only): chromium (the browser Playwright drives), ripgrep (stands in
#     for @vscode/ripgrep's binary, which its postinstall would download from GitHub), and the headers
#     code-server's native modules build against: libkrb5-dev libxkbfile-dev libsecret-1-dev, build-essential.
#   - Playwright for Python (pip; no browser download: the test launches /usr/bin/chromium).
#   - code-server $CODE_SERVER_VERSION (VS Code 1.99, runs on Node 20) from npm, under
#     ~/.cache/kgen-e2e (KGEN_E2E_CACHE). Its own postinstall is replayed here step by step, because it
#     stops at @vscode/ripgrep's download: the dependencies are installed without scripts, Debian's rg
#     is linked where @vscode/ripgrep keeps its binary (its postinstall then sees bin/ and exits), and the
#     native modules are rebuilt against Node's installed headers.
#   - the extension, packaged as ~/.cache/kgen-e2e/kgen-ascendc.vsix (rebuilt every run: it is the
#     code under test; the test installs it into a fresh code-server profile).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${KGEN_E2E_CACHE:-$HOME/.cache/kgen-e2e}
CODE_SERVER_VERSION=${KGEN_CODE_SERVER_VERSION:-4.99.4}
SETUP_ONLY=0
[ "${1:-}" = "--setup-only" ] && SETUP_ONLY=1
say() { echo "vscode_e2e: $*" >&2; }
PYTHON=${PYTHON:-python3}

# 1. Debian packages ---------------------------------------------------------------------------------
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || need+=(build-essential)
for h in /usr/include/krb5.h /usr/include/X11/extensions/XKBfile.h /usr/include/libsecret-1/libsecret/secret.h; do
    [ -e "$h" ] || { need+=(libkrb5-dev libxkbfile-dev libsecret-1-dev); break; }
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${need[*]} (apt)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
        say "missing ${need[*]} and cannot apt-get install (needs root): the e2e test will skip"; exit 1
    fi
fi
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { say "node/npm not found"; exit 1; }
[ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] || say "warning: code-server $CODE_SERVER_VERSION wants Node 20 (found $(node --version))"

# 2. Playwright (no browser download) ----------------------------------------------------------------
if ! "$PYTHON" -c "import playwright.sync_api" 2>/dev/null; then
    say "installing playwright (pip)"
    "$PYTHON" -m pip install -q playwright
fi

# 3. code-server, with its postinstall replayed --------------------------------------------------------
CS=$CACHE/node_modules/code-server
STAMP=$CACHE/.code-server-$CODE_SERVER_VERSION.ok
if [ ! -f "$STAMP" ]; then
    say "installing code-server $CODE_SERVER_VERSION into $CACHE"
    mkdir -p "$CACHE"
    rm -rf "$CACHE/node_modules" "$CACHE"/.code-server-*.ok
    npm_args=(--no-audit --no-fund --loglevel=error)
    # native modules: Node's own headers, not a download from nodejs.org (set when they are installed)
    if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
    export npm_config_yes=true   # node-pty's post-install runs `npx node-gyp`
    npm install "${npm_args[@]}" --ignore-scripts --prefix "$CACHE" "code-server@$CODE_SERVER_VERSION"
    (cd "$CACHE" && npm rebuild "${npm_args[@]}" argon2)
    (
        cd "$CS/lib/vscode"
        npm install "${npm_args[@]}" --omit=dev --ignore-scripts
        mkdir -p node_modules/@vscode/ripgrep/bin
        ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
        npm rebuild "${npm_args[@]}"
        ln -sfn node_modules node_modules.asar
        (cd bin/remote-cli && ln -sfn code-linux.sh code-server)
        (cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
        cd extensions && npm install "${npm_args[@]}" --omit=dev
    )
    "$CACHE/node_modules/.bin/code-server" --version >/dev/null
    touch "$STAMP"
fi

# 4. the extension, packaged --------------------------------------------------------------------------
(
    cd extension
    [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
    npx tsc -p . && npx vsce package --skip-license --allow-missing-repository -o "$CACHE/kgen-ascendc.vsix" >/dev/null
)
say "ready: $("$CACHE/node_modules/.bin/code-server" --version | head -1), $CACHE/kgen-ascendc.vsix"
[ "$SETUP_ONLY" = 1 ] && exit 0

# 5. the test ------------------------------------------------------------------------------------------
export KGEN_E2E_CACHE=$CACHE
export KGEN_E2E_SCREENSHOTS=${KGEN_E2E_SCREENSHOTS:-$ROOT/docs/img}
PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} "$PYTHON" -m pytest tests/extension/test_vscode_e2e.py -q -p no:cacheprovider "$@"
