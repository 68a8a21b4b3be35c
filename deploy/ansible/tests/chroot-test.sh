#!/usr/bin/env bash
# deploy/ansible test: applies site.yml for real to a mixed cluster of throwaway Debian bookworm
# roots, the example inventory's shape: two x86 roots (debootstrap), node1 (master and worker) and
# fpga1 (an FPGA worker with a simulated accelerator), and two armhf roots whose programs run under
# QEMU's user-mode emulation (bin/armhf-root's), arm1 (an ARM worker) and armfpga1 (an ARM-FPGA worker
# with a simulated accelerator), each reached the way a real node is: over SSH (an sshd of the root's
# own, on a loopback port), the x86 roots as an unprivileged user with sudo (become), the ARM roots as
# root. A second run on the x86 roots must change nothing. Then starts HDFS, YARN, the energy exporter
# and Prometheus from the installed units, as systemd would (ExecStartPre, ExecStart, ExecStartPost:
# the units' own readiness waits), in a network namespace of its own (loopback only), runs jobs
# through the installed commands (one whose maps run on every worker type), and runs the fpga role's
# doctor on the started FPGA worker.
#
# Needs root (chroot, mounts, namespaces, binfmt_misc) and the project built (mr-md5/target).
# Caches the debootstrap result, apt's downloads and the ARM workers' roots (with python3 and sshd;
# and as the playbook left each) under ~/.cache/fpgamr; works without them.
# Environment: FPGAMR_TEST_KEEP=1 keeps the work folder; FPGAMR_TEST_MIRROR overrides the mirror;
# FPGAMR_DEPLOY_ARM=0 leaves out the ARM workers (their emulated play and JVMs: minutes on 2 cores):
# the cluster is then node1 and fpga1.
set -euo pipefail

here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"   # deploy/ansible
repo="$(cd "$here/../.." && pwd)"
py=/usr/bin/python3
t0=$SECONDS

# Each step is one check; the count ends the log as "N passed, M failed" (bin/run-tests reads it).
steps=0
fail() {
  echo "deploy chroot test: FAILED: $*" >&2
  echo "deploy chroot test: $((steps > 0 ? steps - 1 : 0)) passed, 1 failed"
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mounts, network namespace)"
for tool in debootstrap ansible-playbook unshare nsenter ip zstd ssh ssh-keygen sha256sum; do
  command -v "$tool" >/dev/null || fail "$tool is missing (make deps-test installs deploy/apt-packages-test.txt)"
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
mkdir -p "$cache"
work="$(mktemp -d /var/tmp/fpgamr-deploy-test.XXXXXX)"
root="$work/node1"       # namenode, resourcemanager, monitoring and a worker: the daemons run here
froot="$work/fpga1"      # a second worker, set up as an FPGA node (never started: no FPGA here)
logs="$work/logs"
mkdir -p "$root" "$froot" "$logs"
holder=""
with_arm=true
[ "${FPGAMR_DEPLOY_ARM:-1}" = 0 ] && with_arm=false

step() { steps=$((steps + 1)); echo "--- deploy chroot test [$((SECONDS - t0)) s]: $*"; }

