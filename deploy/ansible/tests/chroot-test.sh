#!/usr/bin/env bash
# deploy/ansible test: applies site.yml for real to a throwaway Debian bookworm root (debootstrap,
# Ansible's community.general.chroot connection), twice (the second run must change nothing), then
# starts HDFS and YARN from the installed units' ExecStart lines in a network namespace of its own
# (loopback only) and runs `fpgamr search` at bits=20 through the installed command, which must
# find the planted preimage 00012345 on YARN.
#
# Needs root (chroot, mounts, namespaces) and the project built (mr-md5/target). Caches the
# debootstrap result and apt's downloads under ~/.cache/fpgamr; works without them.
# Environment: FPGAMR_TEST_KEEP=1 keeps the work folder; FPGAMR_TEST_MIRROR overrides the mirror.
set -euo pipefail

here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"   # deploy/ansible
repo="$(cd "$here/../.." && pwd)"
py=/usr/bin/python3
t0=$SECONDS

fail() {
  echo "deploy test: FAILED: $*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mounts, network namespace)"
for tool in debootstrap ansible-playbook unshare nsenter ip zstd; do
  command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs deploy/apt-packages.txt)"
done

# Everything below runs in a private mount namespace: the chroot's mounts vanish with it, whatever
# way the test ends.
if [ -z "${FPGAMR_TEST_NS:-}" ]; then
  export FPGAMR_TEST_NS=1
  exec unshare --mount --propagation private -- "$0" "$@"
fi

jar="$(ls "$repo"/mr-md5/target/mr-md5-*.jar 2>/dev/null | grep -v -e original -e sources | head -n1 || true)"
[ -n "$jar" ] && [ -d "$repo/mr-md5/target/lib" ] \
  || fail "the project is not built ($repo/mr-md5/target/mr-md5-*.jar, lib/): run 'mvn -DskipTests package' at the repo root"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/fpgamr"
mkdir -p "$cache/apt-archives/partial"
work="$(mktemp -d /var/tmp/fpgamr-deploy-test.XXXXXX)"
root="$work/root"
logs="$work/logs"
mkdir -p "$root" "$logs"
holder=""

