#!/bin/sh
# What CI runs (make check): the tests, the browser end-to-end tests of the
# server, the tests again under AddressSanitizer and UndefinedBehaviorSanitizer,
# and a short run of every fuzz target. Ends
# with one line "N passed, N failed" over all of it (a fuzz target that ran
# clean counts as one passed test).
set -u
cd "$(dirname "$0")/.." || exit 2
MAKE=${MAKE:-make}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
passed=0; failed=0
tally() { # the last "N passed, N failed" line of file $1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    [ -n "$line" ] || { p=0; f=1; }
    passed=$((passed + p)); failed=$((failed + f))
}
log=$(mktemp)
echo "== tests"
$MAKE -j2 test 2>&1 | tee "$log"; tally "$log"
echo "== the server in a real browser (chromium, playwright-core)"
sh tests/e2e/run.sh 2>&1 | tee "$log"; tally "$log"
echo "== tests under address and undefined behaviour sanitizers"
$MAKE -j2 SANITIZE=address,undefined test 2>&1 | tee "$log"; tally "$log"
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
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
