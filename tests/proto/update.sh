#!/bin/sh
# Rewrites the golden transcripts: for every tests/proto/NAME.in, runs
#   kontor engine --agent random --seed 1 < NAME.in > NAME.out
# (the command test_proto runs, and compares byte for byte). Run it after a
# deliberate change of the protocol's output, then read the diff before
# committing: every changed line is a change a controller will see.
# Replies hold no timings, so nothing needs stripping.
set -eu
cd "$(dirname "$0")/../.."
kontor=${KONTOR:-build/kontor}
for in in tests/proto/*.in; do
    "$kontor" engine --agent random --seed 1 < "$in" > "${in%.in}.out"
    echo "wrote ${in%.in}.out"
done
