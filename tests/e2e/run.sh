#!/bin/sh
# run.sh: the browser end-to-end tests: installs playwright-core from the
# committed lock file if needed, then runs run.mjs against build/kontor.
# Needs Debian's chromium (/usr/bin/chromium) and node; screenshots in build/e2e/.
set -e
cd "$(dirname "$0")/../.."
{ [ -d tests/e2e/node_modules/playwright-core ] && [ -d tests/e2e/node_modules/axe-core ]; } || (cd tests/e2e && npm ci --no-audit --no-fund)
KONTOR=${KONTOR:-build/kontor} exec node tests/e2e/run.mjs
