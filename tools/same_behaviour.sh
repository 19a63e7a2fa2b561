#!/bin/sh
# same_behaviour.sh: the fingerprint of the engine's behaviour, to compare a
# speed-up against the build before it (issue 17: "behaviour unchanged: the
# bench signatures and every record replay the same").
#
# Prints one line per variant with the signature of `kontor bench --games 20000 --runs 1`, then one hash of
# `kontor replay --trace` over every committed record, in a fixed order.
# Two builds behave the same on these when the outputs are byte-identical:
#
#   sh tools/same_behaviour.sh ./kontor > /tmp/before.txt   (the old build)
#   sh tools/same_behaviour.sh ./kontor > /tmp/after.txt    (the new build)
#   cmp /tmp/before.txt /tmp/after.txt
#
# Takes about a minute on an idle core. $1 is the kontor binary (default ./kontor).
set -eu
K=${1:-./kontor}
for v in basic advanced four specials canale kleinen wasserspiele tictactoe bakschisch \
         david gigant gulliver justizia insel insel4 armut armut4 seilschaften seilschaften4; do
    "$K" bench --games 20000 --runs 1 --variant "$v" | sed 's/.*signature/'"$v"' signature/'
done
find docs tests -name '*.kgn' | LC_ALL=C sort > /tmp/same_behaviour.$$
n=$(wc -l < /tmp/same_behaviour.$$)
h=$(xargs "$K" replay --trace < /tmp/same_behaviour.$$ 2>&1 | sha256sum | cut -c1-16)
rm -f /tmp/same_behaviour.$$
echo "replay --trace of $n records: $h"
