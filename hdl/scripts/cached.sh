#!/usr/bin/env bash
# cached.sh TARGET 'INPUT...' 'SAVED...' 'TOOL...' -- CMD...
#
# Runs CMD, which makes TARGET and SAVED (its logs), unless a run with the same
# inputs is in the cache: then copies them from there. The key is CMD's words,
# every INPUT's name and content (make's prerequisites and the script CMD reads)
# and every TOOL's `--version`. The one-pipeline route of `make test` takes 4 to
# 10 minutes of one core and its inputs change in few commits: cached, it gives
# that core back to the suites running beside it.
#
# The cache is $FPGAMR_CACHE/hdl (default /var/cache/fpgamr, the board build's
# too), one entry per TARGET, stored whole once CMD succeeded. Where it cannot be
# written CMD simply runs. Relative paths only: the key holds no checkout's path.
set -euo pipefail
usage() { echo "usage: cached.sh TARGET 'INPUT...' 'SAVED...' 'TOOL...' -- CMD..." >&2; exit 2; }
[ $# -ge 6 ] && [ "$5" = -- ] || usage
target="$1"; read -ra inputs <<<"$2"; read -ra saved <<<"$3"; read -ra tools <<<"$4"
shift 5
files=("$target" "${saved[@]}")

key=$({
	printf '%q ' "$@"; echo
	for f in "${inputs[@]}"; do echo "== $f"; cat "$f"; done
	# a tool that is missing says so when CMD runs
	for t in "${tools[@]}"; do "$t" --version 2>/dev/null || true; done
} | sha256sum | cut -c1-16)
cache="${FPGAMR_CACHE:-/var/cache/fpgamr}/hdl"
name=$(basename "$target")
store="$cache/$name-$key"

if [ -f "$store/.complete" ]; then
	for f in "${files[@]}"; do cp "$store/$(basename "$f")" "$f"; done
	echo "$target: from the cache, made on $(cat "$store/.complete") with the same inputs ($store)"
	exit 0
fi
"$@"
if mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; then
	tmp=$(mktemp -d "$store.XXXXXX.tmp")
	for f in "${files[@]}"; do cp "$f" "$tmp/"; done
	date -u +%Y-%m-%dT%H:%MZ >"$tmp/.complete"
	# TARGET's older entry goes; another run that stored this one first keeps its own
	find "$cache" -maxdepth 1 -name "$name-*" ! -name "$name-$key" ! -name '*.tmp' -exec rm -rf {} +
	mv -T "$tmp" "$store" 2>/dev/null || rm -rf "$tmp"
else
	echo "$target: not cached ($cache cannot be written; set FPGAMR_CACHE to a folder of yours)"
fi