root_pids() {
  # Every process chrooted into a root of the test: the sshds, the daemons, their containers.
  local pid r
  for pid in /proc/[0-9]*; do
    r="$(readlink "$pid/root" 2>/dev/null)" || continue
    case "$r" in "$work"/*) echo "${pid#/proc/}" ;; esac
  done
  return 0
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
  local pids m
  pids="$(netns_pids; root_pids)"
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      pids="$(netns_pids; root_pids)"
      [ -n "$pids" ] || break
      sleep 0.5
    done
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
  fi
  [ -n "$holder" ] && kill -KILL "$holder" 2>/dev/null
  wait 2>/dev/null
  # Unmount everything below the work folder, deepest first.
  for _ in 1 2 3; do
    for m in $(awk -v r="$work" 'index($5, r "/") == 1 {print $5}' /proc/self/mountinfo | sort -r); do
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
    done
  done
  if awk -v r="$work" 'index($5, r "/") == 1 {found=1} END {exit !found}' /proc/self/mountinfo; then
    echo "deploy chroot test: could not unmount everything under $work; leaving it" >&2
  elif [ "${FPGAMR_TEST_KEEP:-0}" = 1 ]; then
    echo "deploy chroot test: work folder kept: $work" >&2
  else
    rm -rf --one-file-system "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'fail "interrupted (a signal or the time limit)"' INT TERM

# --- 0. A snapshot of the build outputs the playbook ships ---------------------------------------
# Other builds may rewrite the checkout's target/ folders while the test runs; both playbook runs
# must see the same files.
mkdir -p "$work/src"
(
  cd "$repo"
  for f in pom.xml bin/fpgamr */target/*.jar */target/lib energy/jmx energy/prometheus energy/grafana \
           kernel/dkms.conf kernel/Kbuild kernel/*.c kernel/*.h kernel/include \
           hdl/build/*.dtbo hdl/quartus/output_files/*.rbf; do
    if [ -e "$f" ]; then cp -a --parents "$f" "$work/src/"; fi
  done
)

# --- 1. Two Debian bookworm roots, from the cache or from the machine's Debian mirror -----------
mirror="${FPGAMR_TEST_MIRROR:-}"
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
  mirror="$(awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' /etc/apt/sources.list.d/debian.sources)"
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror="$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list)"
fi
[ -n "$mirror" ] || fail "no bookworm mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
include="python3,systemd,ca-certificates,openssh-server,sudo"
key="$(printf '%s|%s|%s|%s' bookworm minbase "$include" "$mirror" | sha256sum | cut -c1-12)"
tarball="$cache/debootstrap-bookworm-$key.tar.zst"
if [ ! -f "$tarball" ]; then
  step "debootstrap bookworm from $mirror (cached afterwards in $tarball)"
  debootstrap --variant=minbase --include="$include" bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 \
    || { tail -n 20 "$logs/debootstrap.log" >&2; fail "debootstrap"; }
  chroot "$root" apt-get clean
  tar --zstd -cpf "$tarball.tmp.$$" -C "$root" . && mv "$tarball.tmp.$$" "$tarball"
else
  step "unpacking the cached Debian root $(basename "$tarball")"
  tar --zstd -xpf "$tarball" -C "$root" || fail "cannot unpack $tarball (delete it to rebuild)"
fi
tar --zstd -xpf "$tarball" -C "$froot" || fail "cannot unpack $tarball"

# --- 1b. The ARM workers' armhf roots -----------------------------------------------------------
# arm1, an ARM worker, and armfpga1, an ARM-FPGA worker with a simulated accelerator (the Verilated
# model cross-built for armhf, from the jni-fpga jar): the example inventory's ARM board and DE10-Nano.
# Each is bin/armhf-root's root (debootstrap --arch=armhf with OpenJDK 17, made once, cached in
# /var/cache/fpgamr) plus what Ansible needs to reach it as a node (python3, sshd), installed once
# under emulation and cached; and that root as the playbook left it, cached per node under a key of
# what went into it (the base, those packages, the mirror, the playbook's files, the node's inventory).
# A run applies site.yml to each once: to a fresh node on a miss, to a node deployed before on a hit.
# On tmpfs: a 32-bit program under QEMU on this 64-bit host cannot list ext4 directories.
arm_nodes=()
$with_arm && arm_nodes=(arm1 armfpga1)
arm_vars() {  # NAME: an ARM worker's inventory, but how Ansible reaches it
  local address=127.0.0.3 shuffle=13564
  [ "$1" = arm1 ] || { address=127.0.0.4; shuffle=13565; }
  cat <<EOF
fpgamr_node_address: $address
# armhf as the DE10-Nano's Cortex-A9: QEMU answers uname as armv7l.
fpgamr_arch: armv7l
# One map's container (512 MiB) and no room for an ApplicationMaster (768 MiB), as on a DE10-Nano.
hadoop_nm_memory_mb: 512
hadoop_nm_vcores: 1
hadoop_shuffle_port: $shuffle
# The containers' JVMs run on the emulated board's CPU too (QEMU reads QEMU_CPU at each exec).
hadoop_yarn_site_extra:
  yarn.nodemanager.admin-env: "MALLOC_ARENA_MAX=\$MALLOC_ARENA_MAX,LD_LIBRARY_PATH=/opt/fpgamr/native,QEMU_CPU=cortex-a9"
EOF
  [ "$1" = armfpga1 ] || return 0
  cat <<'EOF'
# An ARM-FPGA worker whose NodeManager offers one simulated accelerator (the Verilated model built
# for armhf): the whole fpga role but the kernel module (built for a board's kernel, which a chroot
# has not) and the bitstream (no Quartus here).
fpgamr_fpga_devices:
  - fpgamr-md5
fpga_dkms: false
fpga_design_required: false
hadoop_fpga_vsim_devices: 1
EOF
}
declare -A arm_cached arm_deployed
if $with_arm; then
arm_tar="$("$repo/bin/armhf-root" --tarball)" || fail "bin/armhf-root --tarball (the armhf root with OpenJDK 17)"
arm_packages="python3,openssh-server,systemd"   # systemd: the playbook enables units with systemctl, as on the x86 roots
arm_key="$({ sha256sum <"$arm_tar"; echo "$arm_packages $mirror"; } | sha256sum | cut -c1-12)"
arm_base="$cache/armhf-ssh-$arm_key.tar.zst"
roles_sum="$(cd "$here" && find site.yml roles -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)"
if [ ! -f "$arm_base" ]; then
  step "the armhf root of bin/armhf-root plus $arm_packages, installed under emulation (cached afterwards in $arm_base)"
  t_arm=$SECONDS
  b="$work/armhf-base"
  mkdir -p "$b"
  mount -t tmpfs -o mode=0755 tmpfs "$b"
  tar -xpf "$arm_tar" -C "$b" || fail "cannot unpack $arm_tar"
  mount -t proc proc "$b/proc"
  mount --rbind /dev "$b/dev"
  cp /etc/resolv.conf "$b/etc/resolv.conf" 2>/dev/null || true
  echo "deb $mirror bookworm main" >"$b/etc/apt/sources.list"
  { chroot "$b" apt-get -qq update && chroot "$b" env DEBIAN_FRONTEND=noninteractive apt-get -qq install -y \
      --no-install-recommends ${arm_packages//,/ } && chroot "$b" apt-get clean; } >"$logs/armhf-packages.log" 2>&1 \
    || { tail -n 20 "$logs/armhf-packages.log" >&2; fail "installing $arm_packages in the armhf root"; }
  umount -R "$b/dev" "$b/proc"
  rm -f "$cache"/armhf-ssh-*.tar.zst   # older ones go
  tar --zstd --one-file-system -cpf "$arm_base.tmp.$$" -C "$b" . && mv "$arm_base.tmp.$$" "$arm_base"
  umount "$b"
  echo "armhf root: $arm_packages installed under emulation in $((SECONDS - t_arm)) s"
fi
for n in "${arm_nodes[@]}"; do
  r="$work/$n"
  mkdir -p "$r"
  mount -t tmpfs -o mode=0755 tmpfs "$r"
  arm_deployed[$n]="$cache/armhf-deployed-$n-$({ echo "$arm_key $roles_sum"; arm_vars "$n"; } | sha256sum | cut -c1-12).tar.zst"
  if [ -f "${arm_deployed[$n]}" ]; then
    step "$n: unpacking its root as the playbook left it, $(basename "${arm_deployed[$n]}")"
    tar --zstd -xpf "${arm_deployed[$n]}" -C "$r" || fail "cannot unpack ${arm_deployed[$n]} (delete it to rebuild)"
    arm_cached[$n]=true
  else
    step "$n: unpacking the armhf root with python3 and sshd, $(basename "$arm_base")"
    tar --zstd -xpf "$arm_base" -C "$r" || fail "cannot unpack $arm_base (delete it to rebuild)"
    arm_cached[$n]=false
  fi
  chmod 0755 "$r"   # the tarball's top folder is its build folder's, 0700: no one but root could enter
done
fi

# --- 2. Mounts (all inside this private mount namespace) -----------------------------------------
copy_debs() {  # FROM TO: the .deb files, as hard links where the file system allows
  local f
  for f in "$1"/*.deb; do
    [ -e "$f" ] || continue
    ln -f "$f" "$2/" 2>/dev/null || cp -f "$f" "$2/"
  done
}
prepare_root() {  # ROOT NAME
  local r="$1" name="$2" d dev major minor
  mount -t proc proc "$r/proc"
  mount -t sysfs -o ro sysfs "$r/sys"
  mount -t tmpfs -o mode=0755,size=16m tmpfs "$r/dev"
  for d in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
    IFS=: read -r dev major minor <<<"$d"
    mknod -m 0666 "$r/dev/$dev" c "$major" "$minor"
  done
  mkdir -p "$r/dev/pts" "$r/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts"
  ln -s pts/ptmx "$r/dev/ptmx"
  ln -s /proc/self/fd "$r/dev/fd"
  mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
  mount -t tmpfs -o mode=0755 tmpfs "$r/run"
  # apt's downloads outlive the test (one cache per host): linked in now and out after the
  # playbook, never shared while apt runs, so tests running side by side never contend for its lock.
  mkdir -p "$cache/apt-archives/$name"
  copy_debs "$cache/apt-archives/$name" "$r/var/cache/apt/archives"
  cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
  # No service starts inside the chroot while packages install.
  printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
  chmod 0755 "$r/usr/sbin/policy-rc.d"
}
prepare_root "$root" node1
prepare_root "$froot" fpga1
for n in "${arm_nodes[@]}"; do
  prepare_root "$work/$n" "$n"
done

# Each root runs its own sshd on a free loopback port (outside the daemons' namespace: the
# playbook's apt needs the mirror); Ansible logs in as `deploy` with a throwaway key and becomes
# root with sudo, as on a real node.
ssh-keygen -q -t ed25519 -N '' -C fpgamr-deploy-test -f "$work/id_ed25519"
free_port() { "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_sshd() {  # ROOT PORT [root]: logins as `deploy` with sudo, or (root) as root
  local r="$1" port="$2"
  if [ "${3:-}" = root ]; then
    install -d -m 0700 "$r/root/.ssh"
    install -m 0600 "$work/id_ed25519.pub" "$r/root/.ssh/authorized_keys"
  else
    chroot "$r" id deploy >/dev/null 2>&1 || chroot "$r" useradd --create-home --shell /bin/bash deploy
    install -d -m 0700 "$r/home/deploy/.ssh"
    install -m 0600 "$work/id_ed25519.pub" "$r/home/deploy/.ssh/authorized_keys"
    chroot "$r" chown -R deploy:deploy /home/deploy/.ssh
    echo 'deploy ALL=(ALL) NOPASSWD: ALL' >"$r/etc/sudoers.d/deploy"
    chmod 0440 "$r/etc/sudoers.d/deploy"
  fi
  mkdir -p "$r/run/sshd"
  # QEMU_CPU: the CPU an armhf root's programs run on (QEMU reads it at each exec; x86 roots ignore it).
  QEMU_CPU=cortex-a9 chroot "$r" /usr/sbin/sshd -p "$port" -o ListenAddress=127.0.0.1 -o PidFile=/run/sshd.pid \
    -o UseDNS=no -o PasswordAuthentication=no -o SetEnv=QEMU_CPU=cortex-a9 || fail "cannot start the sshd of $r"
}
node1_port="$(free_port)"
start_sshd "$root" "$node1_port"
fpga1_port="$(free_port)"
start_sshd "$froot" "$fpga1_port"
# The ARM worker is reached as root: sudo cannot run under QEMU user-mode emulation (a setuid program
# needs binfmt_misc's C flag, which Debian's qemu-arm entry does not set), as on a board set up for
# root's login.
declare -A arm_port
for n in "${arm_nodes[@]}"; do
  arm_port[$n]="$(free_port)"
  start_sshd "$work/$n" "${arm_port[$n]}" root
done

# fpga1 builds the real kernel module through DKMS against the headers of Debian's kernel (the
# machine's own kernel has no headers package): which release is that?
chroot "$froot" apt-get -qq update >"$logs/fpga1-apt-update.log" 2>&1 || fail "apt-get update in the fpga1 root"
krel="$(chroot "$froot" apt-cache depends linux-headers-amd64 2>/dev/null \
  | sed -n 's/.*Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n1)"
[ -n "$krel" ] || fail "no linux-headers-amd64 in the mirror"
[ "$(uname -m)" = x86_64 ] || fail "the test's FPGA node uses Debian's amd64 kernel headers: run it on x86_64"

# --- 3. The inventory: node1 in every group, fpga1 a second worker with an FPGA -----------------
cat >"$work/inventory.yml" <<EOF
---
all:
  vars:
    ansible_python_interpreter: /usr/bin/python3
    fpgamr_arch: x86_64
    # systemd does not run in a chroot: units are installed and enabled, the test starts them.
    fpgamr_start_services: false
    # The Apache download site is not reachable: Hadoop from the jars the project assembles.
    hadoop_install_mode: jars
    # Grafana is not in Debian: its provisioning files only.
    grafana_install_package: false
  children:
    namenode:
      hosts:
        node1:
    resourcemanager:
      hosts:
        node1:
    monitoring:
      hosts:
        node1:
    workers:
      hosts:
        node1:
        fpga1:
$(for n in "${arm_nodes[@]}"; do echo "        $n:"; done)
EOF
mkdir -p "$work/host_vars"
ssh_vars() {  # PORT: how Ansible reaches a root (its sshd), as an admin user with sudo
  cat <<EOF
ansible_host: 127.0.0.1
ansible_port: $1
ansible_user: deploy
ansible_become: true
ansible_ssh_private_key_file: $work/id_ed25519
ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR
EOF
}
cat >"$work/host_vars/node1.yml" <<EOF
---
$(ssh_vars "$node1_port")
fpgamr_node_address: 127.0.0.1
hadoop_nm_memory_mb: 3072
hadoop_nm_vcores: 3
EOF
cat >"$work/host_vars/fpga1.yml" <<EOF
---
# An FPGA worker on an x86 root: the whole FPGA role but loading the module and programming a
# device (there is none).
$(ssh_vars "$fpga1_port")
fpgamr_node_address: 127.0.0.2
fpgamr_fpga_devices:
  - fpgamr-md5
fpgamr_fpga_allow_any_arch: true
fpga_kernel_release: $krel
fpga_kernel_headers_package: linux-headers-$krel
# No Quartus here: the overlay is built (hdl/build), the bitstream is not.
fpga_design_required: false
# Room for the job's ApplicationMaster (768 MiB) and one FPGA map (512 MiB) wherever YARN puts the AM.
hadoop_nm_memory_mb: 1536
hadoop_nm_vcores: 2
# Its NodeManager is started after the job: one simulated accelerator (hdl's Verilated model),
# and a shuffle port of its own (both NodeManagers share the test's network namespace).
hadoop_fpga_vsim_devices: 1
hadoop_shuffle_port: 13563
EOF

for n in "${arm_nodes[@]}"; do
  cat >"$work/host_vars/$n.yml" <<EOF
---
# An ARM worker: an armhf root under QEMU user-mode emulation, reached over SSH as root.
$(ssh_vars "${arm_port[$n]}" | sed -e 's/^ansible_user: deploy$/ansible_user: root/' -e 's/^ansible_become: true$/ansible_become: false/')
$(arm_vars "$n")
EOF
done

play() {
  ANSIBLE_CONFIG="$here/ansible.cfg" ANSIBLE_FORCE_COLOR=0 ANSIBLE_NOCOLOR=1 \
    ansible-playbook -i "$work/inventory.yml" "$here/site.yml" \
    -e "fpgamr_stage_dir=$work/stage" -e "fpgamr_src=$work/src" "${@:2}" >"$logs/playbook-$1.log" 2>&1
}
recap() { sed -n '/^PLAY RECAP/,$p' "$logs/playbook-$1.log"; }

# --- 4. The playbook, twice on the mixed cluster --------------------------------------------------
arm_from_cache=""
for n in "${arm_nodes[@]}"; do ${arm_cached[$n]} && arm_from_cache+=" $n"; done
step "ansible-playbook site.yml, run 1 (node1, fpga1$(for n in "${arm_nodes[@]}"; do printf ', %s' "$n"; done)${arm_from_cache:+; deployed before, from the cache:$arm_from_cache})"
t_play=$SECONDS
if ! play 1; then
  grep -n -B2 -A12 -E '^(fatal|failed):|ERROR!' "$logs/playbook-1.log" | tail -n 60 >&2
  fail "the first run of site.yml failed (log: $logs/playbook-1.log)"
fi
recap 1
echo "run 1: $((SECONDS - t_play)) s"
copy_debs "$root/var/cache/apt/archives" "$cache/apt-archives/node1"
copy_debs "$froot/var/cache/apt/archives" "$cache/apt-archives/fpga1"
for n in "${arm_nodes[@]}"; do
  copy_debs "$work/$n/var/cache/apt/archives" "$cache/apt-archives/$n"
  if ! ${arm_cached[$n]}; then
    # The root as the playbook left it, for the next run (older ones go).
    rm -f "$cache/armhf-deployed-$n-"*.tar.zst
    tar --zstd --one-file-system -cpf "${arm_deployed[$n]}.tmp.$$" -C "$work/$n" . && mv "${arm_deployed[$n]}.tmp.$$" "${arm_deployed[$n]}"
  fi
done
check() {  # DESCRIPTION COMMAND...
  local what="$1"
  shift
  "$@" >/dev/null 2>&1 || fail "$what"
}
for n in "${arm_nodes[@]}"; do
  r="$work/$n"
  # The play checked the inventory's fpgamr_arch (armv7l) against the ARM worker's architecture.
  check "$n: the play did not check fpgamr_arch against the node's architecture" \
    sh -c "sed -n '/^TASK \[fpgamr : Check the inventory.s architecture is the node.s\]/,/^\$/p' '$logs/playbook-1.log' | grep -qx 'ok: \[$n\]'"
  check "$n: the native library of its platform, linux-armhf" grep -qx 'FPGAMR_PLATFORM=linux-armhf' "$r/etc/fpgamr/fpgamr.env"
  check "$n: Java is the armhf JVM" grep -qx 'JAVA_HOME=/usr/lib/jvm/java-17-openjdk-armhf' "$r/etc/fpgamr/fpgamr.env"
  check "$n: its speed profile, measured on the emulated JVM, says so" grep -qx 'node.emulated=true' "$r/var/lib/fpgamr/speed-profile.properties"
  what="fpgamr_arch armv7l checked; linux-armhf library, armhf JVM, emulated speed profile"
  if [ "$n" = armfpga1 ]; then
    check "armfpga1: the NodeManager offers one simulated FPGA, by the FPGA plugin" \
      sh -c "grep -q '<value>io.fpgamr.yarn.FpgaDevicePlugin</value>' '$r/etc/hadoop/yarn-site.xml' \
             && grep -A1 '<name>fpgamr.fpga.vsim.devices</name>' '$r/etc/hadoop/yarn-site.xml' | grep -q '<value>1</value>'"
    check "armfpga1: the armhf model of the simulated FPGA is installed" test -f "$r/opt/fpgamr/native/libfpgamr-vsim-p4.so"
    check "armfpga1: its speed profile has the simulated FPGA, driven by the armhf library" \
      sh -c "grep -qx 'fpga.simulated=true' '$r/var/lib/fpgamr/speed-profile.properties' && grep -q '^fpga.search=[0-9]' '$r/var/lib/fpgamr/speed-profile.properties'"
    what="$what; FPGA plugin with one simulated FPGA, the armhf model, its speed profiled"
  fi
  step "$n: $what"
done
# The second run, on the x86 roots only: the ARM roots, deployed before or not, had their one play
# (every module's Python runs under emulation there: minutes per run).
step "ansible-playbook site.yml, run 2 on node1 and fpga1 (must change nothing)"
play 2 --limit node1,fpga1 || { tail -n 40 "$logs/playbook-2.log" >&2; fail "the second run of site.yml failed"; }
recap 2
if recap 2 | grep -E 'changed=[1-9]|failed=[1-9]|unreachable=[1-9]' >/dev/null; then
  grep -E '^changed:' -B1 "$logs/playbook-2.log" | head -n 40 >&2
  fail "the second run changed something: the playbook is not idempotent"
fi

# --- 5. What the FPGA node got, and what the plain worker did not -------------------------------
kver="$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$work/src/kernel/dkms.conf")"
check "fpga1: DKMS source /usr/src/fpgamr-$kver" test -f "$froot/usr/src/fpgamr-$kver/dkms.conf"
check "fpga1: fpgamr.ko built and installed by DKMS for $krel" \
  sh -c "ls '$froot/lib/modules/$krel/updates/dkms/'fpgamr.ko*"
check "fpga1: DKMS reports the module installed" \
  sh -c "chroot '$froot' dkms status -m fpgamr -v '$kver' -k '$krel' | grep -q installed"
check "fpga1: udev rule for the UIO device, the device group" \
  grep -q 'SUBSYSTEM=="uio", ATTR{name}=="fpgamr-md5", OWNER="root", GROUP="fpgamr-fpga", MODE="0660"' "$froot/etc/udev/rules.d/60-fpgamr.rules"
check "fpga1: udev rule for the DMA device, the device group" \
  grep -q 'SUBSYSTEM=="misc", KERNEL=="fpgamr-dma\[0-9\]\*", OWNER="root", GROUP="fpgamr-fpga", MODE="0660"' "$froot/etc/udev/rules.d/60-fpgamr.rules"
check "fpga1: the device group has the containers' user (yarn) and nobody else" \
  test "$(chroot "$froot" getent group fpgamr-fpga | cut -d: -f4)" = yarn
check "fpga1: the udev rules name only the accelerator's two devices" \
  test "$(grep -vc '^#' "$froot/etc/udev/rules.d/60-fpgamr.rules")" -eq 2
if [ -f "$work/src/hdl/build/fpgamr-md5acc.dtbo" ]; then
  check "fpga1: overlay in /lib/firmware" cmp "$work/src/hdl/build/fpgamr-md5acc.dtbo" "$froot/lib/firmware/fpgamr-md5acc.dtbo"
fi
check "fpga1: overlay unit enabled" test -L "$froot/etc/systemd/system/multi-user.target.wants/fpgamr-overlay.service"
check "fpga1: NodeManager with the FPGA device plugin" \
  grep -q '<value>io.fpgamr.yarn.FpgaDevicePlugin</value>' "$froot/etc/hadoop/yarn-site.xml"
check "fpga1: NodeManager with the FPGA container executor" \
  grep -q '<value>io.fpgamr.yarn.FpgaContainerExecutor</value>' "$froot/etc/hadoop/yarn-site.xml"
check "fpga1: NodeManager class path has the plugin's jars" \
  sh -c "grep -q '/opt/fpgamr/nm-plugin/\\*' '$froot/etc/systemd/system/hadoop-yarn-nodemanager.service' && ls '$froot'/opt/fpgamr/nm-plugin/yarn-fpga-resource-*.jar"
check "fpga1: no sudo rule and no sudo'd loader" \
  sh -c "test ! -e '$froot/etc/sudoers.d/fpgamr' && test ! -e '$froot/usr/local/sbin/fpgamr-program' && ! chroot '$froot' sudo -l -U yarn | grep -q NOPASSWD"
check "fpga1: the design loader, its socket enabled" \
  sh -c "test -x '$froot/usr/local/sbin/fpgamr-loader' && test -L '$froot/etc/systemd/system/sockets.target.wants/fpgamr-loader.socket'"
check "fpga1: the staging folder is root's, yarn's group writes inside (sticky)" \
  test "$(chroot "$froot" stat -c '%U:%G %a' /var/lib/fpgamr/staging)" = "root:yarn 1770"
if [ -f "$work/src/hdl/build/fpgamr-md5acc.dtbo" ]; then
  check "fpga1: the allowlist trusts the boot overlay" \
    grep -qx "$(sha256sum "$work/src/hdl/build/fpgamr-md5acc.dtbo" | cut -d' ' -f1)  fpgamr-md5acc.dtbo" "$froot/etc/fpgamr/trusted-designs.sha256"
fi
check "fpga1: Yama ptrace scope 1" grep -qx 'kernel.yama.ptrace_scope = 1' "$froot/etc/sysctl.d/60-fpgamr-ptrace.conf"
check "node1: no FPGA plugin on a worker without FPGA" \
  sh -c "! grep -q 'pluggable-device-framework' '$root/etc/hadoop/yarn-site.xml'"
check "node1: no udev rules on a worker without FPGA" test ! -e "$root/etc/udev/rules.d/60-fpgamr.rules"
check "node1: yarn.io/fpga is a resource type of the cluster" grep -q 'yarn.io/fpga' "$root/etc/hadoop/resource-types.xml"
check "node1: the scheduler uses the DominantResourceCalculator" \
  grep -q 'DominantResourceCalculator' "$root/etc/hadoop/capacity-scheduler.xml"
check "node1: Grafana's data source points at the inventory's Prometheus" \
  grep -q 'url: http://127.0.0.1:9090' "$root/etc/grafana/provisioning/datasources/fpgamr.yaml"
check "node1: the energy dashboard is provisioned" sh -c "ls '$root'/var/lib/grafana/dashboards/fpgamr/*.json"
check "node1: /var/log/hadoop is root's, 0755; each daemon writes its own folder" \
  test "$(chroot "$root" stat -c '%U:%G %a' /var/log/hadoop /var/log/hadoop/namenode /var/log/hadoop/nodemanager | tr '\n' ' ')" \
    = "root:root 755 hdfs:hdfs 755 yarn:yarn 755 "
check "node1: the spool is the exporter's, only the jobs' group writes in it" \
  test "$(chroot "$root" stat -c '%U:%G %a' /var/lib/fpgamr/spool)" = "fpgamr-exporter:fpgamr-tasks 1770"
check "node1: the exporter runs as its own user" grep -qx 'User=fpgamr-exporter' "$root/etc/systemd/system/fpgamr-energy-exporter.service"
check "node1: RAPL's counters readable by the exporter's user (udev rule)" \
  grep -q 'chgrp fpgamr-exporter /sys%p/energy_uj' "$root/etc/udev/rules.d/61-fpgamr-powercap.rules"
step "FPGA node (DKMS build, udev, design, plugin) and plain worker: as expected"

# --- 6. HDFS, YARN, the energy exporter and Prometheus from the installed units ------------------
step "starting the units as systemd would (network namespace, loopback only)"
unshare --net --uts -- sleep 100000 &
holder=$!
for _ in $(seq 100); do  # until unshare has made the namespace
  [ "$(readlink "/proc/$holder/ns/net" 2>/dev/null)" != "$(readlink /proc/self/ns/net)" ] && break
  sleep 0.1
done
nsenter --net --uts -t "$holder" -- ip link set lo up
nsenter --net --uts -t "$holder" -- hostname node1

in_ns() { nsenter --net --uts -t "$holder" -- "$@"; }
http_get() {  # URL -> body on stdout (from inside the namespace)
  in_ns "$py" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"
}
show_logs() {
  local f
  for f in "$logs"/*.out "$root"/var/log/hadoop/*/*.log "$froot"/var/log/hadoop/*/*.log; do
    [ -s "$f" ] || continue
    echo "=== $f (last lines)" >&2
    grep -E 'ERROR|Exception|FATAL' "$f" | tail -n 8 >&2 || true
    tail -n 5 "$f" >&2
  done
}
poll() {  # SECONDS COMMAND...: until COMMAND succeeds (a condition on what daemons report, not on a daemon)
  local end=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 2
  done
}
as_job_user() {  # SECONDS NAME COMMAND...: COMMAND on node1 as the job user, in its home, inside the
  # namespace, bounded; its output in $logs/NAME.stdout and .stderr; returns its exit status.
  local limit="$1" name="$2"
  shift 2
  timeout "$limit" nsenter --net --uts -t "$holder" -- chroot "$root" \
    setpriv --reuid fpgamr --regid fpgamr --init-groups \
    env -i HOME=/home/fpgamr USER=fpgamr LOGNAME=fpgamr LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
    sh -c 'cd "$HOME" && exec "$@"' sh "$@" >"$logs/$name.stdout" 2>"$logs/$name.stderr"
}
start_units() {  # ROOT NAME UNIT...: `systemctl start` of the units, all at once (each unit's
  # ExecStartPre waits for what it needs, its ExecStartPost for its own daemon to answer); returns
  # when every one is started, or fails naming those that did not start.
  local r="$1" name="$2" u pids=() failed=()
  shift 2
  for u in "$@"; do
    "$py" "$here/tests/unitexec.py" "$r" "$holder" "$u.service" --output "$logs/$name-$u.out" \
      >"$logs/$name-$u.start" 2>&1 </dev/null &
    pids+=($!)
  done
  for u in "$@"; do
    if wait "${pids[0]}"; then
      grep -h -e '^fpgamr-wait: .* is up after' -e '^unitexec: ' "$logs/$name-$u.start" | sed "s/^/  $name: /"
    else
      failed+=("$u")
    fi
    pids=("${pids[@]:1}")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    show_logs
    for u in "${failed[@]}"; do
      echo "--- $name: $u.service did not start:" >&2
      tail -n 3 "$logs/$name-$u.start" >&2
    done
    fail "$name: ${failed[*]} did not start ($(grep -h '^fpgamr-wait: .* did not come up' "$logs/$name-${failed[0]}.start" | head -n1))"
  fi
  step "$name: $* started"
}

units=(hadoop-hdfs-namenode hadoop-hdfs-datanode hadoop-yarn-resourcemanager hadoop-yarn-nodemanager
       hadoop-hdfs-init hadoop-mapred-historyserver fpgamr-energy-exporter)
for u in "${units[@]}"; do
  [ -f "$root/etc/systemd/system/$u.service" ] || fail "unit $u.service not installed"
  [ -L "$root/etc/systemd/system/multi-user.target.wants/$u.service" ] || fail "unit $u.service not enabled"
done
check "prometheus.service enabled" test -L "$root/etc/systemd/system/multi-user.target.wants/prometheus.service"
check "prometheus.service waits until Prometheus is ready" \
  grep -q '^ExecStartPost=.*fpgamr-wait .*/-/ready' "$root/etc/systemd/system/prometheus.service.d/fpgamr-ready.conf"
"$py" "$here/tests/unitexec.py" "$root" "$holder" hadoop-hdfs-namenode.service --print >"$logs/namenode.cmd" \
  || fail "cannot read hadoop-hdfs-namenode.service"
# The readiness helper as installed: a daemon that does not answer gives one line naming it and
# its log, and exit 1, once the timeout is over.
wait_rc=0
in_ns chroot "$root" /usr/local/lib/fpgamr/fpgamr-wait --timeout 3 --log node1:/nowhere.log "the test's absent daemon" \
  namenode-rpc 127.0.0.1:1 >"$logs/wait-fails.out" 2>"$logs/wait-fails.err" || wait_rc=$?
[ "$wait_rc" -eq 1 ] && [ "$(wc -l <"$logs/wait-fails.err")" -eq 1 ] \
  && grep -qx "fpgamr-wait: the test's absent daemon did not come up within 3 s (last: 127.0.0.1:1: Connection refused); its log: node1:/nowhere.log" \
    "$logs/wait-fails.err" \
  || { cat "$logs/wait-fails.err" >&2; fail "fpgamr-wait (exit $wait_rc) did not fail with one line naming the daemon and its log"; }
start_units "$root" node1 "${units[@]}" prometheus
http_get "http://127.0.0.1:8088/ws/v1/cluster/nodes" | grep -q '"name":"yarn.io/fpga"' \
  || fail "the ResourceManager does not know the resource type yarn.io/fpga"
step "ResourceManager: resource type yarn.io/fpga known (node1 offers none)"

# --- 7. The job, through the installed fpgamr command, as the job user ---------------------------
digest="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00012345")).hexdigest())')"
step "fpgamr search $digest --bits 20 (as user fpgamr, HADOOP_CONF_DIR=/etc/hadoop)"
job_rc=0
as_job_user 300 job fpgamr search "$digest" --bits 20 --summary-json summary.json || job_rc=$?
cat "$logs/job.stdout"
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest:\$HEX\[00012345\]" "$logs/job.stdout"; then
  tail -n 30 "$logs/job.stderr" >&2
  show_logs
  fail "the search job (exit $job_rc) did not print $digest:\$HEX[00012345]"
