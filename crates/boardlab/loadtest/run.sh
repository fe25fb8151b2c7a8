#!/usr/bin/env bash
# Load test of `boardlab serve` on loopback with wrk (Debian's package): requests per second and latency (p99) of a
# move, a hint and a sudoku generation under 64 connections, then a flood past the queue limit, which must be
# answered 503 while the server's memory stays flat. Not a test with a pass mark: it prints figures.
#
#   crates/boardlab/loadtest/run.sh [BINARY] [SECONDS]
#
# Run it under the bench lock: flock /work/.bench.lock crates/boardlab/loadtest/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
bin="${1:-$repo/target/release/boardlab}"
secs="${2:-10}"
port="${PORT:-18181}"
url="http://127.0.0.1:$port"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
[ -x "$bin" ] || { echo "no binary at $bin: cargo build --release" >&2; exit 1; }

start() {
  "$bin" serve --addr "127.0.0.1:$port" "$@" > /tmp/boardlab-load-server.log 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "$url/api/status" >/dev/null && return; sleep 0.1; done
  echo "the server did not start" >&2; exit 1
}
stop() { kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap stop EXIT
rss() { curl -s "$url/api/status" | sed -n 's/.*"rss_bytes":\([0-9]*\).*/\1/p'; }

echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
echo "binary: $bin"

start
# A game saved after 1. E1-F2 H8-G7 (the mouse to move), as the page sends it; the answer to the move includes the
# engine's reply (level 5).
save=$(curl -s -H 'content-type: application/json' "$url/api/mouse/session" \
  -d '{"action":{"new":{"player":"mouse","level":5,"mouse_start":"E1","first":"mouse","rule":"row8"}}}' \
  | python3 -c 'import json,sys; s=json.load(sys.stdin)["save"]; s["state"]["moves"]=["e1f2","h8g7"]; s["state"]["undo"]=[[]]; print(json.dumps(s))')
move="{\"save\":$save,\"action\":{\"move\":\"F2-G3\"}}"
hint='{"puzzle":".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.","grid":".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5."}'
gen='{"difficulty":"medium"}'
curl -sf -H 'content-type: application/json' "$url/api/mouse/session" -d "$move" >/dev/null || { echo "the move request fails" >&2; exit 1; }
echo "memory before: $(rss) bytes"
for case in "move|mouse/session|$move" "hint|sudoku/hint|$hint" "generate|sudoku/generate|$gen"; do
  IFS='|' read -r name path body <<< "$case"
  echo "== $name: POST /api/$path, 64 connections, 2 threads, ${secs}s"
  BODY="$body" wrk -t2 -c64 -d"${secs}s" --latency -s "$here/post.lua" "$url/api/$path" \
    | grep -E 'Requests/sec|Latency  |99%|50%|requests in|Non-2xx|Socket errors'
  echo "memory after: $(rss) bytes"
done
stop

echo "== the queue limit: --queue 8, 256 connections on sudoku generation for ${secs}s"
start --queue 8
echo "memory before: $(rss) bytes"
BODY="$gen" wrk -t2 -c256 -d"${secs}s" --latency -s "$here/post.lua" "$url/api/sudoku/generate" \
  | grep -E 'Requests/sec|99%|requests in|Non-2xx|Socket errors'
echo "memory after: $(rss) bytes"
curl -s "$url/api/status"; echo
curl -s -o /dev/null -w 'a request now: %{http_code}\n' -H 'content-type: application/json' "$url/api/sudoku/generate" -d "$gen"
