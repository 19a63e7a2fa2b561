#!/bin/sh
# Runs every cmocka test binary given, then prints one closing line
# "N passed, N failed, N skipped" that CI reads (tests/check.sh sums them).
# Exits non-zero if anything failed, or, with CI=true, if anything was skipped.
#
# The counts come from the per-test lines of each binary, not from its
# closing summary, so a binary that crashes or hangs halfway keeps the tests
# it passed: a test that started ("[ RUN      ]") and never said "OK" or
# "SKIPPED" failed, and a binary that exits non-zero (a crash, a sanitizer's
# report at exit, a timeout) with no failed test of its own counts as one
# failure. A test binary that runs longer than TEST_TIMEOUT seconds (default
# 300: the slowest, test_server, took 12 s, and 87 s under the sanitizers, on
# a shared two-core machine) is killed, its whole process group with it (the
# servers it started), and reported by name.
#
#   sh tests/run.sh build/tests/test_*
#   TEST_TIMEOUT=60 sh tests/run.sh build/tests/test_server
limit=${TEST_TIMEOUT:-300}
guard="timeout -k 10 $limit"
command -v timeout >/dev/null 2>&1 || { echo "run.sh: no timeout command (coreutils): binaries run without a limit"; guard=""; }
passed=0; failed=0; skipped=0; bad=""; skips=""
for t in "$@"; do
    out=$($guard "$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    # the per-test lines before the summary "[==========] N test(s) run."
    counts=$(printf '%s\n' "$out" | awk '
        /^\[==========\] [0-9]+ test\(s\) run\./ { done = 1 }
        done { next }
        /^\[ RUN      \] / { run++ }
        /^\[       OK \] / { ok++ }
        /^\[  SKIPPED \] / { sk++; names = names " " $4 }
        END { printf "%d %d %d%s\n", run, ok, sk, names }')
    read -r run ok sk names <<END
$counts
END
    nf=$((run - ok - sk))
    why=""
    if [ -n "$guard" ] && { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then why="timed out after ${limit} s"
    elif [ "$rc" -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^\[==========\] [0-9]* test(s) run\.'; then
        why="crashed (exit $rc) before its summary"
    elif [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then why="exited $rc after its summary"
    fi
    if [ -n "$why" ]; then
        echo "$t: $why"
        # the test that was running when it died is already counted (it never
        # said OK); a binary that died outside any test counts as one failure
        [ "$nf" -eq 0 ] && nf=1
    fi
    passed=$((passed + ok)); failed=$((failed + nf)); skipped=$((skipped + sk))
    [ "$rc" -ne 0 ] || [ "$nf" -ne 0 ] && bad="$bad $t${why:+ ($why)}"
    [ "$sk" -ne 0 ] && skips="$skips $names"
done
[ -n "$bad" ] && echo "failing:$bad"
if [ -n "$skips" ]; then
    if [ "${CI:-}" = true ]; then
        echo "skipped, which CI counts as failed:$skips"
        failed=$((failed + skipped))
    else
        echo "skipped:$skips"
    fi
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ -z "$bad" ]