fi
http_get "http://127.0.0.1:8088/ws/v1/cluster/apps?states=FINISHED" | "$py" -c '
import json, sys
apps = (json.load(sys.stdin).get("apps") or {}).get("app") or []
ok = [a for a in apps if a.get("finalStatus") == "SUCCEEDED" and a.get("applicationType") == "MAPREDUCE"]
print("YARN applications that succeeded: %s" % ", ".join("%s (%s)" % (a["id"], a["name"]) for a in ok))
sys.exit(0 if ok else 1)' || fail "the ResourceManager lists no succeeded MapReduce application: the job did not run on YARN"
# The worker measured its speed when it was installed and its NodeManager published it: the job was
# given it (node attributes through the ResourceManager), and its maps hashed every value.
"$py" - "$root/home/fpgamr/summary.json" <<'PY' || fail "the job was not given node1's measured speed (see the summary's balance)"
import json, sys
s = json.load(open(sys.argv[1]))
b = s["balance"]
engines = [e for n in b["nodes"].values() for e in n["engines"]]
print("balance: " + "; ".join("%s %s given %s (%s), %d values" % (node, e["engine"], e.get("speed_given"), e.get("speed_source"), e["values_hashed"])
                              for node, n in b["nodes"].items() for e in n["engines"]))
sys.exit(0 if b["design"] == "stream" and engines and all(e.get("speed_source") == "measured" and e.get("speed_given", 0) > 0 for e in engines)
         and sum(e["values_hashed"] for e in engines) == 1 << 20 else 1)
