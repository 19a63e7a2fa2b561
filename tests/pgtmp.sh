#!/bin/sh
# tests/pgtmp.sh: a PostgreSQL server of a test's own, from Debian's packages,
# in a temporary directory, as an unprivileged user (PostgreSQL refuses to run
# as root: when run as root this script runs it as `nobody`).
#
#   sh tests/pgtmp.sh start DIR PORT   initdb into DIR/data, start it on
#                                      127.0.0.1:PORT (socket in DIR); prints the URL
#   sh tests/pgtmp.sh stop DIR         stop it (immediate) and remove DIR
#
# A missing PostgreSQL is an error, never a skip (tools/setup.sh installs it).
# PGTMP_FSYNC=off makes commits not wait for the disk (the tests' kill -9 is
# of kontor nodes, never of PostgreSQL); the figures in docs/server.md were
# measured with the default, fsync on.
set -eu
cmd=$1
dir=$2
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "pgtmp: PostgreSQL is not installed (Debian: apt-get install postgresql; tools/setup.sh does)" >&2
    exit 1
fi
as_user() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
case $cmd in
start)
    port=$3
    if [ "$(id -u)" -eq 0 ]; then chown nobody "$dir"; fi
    as_user "$bindir/initdb" -D "$dir/data" -U kontor --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    as_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${PGTMP_FSYNC:-on} -c max_connections=200" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://kontor@127.0.0.1:$port/postgres"
    ;;
stop)
    as_user "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: pgtmp.sh start DIR PORT | stop DIR" >&2
    exit 2
    ;;
esac
