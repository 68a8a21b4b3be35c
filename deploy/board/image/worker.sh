#!/usr/bin/env bash
# worker.sh ROOT.tar.zst OUT.tar.zst: the image's root as the board boots it.
#
#   1. the fpgamr ARM-FPGA worker installed by deploy/ansible's site.yml through the image's own
#      inventory (inventory/: Ansible's chroot connection, DKMS for the pinned armmp kernel, no
#      daemons started, no test key), --limit fpgamr-de10;
#   2. what must differ per card left out: SSH host keys (fpgamr-firstboot makes them), the
#      machine id ("uninitialized": systemd's first boot), apt's lists, logs.
#
# Runs in a private mount namespace on tmpfs, as root.
#   KVER   the armmp release;  RBF  the bitstream ("" for none: the play installs none)
#   HERE   deploy/board/image;  REPO  the checkout (built: the play ships what the build made)
#   STAGE  the folder of the play's bundles (the Makefile staged them to key this stage)
set -euo pipefail
in=${1:?usage: worker.sh ROOT.tar.zst OUT.tar.zst}
out=${2:?usage: worker.sh ROOT.tar.zst OUT.tar.zst}
: "${KVER:?}" "${HERE:?}" "${REPO:?}" "${STAGE:?}"
RBF=${RBF:-}
fail() { echo "image worker: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (chroot under QEMU user emulation)"
# Debian's Ansible: its community.general has the chroot connection (the .venv's ansible-core has no collections)
ANSIBLE_PLAYBOOK=${ANSIBLE_PLAYBOOK:-/usr/bin/ansible-playbook}
[ -x "$ANSIBLE_PLAYBOOK" ] || fail "no $ANSIBLE_PLAYBOOK (bin/install-deps --test installs Debian's ansible)"

stage=worker
. "$(dirname "$0")/chroot.sh"
log=$(dirname "$out")/worker.log
chroot_open "$in"

extra=(-e "ansible_host=$r" -e "fpga_kernel_release=$KVER" -e "fpgamr_stage_dir=$STAGE"
  -e "fpgamr_src=$REPO")
[ -n "$RBF" ] && extra+=(-e "fpga_rbf_src=$RBF")
echo "image worker: ansible-playbook site.yml on the image's root (the fpgamr ARM-FPGA worker, DKMS for $KVER)"
# profile_tasks: each task's wall time in the log, and the slowest listed after the recap (the
# stage runs under QEMU user emulation: this is where its time goes)
ANSIBLE_CONFIG="$REPO/deploy/ansible/ansible.cfg" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
  ANSIBLE_CALLBACKS_ENABLED=ansible.posix.profile_tasks PROFILE_TASKS_TASK_OUTPUT_LIMIT=25 \
  "$ANSIBLE_PLAYBOOK" -i "$HERE/inventory/hosts.yml" "$REPO/deploy/ansible/site.yml" \
  --limit fpgamr-de10 "${extra[@]}" >"$log" 2>&1 ||
  { grep -n -B2 -A12 -E '^(fatal|failed):|ERROR!' "$log" | tail -n 40 >&2; fail "site.yml failed on the image's root (log: $log)"; }
sed -n '/^PLAY RECAP/,$p' "$log"
ko=$(find "$r/lib/modules/$KVER" -name 'fpgamr.ko*' | head -n 1)
[ -n "$ko" ] || fail "DKMS built no fpgamr.ko for $KVER in the image"
echo "image worker: DKMS built ${ko#"$r"}"

rm -f "$r"/etc/ssh/ssh_host_* "$r/var/lib/dbus/machine-id"
echo uninitialized >"$r/etc/machine-id"
rm -rf "$r"/var/lib/apt/lists/* "$r"/var/cache/apt/*.bin "$r"/var/log/*.log "$r"/var/log/apt/* "$r"/tmp/* "$r"/root/.ansible
chroot_close "$out"
echo "image worker: the board's root in $out"
