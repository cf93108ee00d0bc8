#!/bin/bash
# The README's install figures (issue 42), measured on a fresh clone: scripts/bench/measure_install.sh [CHECKOUT] [OUT]
#
# Clones CHECKOUT (default: this checkout) to /tmp/fresh-envdocs and, with pip's cache and numba's cache empty at the
# start (PIP_CACHE_DIR=/tmp/fresh-pipcache, NUMBA_CACHE_DIR=/tmp/fresh-numba), times in turn under /usr/bin/time -v:
# the README's first command in two steps (the install into .venv, then `riskstats odds 10 5`, twice), the second
# command's install (.venv-test with the dev extra), a base install again (pip's cache now warm), then each optional
# extra of pyproject.toml installed with riskstats into a fresh environment of its own, torch's CPU build before
# `learn` (as docs/environments.md says). One row per step in OUT/results.csv (wall, user and system seconds, peak
# memory, the load average before and after); each step's output and /usr/bin/time report beside it.
# data/install/measurements.csv is that file in tidy form; the test suite's cold run is a separate step there.
set -u
SRC=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
M=${2:-/tmp/fresh-meas}
mkdir -p "$M"
m() {
  name=$1; shift
  cmd="$*"
  start=$(date -u +%Y-%m-%dT%H:%M:%SZ); la0=$(cut -d' ' -f1-3 /proc/loadavg)
  ( cd /tmp/fresh-envdocs && /usr/bin/time -v -o "$M/$name.time" bash -c "$cmd" ) > "$M/$name.out" 2>&1
  rc=$?
  la1=$(cut -d' ' -f1-3 /proc/loadavg)
  wall=$(grep 'Elapsed (wall' "$M/$name.time" | awk '{print $NF}')
  usr=$(grep 'User time' "$M/$name.time" | awk '{print $NF}')
  sys=$(grep 'System time' "$M/$name.time" | awk '{print $NF}')
  rss=$(grep 'Maximum resident' "$M/$name.time" | awk '{print $NF}')
  echo "$name,$start,$rc,$wall,$usr,$sys,$rss,$la0,$la1" >> "$M/results.csv"
}
export PIP_CACHE_DIR=/tmp/fresh-pipcache
export NUMBA_CACHE_DIR=/tmp/fresh-numba
rm -rf /tmp/fresh-envdocs $PIP_CACHE_DIR $NUMBA_CACHE_DIR /tmp/fresh-venvs
git clone -q "$SRC" /tmp/fresh-envdocs
(cd /tmp/fresh-envdocs && git rev-parse HEAD) > "$M/commit"
echo "name,start_utc,rc,wall,user_s,sys_s,max_rss_kb,loadavg_start,loadavg_end" > "$M/results.csv"
m install 'python3 -m venv .venv && .venv/bin/pip install -q .'
m first_command '.venv/bin/riskstats odds 10 5'
m first_command_again '.venv/bin/riskstats odds 10 5'
m install_dev 'python3 -m venv .venv-test && .venv-test/bin/pip install -q ".[dev]"'
m install_again 'python3 -m venv /tmp/fresh-venvs/base && /tmp/fresh-venvs/base/bin/pip install -q .'
for x in fit rl distributed tune notebooks; do
  m install_$x "python3 -m venv /tmp/fresh-venvs/$x && /tmp/fresh-venvs/$x/bin/pip install -q \".[$x]\""
done
L=/tmp/fresh-venvs/learn
m install_torch_cpu "python3 -m venv $L && $L/bin/pip install -q \"torch==2.13.0+cpu\""
m install_learn "$L/bin/pip install -q \".[learn]\""
m learn_import "$L/bin/python -c 'import torch, sb3_contrib; print(torch.__version__, sb3_contrib.__version__)'"