PY

# The same Tool through Hadoop's own launcher: `hadoop jar` with a generic option (-D) after the
# subcommand, which must reach the job (its tag is on the YARN application).
digest3="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00000777")).hexdigest())')"
jobjar="$(basename "$jar")"
[ -f "$root/opt/fpgamr/mr-md5/target/$jobjar" ] || fail "the job jar is not installed as /opt/fpgamr/mr-md5/target/$jobjar"
step "hadoop jar $jobjar search -D mapreduce.job.tags=via-hadoop-jar $digest3 --bits 16"
job_rc=0
as_job_user 300 job-hadoop-jar hadoop jar "/opt/fpgamr/mr-md5/target/$jobjar" search -D mapreduce.job.tags=via-hadoop-jar \
  "$digest3" --bits 16 --output via-hadoop-jar || job_rc=$?
cat "$logs/job-hadoop-jar.stdout"
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest3:\$HEX\[00000777\]" "$logs/job-hadoop-jar.stdout"; then
  tail -n 30 "$logs/job-hadoop-jar.stderr" >&2
  fail "hadoop jar ... search (exit $job_rc) did not print $digest3:\$HEX[00000777]"
fi
http_get "http://127.0.0.1:8088/ws/v1/cluster/apps?states=FINISHED" | "$py" -c '
import json, sys
apps = (json.load(sys.stdin).get("apps") or {}).get("app") or []
tagged = [a["id"] for a in apps if a.get("finalStatus") == "SUCCEEDED" and "via-hadoop-jar" in (a.get("applicationTags") or "")]
print("succeeded with the tag of -D mapreduce.job.tags: %s" % ", ".join(tagged))
sys.exit(0 if tagged else 1)' || fail "no succeeded YARN application carries the tag given by -D: generic options did not reach the job"

