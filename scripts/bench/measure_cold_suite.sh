#!/usr/bin/env bash
# The README's test command on a fresh clone of HEAD with an empty numba cache (what a new machine runs), timed with
# /usr/bin/time -v; the load average sampled every 30 s beside it. Issue 56.
#   bash scripts/bench/measure_cold_suite.sh [WORK_DIR]     # default /tmp/riskstats-cold; prints where the logs are
# Writes WORK_DIR/{out.txt (pytest's output), time.txt (/usr/bin/time -v, then rc=), load.txt (time and load)}; the
# numba cache it fills is WORK_DIR/cache (copy WORK_DIR/cache/riskstats-modules into ~/.cache/numba to keep it).
set -euo pipefail
work="${1:-/tmp/riskstats-cold}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
rm -rf "$work" && mkdir -p "$work/cache"
git clone -q "$root" "$work/clone"
( while true; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> "$work/load.txt"; sleep 30; done ) &
sampler=$!
trap 'kill $sampler' EXIT
cd "$work/clone"
set +e
NUMBA_CACHE_DIR="$work/cache" /usr/bin/time -v bash -c \
    'python3 -m venv .venv-test && .venv-test/bin/pip install -q ".[dev]" && .venv-test/bin/python -m pytest -n 2' \
    > "$work/out.txt" 2> "$work/time.txt"
echo "rc=$?" >> "$work/time.txt"
echo "logs in $work: $(tail -1 "$work/out.txt")"
