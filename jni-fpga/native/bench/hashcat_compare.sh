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

# ours, 1: the native library alone (2^14 calls of 2^18 values, best kernel, all cores)
line=$("$build/bench/bench_kernels" scan32 "$target")
echo "   $line"
native=$(echo "$line" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
printf '%-10s %8.2f s   %s\n' "native" "$native" "libfpgamr scan, best kernel, all cores, one call per 2^18 batch"
# ours, 2: the whole job through bin/fpgamr (JVM, local MapReduce runner), when it is built
job=""
if [ -x "$root/bin/fpgamr" ] && ls "$root"/mr-md5/target/mr-md5-*.jar >/dev/null 2>&1 && [ -z "${BENCH_NATIVE_ONLY:-}" ]; then
  log=$(mktemp)
  t0=$(date +%s.%N)
  if (cd "$root" && bin/fpgamr search "$target" --bits 32 --cluster local --accel cpu) > "$log" 2>&1; then
    t1=$(date +%s.%N)
    job=$(echo "$t1 - $t0" | bc -l)
    grep -E "values/s|maps on|^ *total" "$log" | sed 's/^ */   /'
    printf '%-10s %8.2f s   %s\n' "fpgamr" "$job" "bin/fpgamr search <md5> --bits 32 --cluster local --accel cpu (whole job, JVM start included)"
  else
    echo "bin/fpgamr failed:"; tail -5 "$log"
  fi
  rm -f "$log"
else
  echo "fpgamr     (bin/fpgamr not built: 'make build' at the top level; native scan only)"
fi

if ! command -v hashcat >/dev/null 2>&1; then
  echo "hashcat    not installed (apt-get install hashcat pocl-opencl-icd: jni-fpga/apt-packages-bench.txt)"
  exit 0
fi
hc_dir=$(mktemp -d)
trap 'rm -rf "$hc_dir"' EXIT
hc=(hashcat -m 0 -a 3 -O --potfile-disable --quiet --session "fpgamr$$" --restore-disable --logfile-disable -o "$hc_dir/out")
# warm-up: builds and caches hashcat's OpenCL kernels (not timed)
"${hc[@]}" "$target" '?b?b' >/dev/null 2>&1 || true
t0=$(date +%s.%N)
set +e
"${hc[@]}" "$target" '?b?b?b?b' > "$hc_dir/log" 2>&1
rc=$?
set -e
t1=$(date +%s.%N)
hcs=$(echo "$t1 - $t0" | bc -l)
# exit status 1 = exhausted (nothing found), as expected
if [ "$rc" -ne 1 ] && [ "$rc" -ne 0 ]; then
  echo "hashcat exited $rc:"; tail -5 "$hc_dir/log"
fi
printf '%-10s %8.2f s   hashcat -m 0 -a 3 -O <md5> ?b?b?b?b (exit %d: %s)\n' "hashcat" "$hcs" "$rc" \
  "$([ "$rc" -eq 1 ] && echo exhausted, no preimage || echo see above)"
printf 'ratio      hashcat / native = %.2f  (> 1: we are faster)\n' "$(echo "$hcs / $native" | bc -l)"
if [ -n "$job" ]; then
  printf 'ratio      hashcat / fpgamr job = %.2f\n' "$(echo "$hcs / $job" | bc -l)"
fi
