#!/usr/bin/env bash
# deploy/ansible test: applies site.yml for real to a mixed cluster of throwaway Debian bookworm
# roots: two x86 roots (debootstrap) and an ARM worker, an armhf root whose programs run under QEMU's
# user-mode emulation (bin/armhf-root's), each reached the way a real node is: over SSH (an sshd of
# the root's own, on a loopback port), the x86 roots as an unprivileged user with sudo (become).
# A second run must change nothing. Then starts HDFS, YARN, the energy exporter and
# Prometheus from the installed units, as systemd would (ExecStartPre, ExecStart, ExecStartPost: the
# units' own readiness waits), in a network namespace of its own (loopback only), runs jobs through
# the installed commands (one whose maps run on the x86, the FPGA and the ARM worker), and runs the
# fpga role's doctor on the started FPGA worker.
#
# Needs root (chroot, mounts, namespaces, binfmt_misc) and the project built (mr-md5/target).
# Caches the debootstrap result, apt's downloads and the ARM worker's root (with python3 and sshd;
# and as the playbook left it) under ~/.cache/fpgamr; works without them.
# Environment: FPGAMR_TEST_KEEP=1 keeps the work folder; FPGAMR_TEST_MIRROR overrides the mirror;
# FPGAMR_DEPLOY_ARM=1 adds the ARM worker (make test-mixed: about 15 minutes more on 2 cores, the
# emulated plays and JVMs), without it the cluster is node1 and fpga1.
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
aroot="$work/arm1"       # an ARM worker: an armhf root, its programs run under QEMU user-mode emulation
logs="$work/logs"
mkdir -p "$root" "$froot" "$aroot" "$logs"
holder=""
with_arm=false
[ "${FPGAMR_DEPLOY_ARM:-0}" = 1 ] && with_arm=true

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

# --- 1b. The ARM worker's armhf root ------------------------------------------------------------
# bin/armhf-root's root (debootstrap --arch=armhf with OpenJDK 17, made once, cached in
# /var/cache/fpgamr), plus what Ansible needs to reach it as a node (python3, sshd), installed once
# under emulation and cached; and that root as the playbook left it, cached under a key of what
# went into it (the base, those packages, the mirror, the playbook's files, the node's inventory).
# A run applies site.yml to it once: to a fresh node on a miss, to a node deployed before on a hit.
# On tmpfs: a 32-bit program under QEMU on this 64-bit host cannot list ext4 directories.
arm_vars() {  # the ARM worker's inventory, but how Ansible reaches it
  cat <<'EOF'
fpgamr_node_address: 127.0.0.3
# armhf as the DE10-Nano's Cortex-A9: QEMU answers uname as armv7l.
fpgamr_arch: armv7l
# One map's container (512 MiB) and no room for an ApplicationMaster (768 MiB), as on a DE10-Nano.
hadoop_nm_memory_mb: 512
hadoop_nm_vcores: 1
hadoop_shuffle_port: 13564
# The containers' JVMs run on the emulated board's CPU too (QEMU reads QEMU_CPU at each exec).
hadoop_yarn_site_extra:
  yarn.nodemanager.admin-env: "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX,LD_LIBRARY_PATH=/opt/fpgamr/native,QEMU_CPU=cortex-a9"
EOF
}
arm_cached=false
if $with_arm; then
mount -t tmpfs -o mode=0755 tmpfs "$aroot"
arm_tar="$("$repo/bin/armhf-root" --tarball)" || fail "bin/armhf-root --tarball (the armhf root with OpenJDK 17)"
arm_packages="python3,openssh-server,systemd"   # systemd: the playbook enables units with systemctl, as on the x86 roots
arm_key="$({ sha256sum <"$arm_tar"; echo "$arm_packages $mirror"; } | sha256sum | cut -c1-12)"
arm_base="$cache/armhf-ssh-$arm_key.tar.zst"
arm_deployed_key="$({ echo "$arm_key"; arm_vars; cd "$here" && find site.yml roles -type f | LC_ALL=C sort | xargs sha256sum; } \
  | sha256sum | cut -c1-12)"
