#!/bin/sh
# What CI runs (make check): the tests, the browser end-to-end tests of the
# server, the tests again under AddressSanitizer and UndefinedBehaviorSanitizer,
# and a short run of every fuzz target. Ends
# with one line "N passed, N failed, N skipped" over all of it (a fuzz target
# that ran clean counts as one passed test). With CI=true (as CI runs it) a
# skipped test fails the run: tests/run.sh then counts it as failed too.
set -u
cd "$(dirname "$0")/.." || exit 2
MAKE=${MAKE:-make}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
passed=0; failed=0; skipped=0
tally() { # the last "N passed, N failed[, N skipped]" line of file $1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" | tail -n 1)
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    case $line in *skipped) k=${line##*failed, }; k=${k%% skipped} ;; *) k=0 ;; esac
    [ -n "$line" ] || { p=0; f=1; k=0; }
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
}
log=$(mktemp)
echo "== tests"
$MAKE -j2 test 2>&1 | tee "$log"; tally "$log"
echo "== the server in a real browser (chromium, playwright-core)"
sh tests/e2e/run.sh 2>&1 | tee "$log"; tally "$log"
echo "== tests under address and undefined behaviour sanitizers"
# the sanitized server is several times slower: the leak oracle's ~74,000
# messages need more than the plain run's 300 s a binary on a loaded machine
TEST_TIMEOUT=${TEST_TIMEOUT_SANITIZE:-900} $MAKE -j2 SANITIZE=address,undefined test 2>&1 | tee "$log"; tally "$log"
echo "== fuzzing, ${FUZZ_SECONDS}s a target"
if $MAKE -j2 fuzz >"$log" 2>&1; then
    for bin in build-fuzz/fuzz_*; do
        [ -x "$bin" ] || continue
        name=${bin#build-fuzz/fuzz_}
        if FUZZ_ONLY=$name sh fuzz/run.sh "$FUZZ_SECONDS"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    done
else
    cat "$log"; echo "fuzz targets did not build"; failed=$((failed + 1))
fi
rm -f "$log"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && { [ "$skipped" -eq 0 ] || [ "${CI:-}" != true ]; }
