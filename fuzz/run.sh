#!/bin/sh
# Runs every libFuzzer binary build-fuzz/fuzz_NAME for SECONDS seconds on a
# temporary copy of its seed corpus fuzz/corpus/NAME/ (so the repository is
# never written to), with fuzz/NAME.dict when there is one. Crash inputs go to
# build-fuzz/artifacts/. Fails if any target crashes.
#
#   sh fuzz/run.sh 20
set -u
secs=${1:?usage: fuzz/run.sh SECONDS}
cd "$(dirname "$0")/.." || exit 2
status=0; ran=0
mkdir -p build-fuzz/artifacts
for bin in build-fuzz/fuzz_*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name=${bin#build-fuzz/fuzz_}
    [ -n "${FUZZ_ONLY:-}" ] && [ "$name" != "$FUZZ_ONLY" ] && continue
    tmp=$(mktemp -d) || exit 2
    [ -d "fuzz/corpus/$name" ] && cp -R "fuzz/corpus/$name/." "$tmp/"
    dict=""
    [ -f "fuzz/$name.dict" ] && dict="-dict=fuzz/$name.dict"
    echo "fuzz: $name for ${secs}s"
    # shellcheck disable=SC2086
    if ! "$bin" -max_total_time="$secs" -artifact_prefix="build-fuzz/artifacts/$name-" \
            -print_final_stats=0 $dict "$tmp" >"$tmp.log" 2>&1; then
        tail -n 40 "$tmp.log"
        echo "fuzz: $name FAILED (input saved under build-fuzz/artifacts/)"
        status=1
    else
        grep -E '^(#[0-9]+[[:space:]]+DONE|Done)' "$tmp.log" | tail -n 1
    fi
    rm -rf "$tmp" "$tmp.log"
    ran=$((ran + 1))
done
if [ "$ran" -eq 0 ]; then
    echo "fuzz: no targets in build-fuzz/ (run make fuzz)"
    exit 1
fi
exit $status
