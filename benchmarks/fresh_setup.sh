#!/usr/bin/env bash
# Times the README's first command as a fresh Debian machine runs it: `.ci/setup`'s apt line in
# a fresh debootstrap chroot, its pip line into a fresh virtual environment with no download
# cache, and its npm line with an empty npm cache, ordered as `.ci/setup` orders them (apt and
# pip at once, then npm); then `blackpoker build --out DIR` with an empty cache folder.
# Usage (as root, with debootstrap): bash benchmarks/fresh_setup.sh WORKDIR
# WORKDIR must not exist; everything is made inside it, and the checkout is left untouched.
set -euo pipefail
work=${1:?usage: fresh_setup.sh WORKDIR (a folder that does not exist yet)}
[ -e "$work" ] && { echo "$work: exists; give a new folder" >&2; exit 1; }
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work" && work=$(cd "$work" && pwd)
# The apt packages are read from .ci/setup itself, so the two can't drift apart.
pkgs=$(sed -n '/apt-get install -y -qq --no-install-recommends \\/,/>\/dev\/null/p' "$repo/.ci/setup" \
  | sed '1d; s/\\//; s/>\/dev\/null//' | tr -s ' \n' ' ')

debootstrap --variant=minbase bookworm "$work/root" >"$work/debootstrap.log" 2>&1
git clone -q "$repo" "$work/src"
python3 -m venv "$work/venv"
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$@"; }

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now)
(cd "$work/src" && "$work/venv/bin/python" -m pip install -q --disable-pip-version-check \
  --no-cache-dir -e ".[pdf,test,cluster,openspiel,pettingzoo]") >"$work/pip.log" 2>&1 &
pip=$!
chroot "$work/root" sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq \
  && apt-get install -y -qq --no-install-recommends $pkgs" >"$work/apt.log" 2>&1
t_apt=$(now)
wait "$pip"
t_pip=$(now)
(cd "$work/src" && npm ci --prefix runtime/serve/pyodide --cache "$work/npm-cache" --no-audit \
  --no-fund --ignore-scripts --loglevel=error) >"$work/npm.log" 2>&1
t_setup=$(now)
(cd "$work/src" && XDG_CACHE_HOME="$work/cache" /usr/bin/time -f "%U %S" -o "$work/build.cpu" \
  "$work/venv/bin/blackpoker" build --out "$work/site") >"$work/build.log" 2>&1
t_build=$(now)
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "apt done at $(since "$t0" "$t_apt"), pip done at $(since "$t0" "$t_pip")"
echo "set-up $(since "$t0" "$t_setup"), build $(since "$t_setup" "$t_build")" \
  "(CPU $(awk '{print $1 + $2}' "$work/build.cpu") s), total $(since "$t0" "$t_build")"
echo "$(find "$work/site" -type f | wc -l) files built"
