#!/bin/sh
# Runs every cmocka test binary given, then prints one closing line
# "N passed, N failed" that CI reads. Exits non-zero if anything failed.
passed=0; failed=0; bad=""
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    run=$(printf '%s\n' "$out" | sed -n 's/^\[==========\] \([0-9]*\) test(s) run\..*/\1/p' | tail -n 1)
    nf=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:.*/\1/p' | tail -n 1)
    [ -n "$run" ] || run=0
    [ -n "$nf" ] || nf=0
    if [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then nf=1; fi   # crashed before its summary
    passed=$((passed + run - nf)); failed=$((failed + nf))
    [ "$rc" -ne 0 ] && bad="$bad $t"
done
[ -n "$bad" ] && echo "failing:$bad"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ -z "$bad" ]
