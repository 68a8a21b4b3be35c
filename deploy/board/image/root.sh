#!/usr/bin/env bash
# root.sh OUT.tar.zst: the DE10-Nano image's root, before the worker is installed.
#
#   bin/armhf-root --tarball's root (debootstrap armhf bookworm with OpenJDK 17, shared with the
#   deploy test) + Debian's armmp kernel at the pinned release (the very .debs that
#   kernel/scripts/armhf-sysroot.sh fetched for the kernel suite: image, headers, kbuild) + the
#   board's system: systemd, u-boot-menu (extlinux.conf in /boot), initramfs-tools, sshd, networkd,
#   growpart, python3 (for Ansible), and this folder's files/ (first boot, DHCP, u-boot-menu's
#   settings, the kernel hook that installs the board's DTB beside each kernel, dpkg's
#   path-excludes for manuals, documentation and translations).
#
# Everything runs under QEMU user emulation in a chroot on tmpfs (chroot.sh). The result is a zstd
# tarball; the caller caches it by its inputs. Needs root.
#
#   KVER       the armmp release (build/armhf/kver of armhf-sysroot.sh)
#   KDEBS      the folder of that release's .debs (build/armhf/debs)
#   ARMHF_TAR  bin/armhf-root --tarball's tarball
#   FILES      deploy/board/image/files
set -euo pipefail
out=${1:?usage: root.sh OUT.tar.zst}
: "${KVER:?}" "${KDEBS:?}" "${ARMHF_TAR:?}" "${FILES:?}"
fail() { echo "image root: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (chroot under QEMU user emulation)"

# the board's system, beside the kernel: no recommends, so the list is the image's
packages=(systemd-sysv systemd-resolved udev kmod initramfs-tools u-boot-menu openssh-server
  python3 cloud-guest-utils fdisk e2fsprogs dkms sudo ca-certificates)

stage=root
. "$(dirname "$0")/chroot.sh"
log=$(dirname "$out")/root.log
: >"$log"
chroot_open "$ARMHF_TAR"
echo fpgamr-de10 >"$r/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tfpgamr-de10\n' >"$r/etc/hosts"

# no manuals, documentation (the copyright files stay) or translations, in what the base root
# holds and in what is installed from here on (files/dpkg-nodoc): fewer files to unpack under
# emulation and a smaller card; and man-db's index is never rebuilt (nothing to index)
install -D -m 0644 "$FILES/dpkg-nodoc" "$r/etc/dpkg/dpkg.cfg.d/fpgamr-nodoc"
find "$r/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
find "$r/usr/share/man" "$r/usr/share/groff" "$r/usr/share/info" "$r/usr/share/lintian" \
  -mindepth 1 -delete 2>/dev/null || true
find "$r/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
echo 'man-db man-db/auto-update boolean false' | run debconf-set-selections
rm -f "$r/var/lib/man-db/auto-update"

# u-boot-menu's settings and the DTB hook first, so the kernel's install writes the right
# extlinux.conf (--force-confold keeps these settings over the package's); the DTB itself is the
# image's (assemble.sh), not the root's
install -D -m 0644 "$FILES/u-boot" "$r/etc/default/u-boot"
install -D -m 0755 "$FILES/zy-fpgamr-dtb" "$r/etc/kernel/postinst.d/zy-fpgamr-dtb"
# the initramfs with the board's root modules only (MODULES=list), in place before the kernel's
# install makes it: MODULES=most under user emulation took over 20 minutes (files/initramfs-modules)
install -D -m 0644 "$FILES/initramfs-modules" "$r/etc/initramfs-tools/modules"
install -D -m 0644 "$FILES/initramfs-list.conf" "$r/etc/initramfs-tools/conf.d/fpgamr-list"

mkdir -p "$r/tmp/kdebs"
debs=()
for d in "$KDEBS"/*.deb; do
  case $d in */busybox*) continue ;; esac
  cp "$d" "$r/tmp/kdebs/"
  debs+=("/tmp/kdebs/$(basename "$d")")
done
[ ${#debs[@]} -ge 3 ] || fail "no kernel .debs in $KDEBS (kernel/scripts/armhf-sysroot.sh)"
{
  run apt-get -qq update &&
  run apt-get -qq install -y --no-install-recommends -o Dpkg::Options::=--force-confold "${packages[@]}" "${debs[@]}" &&
  run apt-mark hold "linux-image-$KVER" "linux-headers-$KVER" &&
  run apt-get clean
} >>"$log" 2>&1 || { tail -n 30 "$log" >&2; fail "installing the packages and the armmp kernel $KVER (log: $log)"; }
[ -f "$r/boot/vmlinuz-$KVER" ] || fail "no /boot/vmlinuz-$KVER after the kernel's install"
[ -f "$r/boot/initrd.img-$KVER" ] || fail "no /boot/initrd.img-$KVER after the kernel's install"
grep -q "vmlinuz-$KVER" "$r/boot/extlinux/extlinux.conf" 2>/dev/null ||
  fail "u-boot-menu wrote no /boot/extlinux/extlinux.conf entry for $KVER"

# the board's own: first boot (host keys, machine-id, the root grown to the card), DHCP, the
# serial console's getty comes from console=ttyS0 on the command line (systemd's generator)
install -D -m 0755 "$FILES/fpgamr-firstboot" "$r/usr/local/sbin/fpgamr-firstboot"
install -D -m 0644 "$FILES/fpgamr-firstboot.service" "$r/etc/systemd/system/fpgamr-firstboot.service"
install -D -m 0644 "$FILES/20-wired.network" "$r/etc/systemd/network/20-wired.network"
install -D -m 0644 "$FILES/fstab" "$r/etc/fstab"
run systemctl enable fpgamr-firstboot.service systemd-networkd.service systemd-resolved.service >>"$log" 2>&1 ||
  fail "enabling the first-boot and network units (log: $log)"
# the console's first login: root, password fpgamr, to be changed at once (SSH takes keys only)
echo 'root:fpgamr' | run chpasswd
run chage -d 0 root

chroot_close "$out"
echo "image root: armmp $KVER, ${#packages[@]} packages, in $out"
