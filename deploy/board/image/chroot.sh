# image/chroot.sh, sourced by root.sh and worker.sh (bash, set -eu, with fail() and $stage set):
# a stage's root unpacked on tmpfs (a 32-bit program under QEMU on a 64-bit host cannot list ext4
# directories) and entered with chroot, its programs run by QEMU user emulation (binfmt_misc,
# bin/armhf-root registers it), inside a private mount namespace so that the root's mounts vanish
# with the stage, even a killed one.
[ -n "${FPGAMR_IMAGE_NS:-}" ] || exec env FPGAMR_IMAGE_NS=1 unshare -m --propagation private "$0" "$@"

r=$(mktemp -d "/dev/shm/fpgamr-image-$stage.XXXXXX")
chroot_umount() {
  local m
  for m in dev/pts dev proc sys; do umount -l "$r/$m" 2>/dev/null || true; done
}
trap 'chroot_umount; rm -rf "$r"' EXIT

# chroot_open TARBALL: the root from TARBALL (plain or zstd), /proc, /dev and /sys mounted, the
# host's resolver for apt, and no service started by a package's install (policy-rc.d)
chroot_open() {
  tar -C "$r" -xpf "$1" || fail "cannot unpack $1"
  mount -t proc proc "$r/proc"
  mount --rbind /dev "$r/dev"
  mount -t sysfs sysfs "$r/sys"
  rm -f "$r/etc/resolv.conf"
  cp /etc/resolv.conf "$r/etc/resolv.conf"
  printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
  chmod 755 "$r/usr/sbin/policy-rc.d"
}

# run CMD...: CMD inside the root
run() { chroot "$r" env DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }

# chroot_close OUT.tar.zst: the build's traces out (policy-rc.d, the host's resolver: the board's
# is resolved's stub), the mounts undone, the root into OUT (written whole, then renamed)
chroot_close() {
  rm -f "$r/usr/sbin/policy-rc.d" "$r/etc/resolv.conf"
  ln -s ../run/systemd/resolve/stub-resolv.conf "$r/etc/resolv.conf"
  chroot_umount
  tar --zstd --one-file-system -cpf "$1.part" -C "$r" . && mv "$1.part" "$1"
}
