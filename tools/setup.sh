#!/usr/bin/env bash
# Install what kontor needs from Debian (when run as root and something is
# missing) and build it. The one list of packages: .ci/run uses it too.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
    build-essential     # gcc, make
    pkg-config          # finds the libraries below
    libcmocka-dev       # the unit test framework
    clang               # libFuzzer for the fuzz targets
    libclang-rt-14-dev  # clang's sanitizer and fuzzer runtimes
    libncurses-dev      # the terminal client (kontor play)
    tmux                # runs kontor play in a real terminal in its tests
    gettext             # kontor play in German: msgfmt builds po/de.po, xgettext checks every shown string is marked
    python3             # the example engine-protocol bot (examples/randombot.py)
    libuv1-dev          # kontor serve: the event loop (epoll) for every socket and timer
    libwslay-dev        # kontor serve: WebSocket frames (frame-header size checks, no threads)
    nettle-dev          # kontor serve: SHA-1 and base64 of the WebSocket handshake (no hand-written crypto)
    libjansson-dev      # kontor serve: the JSON messages
    libsqlite3-dev      # kontor serve: every game stored as its record (WAL)
    libpq-dev           # kontor serve --db postgresql://...: several nodes on one database (its header; libpq.so.5 is loaded only then)
    postgresql          # the store and cluster tests start a PostgreSQL server of their own
    nginx               # the cluster test: three nodes behind nginx (deploy/nginx.conf)
    chromium            # the browser end-to-end tests of the server
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# playwright-core (from npm) drives chromium in those tests: Node.js and npm,
# from Debian unless the machine has them already (another Node.js package
# that bundles npm conflicts with Debian's npm)
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    missing+=(nodejs npm)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: please install: ${missing[*]} (as root: apt-get install ${missing[*]})" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
make -j2 >/dev/null
echo "setup: built ./kontor"