# --- 8. The FPGA worker's NodeManager: the deployed plugin registers its (simulated) device -------
# An ARM worker's NodeManager starts from its unit as the others, on the armhf JVM under emulation,
# as on a board (slow to start: the emulated JVM), in the background while the test goes on.
declare -A arm_nm arm_nm_t
start_arm_nm() {  # NAME
  arm_nm_t[$1]=$SECONDS
  "$py" "$here/tests/unitexec.py" "$work/$1" "$holder" hadoop-yarn-nodemanager.service --output "$logs/$1-hadoop-yarn-nodemanager.out" \
    >"$logs/$1-hadoop-yarn-nodemanager.start" 2>&1 </dev/null &
  arm_nm[$1]=$!
}
wait_arm_nm() {  # NAME: until its NodeManager answers; checks it runs the armhf JVM under QEMU
  local n="$1" pid
  if ! wait "${arm_nm[$n]}"; then
    show_logs
    tail -n 30 "$work/$n/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2
    fail "$n: hadoop-yarn-nodemanager.service did not start ($(tail -n 1 "$logs/$n-hadoop-yarn-nodemanager.start"))"
  fi
  grep -h -e '^fpgamr-wait: .* is up after' -e '^unitexec: ' "$logs/$n-hadoop-yarn-nodemanager.start" | sed "s/^/  $n: /"
  pid="$(sed -n 's/.*started in .* (main process \([0-9]*\)).*/\1/p' "$logs/$n-hadoop-yarn-nodemanager.start")"
  # binfmt_misc runs the root's armhf java through QEMU: the process is QEMU's, its next word the JVM.
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q '^/usr/libexec/qemu-binfmt/arm[^ ]* /usr/lib/jvm/java-17-openjdk-armhf/bin/java ' \
    || fail "$n: the NodeManager (process $pid) does not run under QEMU's armhf emulation"
  step "$n: NodeManager registered in $((SECONDS - arm_nm_t[$n])) s from its unit, the armhf JVM under QEMU ($(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -d' ' -f1-3))"
}
fpga_by_node() {  # WANT: the running nodes and their yarn.io/fpga, as the ResourceManager sees them, are WANT (host:count ...)
  http_get "http://127.0.0.1:8088/ws/v1/cluster/nodes" | "$py" -c '
import json, sys
nodes = json.load(sys.stdin)["nodes"]["node"]
names = {"127.0.0.1": "node1", "127.0.0.2": "fpga1", "127.0.0.3": "arm1", "127.0.0.4": "armfpga1"}
fpga = {names.get(n["nodeHostName"], n["nodeHostName"].split(".")[0]):
        sum(r.get("value", 0) for r in n["totalResource"]["resourceInformations"]["resourceInformation"] if r["name"] == "yarn.io/fpga")
        for n in nodes if n["state"] == "RUNNING"}
print("yarn.io/fpga by node: %s" % fpga)
sys.exit(0 if fpga == dict((w.split(":")[0], int(w.split(":")[1])) for w in sys.argv[1:]) else 1)' "$@"
}
# arm1 offers no FPGA: it starts now. armfpga1 starts after the next job, whose one map must land on fpga1.
[[ " ${arm_nodes[*]} " == *" arm1 "* ]] && start_arm_nm arm1
step "starting fpga1's design loader, NodeManager and energy exporter from their units (FPGA plugin, one simulated accelerator)"
start_units "$froot" fpga1 fpgamr-loader hadoop-yarn-nodemanager fpgamr-energy-exporter
# The loader serves the NodeManager's main process only: its unit told the loader which one, and a
# process of the NodeManager's user (a container under the DefaultContainerExecutor) is refused.
nm_pid="$(sed -n 's/.*hadoop-yarn-nodemanager.service started in .* (main process \([0-9]*\)).*/\1/p' "$logs/fpga1-hadoop-yarn-nodemanager.start")"
nm_start="$(sed 's/.*) //' "/proc/$nm_pid/stat" 2>/dev/null | cut -d' ' -f20)" || nm_start=""  # field 22: its start time
[ -n "$nm_pid" ] && [ "$(cat "$froot/run/fpgamr/nodemanager.pid")" = "$nm_pid $nm_start" ] \
  || fail "fpga1: /run/fpgamr/nodemanager.pid ($(cat "$froot/run/fpgamr/nodemanager.pid" 2>&1)) is not the NodeManager's main pid and start time ($nm_pid $nm_start)"