arm_deployed="$cache/armhf-deployed-$arm_deployed_key.tar.zst"
if [ -f "$arm_deployed" ]; then
  step "unpacking the ARM worker's root as the playbook left it, $(basename "$arm_deployed")"
  tar --zstd -xpf "$arm_deployed" -C "$aroot" || fail "cannot unpack $arm_deployed (delete it to rebuild)"
  arm_cached=true
elif [ -f "$arm_base" ]; then
  step "unpacking the cached armhf root with python3 and sshd, $(basename "$arm_base")"
  tar --zstd -xpf "$arm_base" -C "$aroot" || fail "cannot unpack $arm_base (delete it to rebuild)"
else
  step "the armhf root of bin/armhf-root plus $arm_packages, installed under emulation (cached afterwards in $arm_base)"
  tar -xpf "$arm_tar" -C "$aroot" || fail "cannot unpack $arm_tar"
fi
chmod 0755 "$aroot"   # the tarball's top folder is its build folder's, 0700: no one but root could enter
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
if $with_arm; then
prepare_root "$aroot" arm1
if [ ! -f "$arm_base" ]; then
  t_arm=$SECONDS
  echo "deb $mirror bookworm main" >"$aroot/etc/apt/sources.list"
  { chroot "$aroot" apt-get -qq update && chroot "$aroot" env DEBIAN_FRONTEND=noninteractive apt-get -qq install -y \
      --no-install-recommends ${arm_packages//,/ } && chroot "$aroot" apt-get clean; } >"$logs/arm1-packages.log" 2>&1 \
    || { tail -n 20 "$logs/arm1-packages.log" >&2; fail "installing $arm_packages in the armhf root"; }
  rm -f "$cache"/armhf-ssh-*.tar.zst   # older ones go
  tar --zstd --one-file-system -cpf "$arm_base.tmp.$$" -C "$aroot" . && mv "$arm_base.tmp.$$" "$arm_base"
  echo "arm1: $arm_packages installed under emulation in $((SECONDS - t_arm)) s"
fi
fi

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
if $with_arm; then
arm1_port="$(free_port)"
start_sshd "$aroot" "$arm1_port" root
fi

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
$($with_arm && echo "        arm1:")
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

if $with_arm; then
cat >"$work/host_vars/arm1.yml" <<EOF
---
# An ARM worker: an armhf root under QEMU user-mode emulation, reached over SSH as root.
$(ssh_vars "$arm1_port" | sed -e 's/^ansible_user: deploy$/ansible_user: root/' -e 's/^ansible_become: true$/ansible_become: false/')
$(arm_vars)
EOF
fi

play() {
  ANSIBLE_CONFIG="$here/ansible.cfg" ANSIBLE_FORCE_COLOR=0 ANSIBLE_NOCOLOR=1 \
    ansible-playbook -i "$work/inventory.yml" "$here/site.yml" \
    -e "fpgamr_stage_dir=$work/stage" -e "fpgamr_src=$work/src" "${@:2}" >"$logs/playbook-$1.log" 2>&1
}
recap() { sed -n '/^PLAY RECAP/,$p' "$logs/playbook-$1.log"; }

# --- 4. The playbook, twice on the mixed cluster --------------------------------------------------
step "ansible-playbook site.yml, run 1 (node1, fpga1$($with_arm && echo ', arm1')$($arm_cached && echo ': deployed before, from the cache'))"
t_play=$SECONDS
if ! play 1; then
  grep -n -B2 -A12 -E '^(fatal|failed):|ERROR!' "$logs/playbook-1.log" | tail -n 60 >&2
  fail "the first run of site.yml failed (log: $logs/playbook-1.log)"
fi
recap 1
echo "run 1: $((SECONDS - t_play)) s"
copy_debs "$root/var/cache/apt/archives" "$cache/apt-archives/node1"
copy_debs "$froot/var/cache/apt/archives" "$cache/apt-archives/fpga1"
if $with_arm; then
copy_debs "$aroot/var/cache/apt/archives" "$cache/apt-archives/arm1"
if ! $arm_cached; then
  # The root as the playbook left it, for the next run (older ones go).
  rm -f "$cache"/armhf-deployed-*.tar.zst
  tar --zstd --one-file-system -cpf "$arm_deployed.tmp.$$" -C "$aroot" . && mv "$arm_deployed.tmp.$$" "$arm_deployed"
fi
fi
check() {  # DESCRIPTION COMMAND...
  local what="$1"
  shift
  "$@" >/dev/null 2>&1 || fail "$what"
}
if $with_arm; then
# The play checked the inventory's fpgamr_arch (armv7l) against the ARM worker's architecture.
check "arm1: the play did not check fpgamr_arch against the node's architecture" \
  sh -c "sed -n '/^TASK \[fpgamr : Check the inventory.s architecture is the node.s\]/,/^\$/p' '$logs/playbook-1.log' | grep -qx 'ok: \[arm1\]'"
check "arm1: the native library of its platform, linux-armhf" grep -qx 'FPGAMR_PLATFORM=linux-armhf' "$aroot/etc/fpgamr/fpgamr.env"
check "arm1: Java is the armhf JVM" grep -qx 'JAVA_HOME=/usr/lib/jvm/java-17-openjdk-armhf' "$aroot/etc/fpgamr/fpgamr.env"
check "arm1: its speed profile, measured on the emulated JVM, says so" grep -qx 'node.emulated=true' "$aroot/var/lib/fpgamr/speed-profile.properties"
step "arm1: fpgamr_arch armv7l checked; linux-armhf library, armhf JVM, emulated speed profile"
fi
# The second run covers the whole cluster: with --limit the bundles task (on the controller, over every
# Hadoop node's platform) cannot read a left-out node's facts.
step "ansible-playbook site.yml, run 2 (must change nothing)"
play 2 || { tail -n 40 "$logs/playbook-2.log" >&2; fail "the second run of site.yml failed"; }
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
timeout 300 nsenter --net --uts -t "$holder" -- chroot "$root" \
  setpriv --reuid fpgamr --regid fpgamr --init-groups \
  env -i HOME=/home/fpgamr USER=fpgamr LOGNAME=fpgamr LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
  sh -c 'cd "$HOME" && exec fpgamr search "$0" --bits 20 --summary-json summary.json' "$digest" \
  >"$logs/job.stdout" 2>"$logs/job.stderr" || job_rc=$?
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
timeout 300 nsenter --net --uts -t "$holder" -- chroot "$root" \
  setpriv --reuid fpgamr --regid fpgamr --init-groups \
  env -i HOME=/home/fpgamr USER=fpgamr LOGNAME=fpgamr LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
  sh -c 'cd "$HOME" && exec hadoop jar "$1" search -D mapreduce.job.tags=via-hadoop-jar "$0" --bits 16 --output via-hadoop-jar' \
  "$digest3" "/opt/fpgamr/mr-md5/target/$jobjar" \
  >"$logs/job-hadoop-jar.stdout" 2>"$logs/job-hadoop-jar.stderr" || job_rc=$?
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
# The ARM worker's NodeManager starts meanwhile, on the armhf JVM under emulation, as on a board
# (its unit, as the others; it is slow to start: the emulated JVM).
if $with_arm; then
t_arm_nm=$SECONDS
"$py" "$here/tests/unitexec.py" "$aroot" "$holder" hadoop-yarn-nodemanager.service --output "$logs/arm1-hadoop-yarn-nodemanager.out" \
  >"$logs/arm1-hadoop-yarn-nodemanager.start" 2>&1 </dev/null &
arm_nm=$!
fi
step "starting fpga1's design loader, NodeManager and energy exporter from their units (FPGA plugin, one simulated accelerator)"
start_units "$froot" fpga1 fpgamr-loader hadoop-yarn-nodemanager fpgamr-energy-exporter
# The loader serves the NodeManager's main process only: its unit told the loader which one, and a
# process of the NodeManager's user (a container under the DefaultContainerExecutor) is refused.
nm_pid="$(sed -n 's/.*hadoop-yarn-nodemanager.service started in .* (main process \([0-9]*\)).*/\1/p' "$logs/fpga1-hadoop-yarn-nodemanager.start")"
[ -n "$nm_pid" ] && [ "$(cat "$froot/run/fpgamr/nodemanager.pid")" = "$nm_pid" ] \
  || fail "fpga1: /run/fpgamr/nodemanager.pid ($(cat "$froot/run/fpgamr/nodemanager.pid" 2>&1)) is not the NodeManager's main pid ($nm_pid)"
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
if $with_arm; then
if ! wait "$arm_nm"; then
  show_logs
  tail -n 30 "$aroot/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2
  fail "arm1: hadoop-yarn-nodemanager.service did not start ($(tail -n 1 "$logs/arm1-hadoop-yarn-nodemanager.start"))"
fi
grep -h -e '^fpgamr-wait: .* is up after' -e '^unitexec: ' "$logs/arm1-hadoop-yarn-nodemanager.start" | sed "s/^/  arm1: /"
arm_nm_pid="$(sed -n 's/.*started in .* (main process \([0-9]*\)).*/\1/p' "$logs/arm1-hadoop-yarn-nodemanager.start")"
# binfmt_misc runs the root's armhf java through QEMU: the process is QEMU's, its next word the JVM.
[ -n "$arm_nm_pid" ] && tr '\0' ' ' <"/proc/$arm_nm_pid/cmdline" | grep -q '^/usr/libexec/qemu-binfmt/arm[^ ]* /usr/lib/jvm/java-17-openjdk-armhf/bin/java ' \
  || fail "arm1: the NodeManager (process $arm_nm_pid) does not run under QEMU's armhf emulation"
step "arm1: NodeManager registered in $((SECONDS - t_arm_nm)) s from its unit, the armhf JVM under QEMU ($(tr '\0' ' ' <"/proc/$arm_nm_pid/cmdline" | cut -d' ' -f1-3))"
fi
http_get "http://127.0.0.1:8088/ws/v1/cluster/nodes" | "$py" -c '
import json, sys
want = int(sys.argv[1])
nodes = json.load(sys.stdin)["nodes"]["node"]
fpga = {n["nodeHostName"].split(".")[0]: sum(r.get("value", 0) for r in n["totalResource"]["resourceInformations"]["resourceInformation"]
                               if r["name"] == "yarn.io/fpga") for n in nodes if n["state"] == "RUNNING"}
print("yarn.io/fpga by node: %s" % fpga)
sys.exit(0 if len(fpga) == want and (fpga.get("fpga1") or fpga.get("127.0.0.2")) == 1 and sum(fpga.values()) == 1 else 1)' \
  "$($with_arm && echo 3 || echo 2)" || { tail -n 30 "$froot/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2; fail "fpga1's NodeManager did not register its FPGA (yarn.io/fpga = 1; node1$($with_arm && echo ' and arm1'): 0)"; }

# The accelerator path of the deployed cluster: a job whose maps ask for yarn.io/fpga runs on
# fpga1, where the plugin loads the (simulated) design and the maps hash on the device.
digest2="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00001234")).hexdigest())')"
step "fpgamr search $digest2 --bits 16 --accel fpga --design vsim-p4 (maps on fpga1's FPGA)"
job_rc=0
timeout 300 nsenter --net --uts -t "$holder" -- chroot "$root" \
  setpriv --reuid fpgamr --regid fpgamr --init-groups \
  env -i HOME=/home/fpgamr USER=fpgamr LOGNAME=fpgamr LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
  sh -c 'cd "$HOME" && exec fpgamr search "$0" --bits 16 --accel fpga --design vsim-p4' "$digest2" \
  >"$logs/job-fpga.stdout" 2>"$logs/job-fpga.stderr" || job_rc=$?
