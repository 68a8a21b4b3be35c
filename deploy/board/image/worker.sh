#!/usr/bin/env bash
# worker.sh STEP IN.tar.zst OUT.tar.zst: the image's root as the board boots it, in two steps, so
# that a build of the project re-runs only the cheap one (the Makefile caches each by its inputs).
#
#   system   deploy/ansible's site.yml through the image's own inventory (inventory/: Ansible's
#            chroot connection, DKMS for the pinned armmp kernel, no daemons started, no test key),
#            --limit fpgamr-de10, without the project's jars and native libraries
#            (--skip-tags fpgamr_project): Hadoop's runtime, the units and configuration, the
#            kernel module's DKMS build, the design's files; on stage 1's root. Its inputs are the
#            roles, the inventory, Hadoop's jars, the kernel module's source, the bitstream: not
#            the project's build, whose jars differ with every build.
#   project  the same play with --tags fpgamr_facts,fpgamr_project on the system step's root: the
#            project's jars and native libraries (what the build made), the plugin's links; then
#            what must differ per card left out: SSH host keys (fpgamr-firstboot makes them), the
#            machine id ("uninitialized": systemd's first boot), apt's lists, logs.
# Together they are one full run of site.yml: no task of the system step reads what the project
# step installs (roles/fpgamr/tasks/main.yml, on the tags).
#
# Runs in a private mount namespace on tmpfs, as root.
#   KVER   the armmp release;  RBF  the bitstream ("" for none: the play installs none)
#   HERE   deploy/board/image;  REPO  the checkout (built: the play ships what the build made)
#   STAGE  the folder of the play's bundles (the Makefile staged them to key these steps)
set -euo pipefail
usage="usage: worker.sh system|project IN.tar.zst OUT.tar.zst"
step=${1:?$usage}
in=${2:?$usage}
out=${3:?$usage}
: "${KVER:?}" "${HERE:?}" "${REPO:?}" "${STAGE:?}"
RBF=${RBF:-}
fail() { echo "image $step: $*" >&2; exit 1; }
case $step in
  system) tags=(--skip-tags fpgamr_project) ;;
  project) tags=(--tags fpgamr_facts,fpgamr_project) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || fail "needs root (chroot under QEMU user emulation)"
# Debian's Ansible: its community.general has the chroot connection (the .venv's ansible-core has no collections)
ANSIBLE_PLAYBOOK=${ANSIBLE_PLAYBOOK:-/usr/bin/ansible-playbook}
[ -x "$ANSIBLE_PLAYBOOK" ] || fail "no $ANSIBLE_PLAYBOOK (bin/install-deps --test installs Debian's ansible)"

stage=worker-$step
. "$(dirname "$0")/chroot.sh"
log=$(dirname "$out")/worker-$step.log
chroot_open "$in"

extra=(-e "ansible_host=$r" -e "fpga_kernel_release=$KVER" -e "fpgamr_stage_dir=$STAGE"
  -e "fpgamr_src=$REPO")
[ -n "$RBF" ] && extra+=(-e "fpga_rbf_src=$RBF")
echo "image $step: ansible-playbook site.yml ${tags[*]} on the image's root (the fpgamr ARM-FPGA worker, DKMS for $KVER)"
# profile_tasks: each task's wall time in the log, and the slowest listed after the recap (the
# steps run under QEMU user emulation: this is where their time goes)
ANSIBLE_CONFIG="$REPO/deploy/ansible/ansible.cfg" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
  ANSIBLE_CALLBACKS_ENABLED=ansible.posix.profile_tasks PROFILE_TASKS_TASK_OUTPUT_LIMIT=25 \
  "$ANSIBLE_PLAYBOOK" -i "$HERE/inventory/hosts.yml" "$REPO/deploy/ansible/site.yml" \
  --limit fpgamr-de10 "${tags[@]}" "${extra[@]}" >"$log" 2>&1 ||
  { grep -n -B2 -A12 -E '^(fatal|failed):|ERROR!' "$log" | tail -n 40 >&2; fail "site.yml failed on the image's root (log: $log)"; }
sed -n '/^PLAY RECAP/,$p' "$log"

if [ "$step" = system ]; then
  ko=$(find "$r/lib/modules/$KVER" -name 'fpgamr.ko*' | head -n 1)
  [ -n "$ko" ] || fail "DKMS built no fpgamr.ko for $KVER in the image"
  echo "image $step: DKMS built ${ko#"$r"}"
else
  [ -f "$r/opt/fpgamr/bin/fpgamr" ] || fail "the play installed no /opt/fpgamr/bin/fpgamr"
  rm -f "$r"/etc/ssh/ssh_host_* "$r/var/lib/dbus/machine-id"
  echo uninitialized >"$r/etc/machine-id"
  rm -rf "$r"/var/lib/apt/lists/* "$r"/var/cache/apt/*.bin "$r"/var/log/*.log "$r"/var/log/apt/* "$r"/tmp/* "$r"/root/.ansible
fi
chroot_close "$out"
echo "image $step: the root in $out"