refused="$(in_ns chroot "$froot" setpriv --reuid yarn --regid yarn --init-groups /usr/bin/python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect("/run/fpgamr/loader.sock")
print(os.getpid())
try:
    s.sendall(b"status fpgamr0\n")
except OSError:
    pass
print(s.recv(4096).decode().strip())' 2>&1)" || true
container_pid="$(echo "$refused" | sed -n 1p)"
[ "$(echo "$refused" | sed -n 2p)" = "error refused: process $container_pid (uid $(chroot "$froot" id -u yarn)) is not the NodeManager (process $nm_pid)" ] \
  || fail "fpga1: the design loader did not refuse a process of yarn that is not the NodeManager: $refused"
step "fpga1: the design loader knows the NodeManager's pid and refuses another process of yarn"
[ -n "${arm_nm[arm1]:-}" ] && wait_arm_nm arm1
if [ -n "${arm_nm[arm1]:-}" ]; then want="node1:0 fpga1:1 arm1:0"; else want="node1:0 fpga1:1"; fi
# shellcheck disable=SC2086
fpga_by_node $want || { tail -n 30 "$froot/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2; fail "fpga1's NodeManager did not register its FPGA (want $want)"; }

# The accelerator path of the deployed cluster: a job whose maps ask for yarn.io/fpga runs on
# fpga1, where the plugin loads the (simulated) design and the maps hash on the device.
digest2="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00001234")).hexdigest())')"
step "fpgamr search $digest2 --bits 16 --accel fpga --design vsim-p4 (maps on fpga1's FPGA)"
job_rc=0
as_job_user 300 job-fpga fpgamr search "$digest2" --bits 16 --accel fpga --design vsim-p4 || job_rc=$?
cat "$logs/job-fpga.stdout"
grep -E '^  maps on' "$logs/job-fpga.stderr" || true
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest2:\$HEX\[00001234\]" "$logs/job-fpga.stdout" \
   || ! grep -Eq '^  maps on fpga1[^ ]*( \([^)]*\))?: 0 cpu, [1-9][0-9]* fpga' "$logs/job-fpga.stderr"; then
  tail -n 30 "$logs/job-fpga.stderr" >&2
  tail -n 30 "$froot/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2
  fail "the FPGA job (exit $job_rc) did not run its maps on fpga1's accelerator and print $digest2:\$HEX[00001234]"