cat "$logs/job-fpga.stdout"
grep -E '^  maps on' "$logs/job-fpga.stderr" || true
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest2:\$HEX\[00001234\]" "$logs/job-fpga.stdout" \
   || ! grep -Eq '^  maps on fpga1[^ ]*( \([^)]*\))?: 0 cpu, [1-9][0-9]* fpga' "$logs/job-fpga.stderr"; then
  tail -n 30 "$logs/job-fpga.stderr" >&2
  tail -n 30 "$froot/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2
  fail "the FPGA job (exit $job_rc) did not run its maps on fpga1's accelerator and print $digest2:\$HEX[00001234]"
fi

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
grep -q "fpga1: fpgamr doctor: FAIL: regmap: the device's register map is 2.7, this driver's is 3.0" "$logs/doctor-regmap.log" \
  || { tail -n 30 "$logs/doctor-regmap.log" >&2; fail "the fpga role's doctor did not fail the play with the doctor's regmap line"; }
step "fpga role's doctor on fpga1 (vsim, register map 2.7): the play failed with 'fpga1: fpgamr doctor: FAIL: regmap: ...' in $((SECONDS - t_doctor)) s"

if $with_arm; then
# --- 8c. One job over every started worker type: x86 (node1), FPGA (fpga1) and ARM (arm1) -------
# 2^21 values, 8 units of 2^18: more units than the cluster's 5 map slots, so every map hashes its
# own reserved unit (the ARM node's one slot included) and the rest goes by speed.
digest4="$("$py" -c 'import hashlib; print(hashlib.md5(bytes.fromhex("00123456")).hexdigest())')"
step "fpgamr search $digest4 --bits 21 (maps on node1, fpga1 and arm1)"
t_mixed=$SECONDS
job_rc=0
timeout 600 nsenter --net --uts -t "$holder" -- chroot "$root" \
  setpriv --reuid fpgamr --regid fpgamr --init-groups \
  env -i HOME=/home/fpgamr USER=fpgamr LOGNAME=fpgamr LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
  sh -c 'cd "$HOME" && exec fpgamr search -D mapreduce.map.speculative=false "$0" --bits 21 --summary-json mixed.json --output mixed' "$digest4" \
  >"$logs/job-mixed.stdout" 2>"$logs/job-mixed.stderr" || job_rc=$?
