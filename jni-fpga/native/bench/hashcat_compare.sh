#!/usr/bin/env bash
# hashcat_compare.sh BUILD_DIR: wall time of a whole 2^32 search (all 4-byte messages, a target
# without preimage) by hashcat (when installed) and by us, and their ratio.
set -euo pipefail
build="$1"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# MD5("fpgamr: no 4-byte preimage"), which no 4-byte message has (both searches confirm 0 found)
target=$(printf 'fpgamr: no 4-byte preimage' | md5sum | cut -d' ' -f1)
echo
echo "== whole 2^32 search, target $target (no preimage), all cores"
echo "   (wall seconds; cpu = user + system seconds of all threads, which other load on the machine"
echo "    does not inflate much: compare those when the cores are shared)"
# timed CMD...: runs CMD, output to $tlog, sets wall and cpu
tlog=$(mktemp)
trap 'rm -f "$tlog"' EXIT
timed() {
  local TIMEFORMAT='%R %U %S' t
  set +e
  t=$( { time "$@" > "$tlog" 2>&1; } 2>&1 )
  trc=$?
  set -e
  wall=$(echo "$t" | tail -1 | cut -d' ' -f1)
  cpu=$(echo "$t" | tail -1 | awk '{print $2 + $3}')
}

# ours, 1: the native library alone (2^14 calls of 2^18 values, best kernel, all cores)
timed "$build/bench/bench_kernels" scan32 "$target"
sed 's/^/   /' "$tlog"
native=$wall
native_cpu=$cpu
printf '%-10s %8.2f s wall %8.2f s cpu   %s\n' "native" "$native" "$cpu" "libfpgamr scan, best kernel, all cores, one call per 2^18 batch"
# ours, 2: the whole job through bin/fpgamr (JVM, local MapReduce runner), when it is built
job=""
if [ -x "$root/bin/fpgamr" ] && ls "$root"/mr-md5/target/mr-md5-*.jar >/dev/null 2>&1 && [ -z "${BENCH_NATIVE_ONLY:-}" ]; then
  cd "$root"
  timed bin/fpgamr search "$target" --bits 32 --cluster local --accel cpu
  if [ "$trc" -eq 0 ]; then
    job=$wall
    job_cpu=$cpu
    grep -E "values/s|maps on|^ *total" "$tlog" | sed 's/^ */   /'
    printf '%-10s %8.2f s wall %8.2f s cpu   %s\n' "fpgamr" "$job" "$cpu" "bin/fpgamr search <md5> --bits 32 --cluster local --accel cpu (whole job, JVM start included)"
  else
    echo "bin/fpgamr failed:"; tail -5 "$tlog"
  fi
else
  echo "fpgamr     (bin/fpgamr not built: 'make build' at the top level; native scan only)"
fi

if ! command -v hashcat >/dev/null 2>&1; then
  echo "hashcat    not installed (apt-get install hashcat pocl-opencl-icd: jni-fpga/apt-packages-bench.txt)"
  exit 0
fi
hc_dir=$(mktemp -d)
trap 'rm -rf "$hc_dir" "$tlog"' EXIT
hc=(hashcat -m 0 -a 3 -O --potfile-disable --quiet --session "fpgamr$$" --restore-disable --logfile-disable -o "$hc_dir/out")
# warm-up: builds and caches hashcat's OpenCL kernels (not timed)
"${hc[@]}" "$target" '?b?b' >/dev/null 2>&1 || true
timed "${hc[@]}" "$target" '?b?b?b?b'
cp "$tlog" "$hc_dir/log"
rc=$trc
hcs=$wall
hc_cpu=$cpu
# exit status 1 = exhausted (nothing found), as expected
if [ "$rc" -ne 1 ] && [ "$rc" -ne 0 ]; then
  echo "hashcat exited $rc:"; tail -5 "$hc_dir/log"
fi
printf '%-10s %8.2f s wall %8.2f s cpu   hashcat -m 0 -a 3 -O <md5> ?b?b?b?b (exit %d: %s)\n' "hashcat" "$hcs" "$hc_cpu" "$rc" \
  "$([ "$rc" -eq 1 ] && echo exhausted, no preimage || echo see above)"
printf 'ratio      hashcat / native:      wall %.2f, cpu %.2f  (> 1: we are faster)\n' \
  "$(echo "$hcs / $native" | bc -l)" "$(echo "$hc_cpu / $native_cpu" | bc -l)"
if [ -n "$job" ]; then
  printf 'ratio      hashcat / fpgamr job:  wall %.2f, cpu %.2f\n' \
    "$(echo "$hcs / $job" | bc -l)" "$(echo "$hc_cpu / $job_cpu" | bc -l)"
fi