fi
# The ARM-FPGA worker's NodeManager starts while the doctor runs (on fpga1 only).
[[ " ${arm_nodes[*]} " == *" armfpga1 "* ]] && start_arm_nm armfpga1

# --- 8b. The fpga role's doctor on the started FPGA worker ----------------------------------------
# site.yml runs it after deployment on FPGA workers whose daemons it starts; this cluster's were
# started by the test, so the test runs the role's own doctor tasks (tests/doctor.yml) now, through
# Ansible over SSH to an sshd of fpga1 inside the namespace (where its NodeManager and exporter
# answer), on fpga1's simulated accelerator: every layer ok or n/a, the play passes; then with the
# device's register map of another release, the play fails with the doctor's line.
fpga1_ns_port="$(in_ns "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
in_ns chroot "$froot" /usr/sbin/sshd -p "$fpga1_ns_port" -o ListenAddress=127.0.0.1 -o PidFile=/run/sshd-ns.pid -o UseDNS=no \
  -o PasswordAuthentication=no || fail "cannot start fpga1's sshd in the namespace"
doctor_play() {  # NAME ARGS...: the role's doctor on fpga1, from inside the namespace
  local name="$1"
  shift
  in_ns env ANSIBLE_CONFIG="$here/ansible.cfg" ANSIBLE_FORCE_COLOR=0 ANSIBLE_NOCOLOR=1 \
    ansible-playbook -i "$work/inventory.yml" "$here/tests/doctor.yml" --limit fpga1 -e "ansible_port=$fpga1_ns_port" "$@" \
    >"$logs/doctor-$name.log" 2>&1
}
t_doctor=$SECONDS
doctor_play ok || { tail -n 40 "$logs/doctor-ok.log" >&2; fail "the fpga role's doctor failed on fpga1's healthy simulated device"; }
"$py" - "$logs/doctor-ok.log" <<'PY' || fail "the fpga role's doctor did not show every layer of fpga1 ok or n/a"
import re, sys
log = open(sys.argv[1]).read()
lines = [l.replace('\\"', '"') for l in re.findall(r'"((?:ok|n/a|FAIL|busy|skip): [a-z]+: (?:[^"\\]|\\.)*)"', log)]
layers = {l.split(": ")[1]: l.split(":")[0] for l in lines}
for l in lines:
    print("  fpga1: " + l)
want = {"module": "n/a", "devicetree": "n/a", "device": "n/a", "regmap": "ok", "design": "ok", "interrupt": "ok", "dma": "ok",
        "yarn": "ok", "exporter": "ok"}
sys.exit(0 if layers == want and "yarn.io/fpga = 1" in log else 1)
PY
step "fpga role's doctor on fpga1 (vsim): module, device tree, device n/a; regmap, design, interrupt, DMA, yarn (yarn.io/fpga = 1), exporter ok; play passed in $((SECONDS - t_doctor)) s"
t_doctor=$SECONDS
if doctor_play regmap -e "fpga_doctor_device=vsim:pipelines=4,regmap=2.7"; then
  fail "the fpga role's doctor passed on a device whose register map is 2.7"
fi
grep -q "fpga1: fpgamr doctor: FAIL: regmap: the device's register map is 2.7, this driver's is 3.2" "$logs/doctor-regmap.log" \
  || { tail -n 30 "$logs/doctor-regmap.log" >&2; fail "the fpga role's doctor did not fail the play with the doctor's regmap line"; }