cat "$logs/job-mixed.stdout"
grep -E '^  maps on' "$logs/job-mixed.stderr" || true
if [ "$job_rc" -ne 0 ] || ! grep -qx "$digest4:\$HEX\[00123456\]" "$logs/job-mixed.stdout"; then
  tail -n 30 "$logs/job-mixed.stderr" >&2
  tail -n 30 "$aroot/var/log/hadoop/nodemanager/hadoop-yarn-nodemanager.log" >&2
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
ok = types == {"node1": "x86", "fpga1": "fpga", "arm1": "arm"}
for n, m in by_node.items():
    arm = types.get(host(n)) == "arm"
    ok &= (m["os_arch"], m["native_platform"], m["emulated"]) == (("arm", "linux-armhf", True) if arm else ("amd64", "linux-x86_64", False))
    ok &= m["cpu"] + m["fpga"] >= 1
ok &= sorted(host(n) for n in nodes) == ["arm1", "fpga1", "node1"] and all(v["values_hashed"] > 0 for v in nodes.values())
ok &= sum(v["values_hashed"] for v in nodes.values()) == 1 << 21 == s["values_hashed"] == s["values_expected"]
sys.exit(0 if ok else 1)
PY
step "mixed job: maps on x86 node1, FPGA node fpga1 and ARM node arm1 (arm, linux-armhf, emulated), 2^21 values exactly, in $((SECONDS - t_mixed)) s"
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
  arm_done="; arm1 (an armhf root under QEMU, as root$($arm_cached && echo ', deployed before: from the cache')): fpgamr_arch armv7l checked, its NodeManager on the armhf JVM under QEMU, a search over 2^21 ran maps on the x86, FPGA and ARM nodes, counts exact"
else
  arm_done="; no ARM worker (FPGAMR_DEPLOY_ARM=1, make test-mixed, adds it)"
fi
echo "deploy chroot test: PASSED in $((SECONDS - t0)) s with $(ansible-playbook --version 2>/dev/null | sed -n 1p) (site.yml applied twice over SSH + sudo to node1 + FPGA node fpga1, second run changed=0; fpga1: DKMS module built, udev, plugin registers yarn.io/fpga and runs an --accel fpga job on its simulated device, the fpga role's doctor passes on it as the containers' user and fails the play on a register map of another release; HDFS + YARN + exporter + Prometheus started from the installed units all at once, each waiting with fpgamr-wait for what it needs and for its own daemon to answer; search bits=20 found 00012345 on YARN, and through hadoop jar with -D honoured$arm_done)"
