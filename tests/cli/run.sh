#!/bin/sh
# Golden transcripts for the kontor command (KataGo's runcmdtests.sh is the
# model): every line "NAME: ARGUMENTS" of tests/cli/cases runs
# `kontor ARGUMENTS` inside tests/cli/ and compares its stdout and stderr
# (merged, in order) and its exit status with tests/cli/expected/NAME.out.
# Nothing in the output depends on the clock or the machine, so the
# comparison is exact.
#
#   sh tests/cli/run.sh [KONTOR]            compare (KONTOR: default build/kontor)
#   sh tests/cli/run.sh [KONTOR] --update   rewrite the expected files
#
# Prints "cli: N passed, N failed" and exits non-zero if any case differs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kontor=${1:-build/kontor}
case $kontor in /*) ;; *) kontor="$(pwd)/$kontor" ;; esac
update=0
[ "${2:-}" = "--update" ] && update=1
if [ ! -x "$kontor" ]; then
    echo "cli: no kontor binary at '$kontor' (run make)"
    exit 2
fi
mkdir -p "$here/expected"
tmp=$(mktemp) || exit 2
passed=0; failed=0
while IFS= read -r line; do
    case $line in '#'*|'') continue ;; esac
    name=${line%%:*}
    args=${line#*: }
    # shellcheck disable=SC2086
    (cd "$here" && "$kontor" $args >"$tmp" 2>&1; echo "exit $?" >>"$tmp")
    want="$here/expected/$name.out"
    if [ "$update" -eq 1 ]; then
        cp "$tmp" "$want"
        passed=$((passed + 1))
    elif [ -f "$want" ] && cmp -s "$tmp" "$want"; then
        passed=$((passed + 1))
    else
        echo "cli: $name: output differs from expected/$name.out:"
        if [ -f "$want" ]; then diff -u "$want" "$tmp" | head -n 40; else echo "  (no expected file)"; fi
        failed=$((failed + 1))
    fi
done <"$here/cases"
rm -f "$tmp"
echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
