#!/usr/bin/env bash
# The English table (boardlab peg count --json) on one machine: the single-machine engine, then the cluster path
# with 1 process of 2 workers and with 2 processes of 1 worker, in alternating runs; wall, CPU (user + sys, the
# whole process tree) and peak memory from /usr/bin/time, and the cluster's own figures (per process: peak
# memory, bytes on the wire) from its JSON. Run from the repository root, after `cargo build --release`, under
# the machine's benchmark lock:
#
#     flock /work/.bench.lock crates/peg-cluster/bench/english.sh 5
#
# The argument is the number of rounds (each round runs the three commands once).
set -euo pipefail
rounds="${1:-3}"
bin="${BOARDLAB:-target/release/boardlab}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A cmds=(
    [single]="$bin --json peg count"
    [1x2]="$bin --json peg count --local-processes 1 --workers 2"
    [2x1]="$bin --json peg count --local-processes 2 --workers 1"
)
for r in $(seq "$rounds"); do
    for name in single 1x2 2x1; do
        /usr/bin/time -f "%e %U %S %M" -o "$out/time" ${cmds[$name]} > "$out/json"
        read -r wall user sys maxkb < "$out/time"
        extra=""
        if grep -q '"cluster"' "$out/json"; then
            extra=$(python3 - "$out/json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cluster"]
print(" ".join(f"p{p['process']}:peak={p['peak_memory']>>20}MB,sent={p['bytes_sent']},recv={p['bytes_received']},records_sent={p['records_sent']},remote={p['records_sent_remote']}" for p in c["per_process"]))
PY
)
        fi
        printf "%-7s round %d: wall %6.2f s  cpu %6.2f s  maxrss %5d MB  %s\n" "$name" "$r" "$wall" \
            "$(echo "$user + $sys" | bc)" "$((maxkb / 1024))" "$extra"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