# A snapshot of the build outputs the playbook ships (other builds may rewrite the checkout's
# target/ folders while the test runs; both playbook runs must see the same files).
snapshot() {
  local src="$work/src" f
  mkdir -p "$src"
  cd "$repo"
  for f in pom.xml bin/fpgamr */target/*.jar */target/lib energy/jmx energy/prometheus energy/grafana \
           kernel/dkms.conf kernel/Kbuild kernel/*.c kernel/*.h kernel/include \
           hdl/build/*.dtbo hdl/quartus/output_files/*.rbf; do
    [ -e "$f" ] && cp -a --parents "$f" "$src/"
  done
  cd - >/dev/null
}

netns_pids() {
  # Every process in the test's network namespace: the daemons, their containers, the job.
  [ -n "$holder" ] || return 0
  local ns pid
  ns="$(readlink "/proc/$holder/ns/net" 2>/dev/null)" || return 0
  for pid in /proc/[0-9]*; do
    pid="${pid#/proc/}"
    [ "$pid" = "$holder" ] && continue
    [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" = "$ns" ] && echo "$pid"
  done
  return 0
}

cleanup() {
  local rc=$?
  set +e
  local pids
  pids="$(netns_pids)"
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null
    sleep 2
    pids="$(netns_pids)"
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
  fi
  [ -n "$holder" ] && kill -KILL "$holder" 2>/dev/null
  # Unmount everything below the root, deepest first.
  local m
  for _ in 1 2 3; do
    for m in $(awk -v r="$root" '$5 == r || index($5, r "/") == 1 {print $5}' /proc/self/mountinfo | sort -r); do
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
    done
  done
  if awk -v r="$root" '$5 == r || index($5, r "/") == 1 {found=1} END {exit !found}' /proc/self/mountinfo; then
    echo "deploy test: could not unmount everything under $root; leaving $work" >&2
  elif [ "${FPGAMR_TEST_KEEP:-0}" = 1 ]; then
    echo "deploy test: work folder kept: $work" >&2
  else
    rm -rf --one-file-system "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { echo "--- deploy test [$((SECONDS - t0)) s]: $*"; }

snapshot

# --- 1. A Debian bookworm root, from the cache or from the machine's Debian mirror -------------
mirror="${FPGAMR_TEST_MIRROR:-}"
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
  mirror="$(awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' /etc/apt/sources.list.d/debian.sources)"
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror="$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list)"
fi
[ -n "$mirror" ] || fail "no bookworm mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
include="python3,systemd,ca-certificates"
key="$(printf '%s|%s|%s|%s' bookworm minbase "$include" "$mirror" | sha256sum | cut -c1-12)"
tarball="$cache/debootstrap-bookworm-$key.tar.zst"
if [ -f "$tarball" ]; then
  step "unpacking the cached Debian root $(basename "$tarball")"
  tar --zstd -xpf "$tarball" -C "$root" || fail "cannot unpack $tarball (delete it to rebuild)"
else
  step "debootstrap bookworm from $mirror (cached afterwards in $cache)"
  debootstrap --variant=minbase --include="$include" bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 \
    || { tail -n 20 "$logs/debootstrap.log" >&2; fail "debootstrap"; }
  chroot "$root" apt-get clean
  tar --zstd -cpf "$tarball.tmp.$$" -C "$root" . && mv "$tarball.tmp.$$" "$tarball"
fi

# --- 2. Mounts (all inside this private mount namespace) ---------------------------------------
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount -t tmpfs -o mode=0755,size=16m tmpfs "$root/dev"
for d in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  IFS=: read -r name major minor <<<"$d"
  mknod -m 0666 "$root/dev/$name" c "$major" "$minor"
done
mkdir -p "$root/dev/pts" "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
ln -s /proc/self/fd "$root/dev/fd"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# No service starts inside the chroot while packages install.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"

# --- 3. The inventory of the test cluster: one node in every group ------------------------------
arch="$(uname -m)"
cat >"$work/inventory.yml" <<EOF
---
all:
  vars:
    ansible_connection: community.general.chroot
    ansible_python_interpreter: /usr/bin/python3
  children:
    namenode:
      hosts:
        node1:
    resourcemanager:
      hosts:
        node1:
    workers:
      hosts:
        node1:
    monitoring:
      hosts:
        node1:
EOF
mkdir -p "$work/host_vars"
cat >"$work/host_vars/node1.yml" <<EOF
---
ansible_host: $root
fpgamr_node_address: 127.0.0.1
fpgamr_arch: $arch
# systemd does not run in a chroot: units are installed and enabled, the test starts them.
fpgamr_start_services: false
# The Apache download site is not reachable: Hadoop from the jars the project assembles.
hadoop_install_mode: jars
# Grafana is not in Debian: provisioning files only.
grafana_install_package: false
hadoop_nm_memory_mb: 3072
hadoop_nm_vcores: 3
EOF

play() {
  local n="$1"
  ANSIBLE_CONFIG="$here/ansible.cfg" ANSIBLE_FORCE_COLOR=0 ANSIBLE_NOCOLOR=1 \
    ansible-playbook -i "$work/inventory.yml" "$here/site.yml" -e "fpgamr_stage_dir=$work/stage" -e "fpgamr_src=$work/src" \
    >"$logs/playbook-$n.log" 2>&1
}

recap() {
  sed -n '/^PLAY RECAP/,$p' "$logs/playbook-$1.log"
}

step "ansible-playbook site.yml, run 1"
if ! play 1; then
  grep -n -B2 -A12 -E '^(fatal|failed):|ERROR!' "$logs/playbook-1.log" | tail -n 60 >&2
  fail "the first run of site.yml failed (log: $logs/playbook-1.log)"
fi
recap 1
step "ansible-playbook site.yml, run 2 (must change nothing)"
play 2 || { tail -n 40 "$logs/playbook-2.log" >&2; fail "the second run of site.yml failed"; }
recap 2
if recap 2 | grep -E 'changed=[1-9]|failed=[1-9]|unreachable=[1-9]' >/dev/null; then
  grep -E '^changed:' -B1 "$logs/playbook-2.log" | head -n 40 >&2
  fail "the second run changed something: the playbook is not idempotent"
fi

# --- 4. HDFS and YARN from the installed units, in a network namespace of their own ------------
step "starting HDFS and YARN from the installed units (network namespace, loopback only)"
unshare --net --uts -- sleep 100000 &
holder=$!
sleep 0.2
nsenter --net --uts -t "$holder" -- ip link set lo up
nsenter --net --uts -t "$holder" -- hostname node1

start_unit() {
  local unit="$1"
  "$py" "$here/tests/unitexec.py" "$root" "$holder" "$unit" --print >"$logs/$unit.cmd"
  setsid "$py" "$here/tests/unitexec.py" "$root" "$holder" "$unit" >"$logs/$unit.out" 2>&1 </dev/null &
}

in_ns() { nsenter --net --uts -t "$holder" -- "$@"; }

http_get() {  # URL -> body on stdout (from inside the namespace)
  in_ns "$py" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"
}

wait_for() {  # SECONDS DESCRIPTION COMMAND...
  local limit="$1" what="$2"
  shift 2
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 2
  done
  step "$what: up"
}

show_logs() {
  local f
  for f in "$logs"/*.out "$root"/var/log/hadoop/*.log; do
    [ -s "$f" ] || continue
    echo "=== $f (last lines)" >&2
    grep -E 'ERROR|Exception|FATAL' "$f" | tail -n 8 >&2 || true
    tail -n 5 "$f" >&2
  done
}

for u in hadoop-hdfs-namenode hadoop-hdfs-datanode; do
  [ -f "$root/etc/systemd/system/$u.service" ] || fail "unit $u.service not installed"
  [ -L "$root/etc/systemd/system/multi-user.target.wants/$u.service" ] || fail "unit $u.service not enabled"
  start_unit "$u.service"
done
wait_for 120 "NameNode" http_get "http://127.0.0.1:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo" \
  || { show_logs; fail "the NameNode did not come up"; }
step "running hadoop-hdfs-init.service"
"$py" "$here/tests/unitexec.py" "$root" "$holder" hadoop-hdfs-init.service >"$logs/hadoop-hdfs-init.out" 2>&1 </dev/null \
  || { tail -n 20 "$logs/hadoop-hdfs-init.out" >&2; show_logs; fail "hadoop-hdfs-init.service failed"; }
for u in hadoop-yarn-resourcemanager hadoop-yarn-nodemanager hadoop-mapred-historyserver; do
  [ -f "$root/etc/systemd/system/$u.service" ] || fail "unit $u.service not installed"
  start_unit "$u.service"
done
nm_running() { http_get "http://127.0.0.1:8088/ws/v1/cluster/metrics" | grep -q '"activeNodes":1'; }
wait_for 150 "ResourceManager with 1 NodeManager" nm_running || { show_logs; fail "YARN did not come up"; }
dn_live() { http_get "http://127.0.0.1:9870/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState" | grep -q '"NumLiveDataNodes" : 1'; }
wait_for 60 "DataNode registered" dn_live || { show_logs; fail "the DataNode did not register"; }
jhs_up() { http_get "http://127.0.0.1:19888/ws/v1/history/info"; }
wait_for 90 "JobHistoryServer" jhs_up || { show_logs; fail "the JobHistoryServer did not come up"; }

# --- 5. The job, through the installed fpgamr command, as the job user -------------------------
digest="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00012345")).hexdigest())')"
step "fpgamr search $digest --bits 20 (as user fpgamr, HADOOP_CONF_DIR=/etc/hadoop)"
job_rc=0
timeout 300 nsenter --net --uts -t "$holder" -- chroot "$root" \
  setpriv --reuid fpgamr --regid fpgamr --init-groups \
  env -i HOME=/home/fpgamr USER=fpgamr LOGNAME=fpgamr LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
  sh -c 'cd "$HOME" && exec fpgamr search "$0" --bits 20' "$digest" \
  >"$logs/job.stdout" 2>"$logs/job.stderr" || job_rc=$?
cat "$logs/job.stdout"
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest:\$HEX\[00012345\]" "$logs/job.stdout"; then
  tail -n 30 "$logs/job.stderr" >&2
  show_logs
  fail "the search job (exit $job_rc) did not print $digest:\$HEX[00012345]"
fi
apps="$(http_get "http://127.0.0.1:8088/ws/v1/cluster/apps?states=FINISHED")"
echo "$apps" | "$py" -c '
import json, sys
apps = (json.load(sys.stdin).get("apps") or {}).get("app") or []
ok = [a for a in apps if a.get("finalStatus") == "SUCCEEDED" and a.get("applicationType") == "MAPREDUCE"]
print("YARN applications that succeeded: %s" % ", ".join("%s (%s)" % (a["id"], a["name"]) for a in ok))
sys.exit(0 if ok else 1)' || fail "the ResourceManager lists no succeeded MapReduce application: the job did not run on YARN"

# --- 6. Monitoring: the JMX exporter agents answer -----------------------------------------------
if grep -q -- '-javaagent:' "$root/etc/systemd/system/hadoop-hdfs-namenode.service"; then
  for p in 27001:namenode 27002:datanode 27003:resourcemanager 27004:nodemanager 27005:jobhistoryserver; do
    http_get "http://127.0.0.1:${p%%:*}/metrics" | grep -q "^hadoop_${p#*:}_" \
      || fail "the JMX exporter of the ${p#*:} (port ${p%%:*}) serves no hadoop_${p#*:}_* metric"
  done
  step "JMX exporter agents of all five daemons: serving hadoop_* metrics"
fi

echo "deploy test: PASSED in $((SECONDS - t0)) s (site.yml applied twice, second run changed=0; HDFS + YARN from the installed units; search bits=20 found 00012345 on YARN)"
