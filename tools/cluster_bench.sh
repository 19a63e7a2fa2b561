#!/bin/sh
# tools/cluster_bench.sh: moves/s and latency of one, two and three `kontor serve` nodes on one
# PostgreSQL behind nginx (deploy/nginx.conf), on this machine's loopback (docs/server.md,
# "Several nodes"). Starts a PostgreSQL of its own (tests/pgtmp.sh, fsync on), three nodes and
# three nginx (one, two and three upstreams), then runs `kontor loadtest --port` against each in
# turn, ROUNDS times interleaved, and stops everything it started.
#
#   sh tools/cluster_bench.sh [GAMES] [ROUNDS] [THINK_MS]     (defaults 100 3 0)
set -eu
cd "$(dirname "$0")/.."
games=${1:-100}
rounds=${2:-3}
think=${3:-0}
kontor=${KONTOR:-build/kontor}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
work=$(mktemp -d /tmp/kontor-bench-XXXXXX)
pgdir=$(mktemp -d /tmp/kontor-pg-XXXXXX)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    sleep 1
    sh tests/pgtmp.sh stop "$pgdir"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
url=$(sh tests/pgtmp.sh start "$pgdir" "$(free_port)")
p1=$(free_port); p2=$(free_port); p3=$(free_port)
for p in $p1 $p2 $p3; do
    "$kontor" serve --port "$p" --db "$url" --web web --quiet --conns-per-addr 0 --create-per-min 0 >"$work/node$p.log" 2>&1 &
    pids="$pids $!"
done
[ "$(id -u)" -eq 0 ] && chown nobody "$work"
for n in 1 2 3; do
    port=$(free_port)
    eval "nginx_port_$n=$port"
    mkdir -p "$work/nginx$n"
    [ "$(id -u)" -eq 0 ] && chown nobody "$work/nginx$n"
    sed -e "s/listen 8080;/listen 127.0.0.1:$port;/" -e "s/127.0.0.1:8081/127.0.0.1:$p1/" \
        -e "s/127.0.0.1:8082/127.0.0.1:$p2/" -e "s/127.0.0.1:8083/127.0.0.1:$p3/" deploy/nginx.conf >"$work/nginx$n/nginx.conf"
    # keep the first n upstream servers
    [ "$n" -lt 3 ] && sed -i "/127.0.0.1:$p3 /d" "$work/nginx$n/nginx.conf"
    [ "$n" -lt 2 ] && sed -i "/127.0.0.1:$p2 /d" "$work/nginx$n/nginx.conf"
    nginx -p "$work/nginx$n" -c "$work/nginx$n/nginx.conf" -g "daemon off;" &
    pids="$pids $!"
done
sleep 2
for r in $(seq 1 "$rounds"); do
    for n in 1 2 3; do
        eval "port=\$nginx_port_$n"
        echo "== round $r, $n node(s): kontor loadtest --games $games --think $think --port $port"
        "$kontor" loadtest --games "$games" --think "$think" --port "$port" --seconds 120 | grep -E "moves/s|latency|refused|seats saw"
    done
done
