#!/bin/sh
# i25-hardnow-old.sh: build the issue-day kontor that docs/arena/i25-hardnow-* played against.
#
# Issue 18 asks for the new `hard` against "today's hard", the hard of the day the issue was
# filed: commit 7e4af1c8, the parent of ba130f49, the first commit of the issue's work (docs/ai.md,
# "Session fifteen: hard18"). That build cannot be used as it stands: it has no clock=cpu (the
# equal-CPU budget came with 39a23359), so i25-hardnow-old.patch back-ports just that (the
# deadline read from the search thread's CPU clock, option clock=0|1; the search is untouched),
# and its server needs civetweb, which this machine no longer has, so the binary is linked with a
# stub server_run (the arena uses only `kontor engine`). The records name the engine
# /tmp/h18o: this script puts the binary there, so that `--resume` finds the same agent names.
#
#   sh docs/arena/i25-hardnow-old.sh [DIR [LINK]]   (DIR: the old tree, default /tmp/h18old;
#                                                   LINK: the binary's name, default /tmp/h18o)
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
D=${1:-/tmp/h18old}
L=${2:-/tmp/h18o}
git -C "$R" worktree add --detach "$D" 7e4af1c8
cd "$D"
git apply "$R/docs/arena/i25-hardnow-old.patch"
objs=$(ls src/cli/*.c src/server/*.c | grep -v '^src/server/server\.c$' | sed 's|^|build/|;s|\.c$|.o|')
make build/libkontor.a $objs
cat > build/stub_server.c <<'STUB'
/* the old build's server_run, stubbed: its HTTP library (civetweb) is gone; the arena needs only
   `kontor engine` */
#include "server/server.h"
int server_run(const server_opts *o, kontor_error *err) { (void)o; (void)err; return -1; }
STUB
cc -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc -O2 -c build/stub_server.c -o build/stub_server.o
cc -o build/kontor $objs build/stub_server.o build/libkontor.a -ljansson -lsqlite3 -ldl -lm -pthread \
   $(pkg-config --libs ncursesw)
ln -sf "$D/build/kontor" "$L"
echo "the issue-day engine: $L -> $D/build/kontor"