step "fpga role's doctor on fpga1 (vsim, register map 2.7): the play failed with 'fpga1: fpgamr doctor: FAIL: regmap: ...' in $((SECONDS - t_doctor)) s"

if $with_arm; then
# --- 8c. One job over every worker type: x86 (node1), FPGA (fpga1), ARM (arm1), ARM-FPGA (armfpga1)
wait_arm_nm armfpga1
fpga_by_node node1:0 fpga1:1 arm1:0 armfpga1:1 \
  || { tail -n 30 "$work/armfpga1/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2; fail "armfpga1's NodeManager did not register its simulated FPGA"; }
step "armfpga1: the FPGA plugin on the armhf JVM registered its simulated FPGA (yarn.io/fpga = 1)"
# 2^21 values, 8 units of 2^18: more units than the cluster's map slots, so every map hashes its own
# reserved unit (each ARM node's one slot included) and the rest goes by speed. The design goes as
# one package per platform of the FPGA nodes: fpga1 loads the x86 model, armfpga1 the armhf one.
digest4="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00123456")).hexdigest())')"
step "fpgamr search $digest4 --bits 21 --design vsim-p4 (maps on node1, fpga1, arm1 and armfpga1)"
t_mixed=$SECONDS
job_rc=0
as_job_user 600 job-mixed fpgamr search -D mapreduce.map.speculative=false "$digest4" --bits 21 --design vsim-p4 \
  --summary-json mixed.json --output mixed || job_rc=$?
cat "$logs/job-mixed.stdout"
grep -E '^  maps on' "$logs/job-mixed.stderr" || true
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest4:\$HEX\[00123456\]" "$logs/job-mixed.stdout"; then
  tail -n 30 "$logs/job-mixed.stderr" >&2
  for n in "${arm_nodes[@]}"; do tail -n 20 "$work/$n/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2; done
  fail "the mixed job (exit $job_rc) did not print $digest4:\$HEX[00123456]"
fi
"$py" - "$root/home/fpgamr/mixed.json" <<'PY' || fail "the mixed job's maps did not run on each worker type with exact counts (see its summary)"
import json, sys
s = json.load(open(sys.argv[1]))
by_node = s["maps_by_node"]
nodes = s["balance"]["nodes"]
host = lambda n: n.split(":")[0]
types = {host(n): m["type"] for n, m in by_node.items()}
print("maps_by_node: " + "; ".join("%s: %s, %d cpu, %d fpga, os.arch %s, %s, emulated %s" % (n, m["type"], m["cpu"], m["fpga"], m["os_arch"],
      m["native_platform"], str(m["emulated"]).lower()) for n, m in sorted(by_node.items())))
print("values hashed: " + ", ".join("%s %d" % (n, v["values_hashed"]) for n, v in sorted(nodes.items())) + ", total %d" % s["values_hashed"])
ok = types == {"node1": "x86", "fpga1": "fpga", "arm1": "arm", "armfpga1": "arm-fpga"}
for n, m in by_node.items():
    arm = types.get(host(n)) in ("arm", "arm-fpga")
    ok &= (m["os_arch"], m["native_platform"], m["emulated"]) == (("arm", "linux-armhf", True) if arm else ("amd64", "linux-x86_64", False))
    ok &= m["cpu"] + m["fpga"] >= 1
    ok &= m["fpga"] >= 1 or types.get(host(n)) != "arm-fpga"  # the ARM-FPGA node's one slot: its FPGA
ok &= sorted(host(n) for n in nodes) == ["arm1", "armfpga1", "fpga1", "node1"] and all(v["values_hashed"] > 0 for v in nodes.values())
ok &= sum(v["values_hashed"] for v in nodes.values()) == 1 << 21 == s["values_hashed"] == s["values_expected"]
sys.exit(0 if ok else 1)
PY
step "mixed job: maps on x86 node1, FPGA node fpga1, ARM node arm1 and ARM-FPGA node armfpga1 (its simulated FPGA; linux-armhf, emulated), 2^21 values exactly, in $((SECONDS - t_mixed)) s"
fi

# --- 9. Monitoring: JMX agents, the energy exporter, Prometheus's targets and rules -------------
if grep -q -- '-javaagent:' "$root/etc/systemd/system/hadoop-hdfs-namenode.service"; then
  for p in 27001:namenode 27002:datanode 27003:resourcemanager 27004:nodemanager 27005:jobhistoryserver; do
    http_get "http://127.0.0.1:${p%%:*}/metrics" | grep -q "^hadoop_${p#*:}_" \
      || fail "the JMX exporter of the ${p#*:} (port ${p%%:*}) serves no hadoop_${p#*:}_* metric"
  done
  step "JMX exporter agents of all five daemons: serving hadoop_* metrics"
fi
http_get "http://127.0.0.1:9464/metrics" | grep -q '^fpgamr_node_info' || fail "the energy exporter serves no fpgamr_node_info"
targets_up() {
  http_get "http://127.0.0.1:9090/api/v1/targets?state=active" | "$py" -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
up = sorted("%s/%s" % (x["labels"]["job"], x["labels"].get("daemon", "")) for x in t
            if x["health"] == "up" and x["labels"].get("instance_name") == "node1")
want = ["fpgamr-energy/", "hadoop/datanode", "hadoop/historyserver", "hadoop/namenode", "hadoop/nodemanager",
        "hadoop/resourcemanager"]
sys.exit(0 if all(w in up for w in want) else 1)'
}
# Every target answers already (its unit started); this waits for Prometheus's first scrapes.
poll 60 targets_up || { http_get "http://127.0.0.1:9090/api/v1/targets" | head -c 3000 >&2; fail "Prometheus does not scrape node1's targets"; }
http_get "http://127.0.0.1:9090/api/v1/rules" | grep -q '"name":"fpgamr:cluster_power_watts"' \
  || fail "Prometheus has not loaded the recording rules"
step "Prometheus: node1's exporter and its five Hadoop daemons scraped, recording rules loaded"

echo "deploy chroot test: $steps passed, 0 failed"
if $with_arm; then
  arm_done="; ARM workers arm1 and ARM-FPGA armfpga1 (armhf roots under QEMU, as root, site.yml applied once${arm_from_cache:+, deployed before: from the cache:$arm_from_cache}): fpgamr_arch armv7l checked, NodeManagers on the armhf JVM, armfpga1's plugin with a simulated FPGA of the armhf model; a search over 2^21 ran maps on the x86, FPGA, ARM and ARM-FPGA nodes, counts exact"
else
  arm_done="; no ARM workers (FPGAMR_DEPLOY_ARM=0)"
fi
echo "deploy chroot test: PASSED in $((SECONDS - t0)) s with $(ansible-playbook --version 2>/dev/null | sed -n 1p) (site.yml applied twice over SSH + sudo to node1 + FPGA node fpga1, second run changed=0 on them; fpga1: DKMS module built, udev, plugin registers yarn.io/fpga and runs an --accel fpga job on its simulated device, the fpga role's doctor passes on it as the containers' user and fails the play on a register map of another release; HDFS + YARN + exporter + Prometheus started from the installed units all at once, each waiting with fpgamr-wait for what it needs and for its own daemon to answer; search bits=20 found 00012345 on YARN, and through hadoop jar with -D honoured$arm_done)"
