#!/usr/bin/env bash
# assemble.sh ROOT.tar.zst OUT.img: the SD card image, without loop mounts.
#
#   partition 1  type a2, 4 MiB at 1 MiB: u-boot-with-spl.sfp (the SPL four times, 64 KiB each,
#                then U-Boot), where the Cyclone V boot ROM looks for its preloader
#   partition 2  FAT32 (type c, bootable), 64 MiB, label FPGAMR-BOOT: boot.scr (boot.cmd), and
#                fpgamr-md5acc.rbf when RBF is given (mkfs.vfat -C, mcopy)
#   partition 3  ext4 (type 83), label fpgamr-root, the root with room to spare (mkfs.ext4 -d),
#                last on the card so the first boot grows it to the card's end
# The pieces are made as files, the table by sfdisk on the image file, and dd puts them in place;
# OUT.bmap (bmaptool create) lists the blocks worth writing.
# The board's DTB goes into the root here (not in the cached stages: a new DTB costs seconds):
# /boot/fpgamr/ (the kernel hook's copy for later kernels) and beside the pinned kernel, then
# u-boot-update (in a chroot, under QEMU user emulation) writes extlinux.conf's fdt line.
#   SPL   u-boot-with-spl.sfp;  DTB  the board's device tree;  KVER  the armmp release
#   RBF   the bitstream ("" for none);  HERE  deploy/board/image
set -euo pipefail
in=${1:?usage: assemble.sh ROOT.tar.zst OUT.img}
out=${2:?usage: assemble.sh ROOT.tar.zst OUT.img}
: "${SPL:?}" "${DTB:?}" "${KVER:?}" "${HERE:?}"
RBF=${RBF:-}
fail() { echo "image: $*" >&2; exit 1; }
MiB=1048576
a2_start=1 a2_size=4 boot_size=64
boot_start=$((a2_start + a2_size))
root_start=$((boot_start + boot_size))

spl_bytes=$(stat -c %s "$SPL")
[ "$spl_bytes" -gt 262144 ] && [ "$spl_bytes" -le $((a2_size * MiB)) ] ||
  fail "$SPL is $spl_bytes bytes: a u-boot-with-spl.sfp holds four 64 KiB SPL copies and U-Boot, at most $a2_size MiB"

[ "$(id -u)" -eq 0 ] || fail "needs root (the root's owners, chroot)"
# on tmpfs: u-boot-update, an armhf program under QEMU, lists /boot (readdir fails on ext4)
w=$(mktemp -d /dev/shm/fpgamr-image-assemble.XXXXXX)
trap 'rm -rf "$w"' EXIT

# the boot partition
mkimage -A arm -O linux -T script -C none -n "fpgamr DE10-Nano boot" -d "$HERE/boot.cmd" "$w/boot.scr" >/dev/null ||
  fail "mkimage could not make boot.scr"
mkfs.vfat -F 32 -n FPGAMR-BOOT -C "$w/boot.img" $((boot_size * 1024)) >/dev/null || fail "mkfs.vfat"
mcopy -i "$w/boot.img" "$w/boot.scr" ::boot.scr || fail "mcopy boot.scr"
[ -z "$RBF" ] || mcopy -i "$w/boot.img" "$RBF" ::fpgamr-md5acc.rbf || fail "mcopy $RBF"

# the root: its files, then an ext4 with a quarter more room than they take (and 256 MiB)
mkdir "$w/root"
tar --zstd -C "$w/root" -xpf "$in" || fail "cannot unpack $in"
install -D -m 0644 "$DTB" "$w/root/boot/fpgamr/socfpga_cyclone5_de10_nano.dtb"
# the scripts' /dev/null, for the chroot's time (no mount: nothing of the host's inside)
mknod -m 666 "$w/root/dev/null" c 1 3 || fail "mknod /dev/null in the root"
chroot "$w/root" /etc/kernel/postinst.d/zy-fpgamr-dtb "$KVER" && chroot "$w/root" u-boot-update >"$w/u-boot-update.log" 2>&1 ||
  { cat "$w/u-boot-update.log" >&2; fail "the DTB hook or u-boot-update failed in the root"; }
rm -f "$w/root/dev/null"
grep -q "fdt /usr/lib/linux-image-$KVER/socfpga_cyclone5_de10_nano.dtb" "$w/root/boot/extlinux/extlinux.conf" ||
  fail "extlinux.conf names no DE10-Nano DTB for $KVER"
used=$(du -s --block-size=$MiB "$w/root" | cut -f1)
root_size=$((used + used / 4 + 256))
mkfs.ext4 -q -L fpgamr-root -d "$w/root" "$w/root.img" "${root_size}M" || fail "mkfs.ext4 -d"
rm -rf "$w/root"

total=$((root_start + root_size))
rm -f "$out"
truncate -s $((total * MiB)) "$out"
sfdisk -q --no-reread --no-tell-kernel "$out" <<TABLE || fail "sfdisk"
label: dos
unit: sectors
start=$((a2_start * 2048)), size=$((a2_size * 2048)), type=a2
start=$((boot_start * 2048)), size=$((boot_size * 2048)), type=c, bootable
start=$((root_start * 2048)), size=$((root_size * 2048)), type=83
TABLE
put() { dd if="$1" of="$out" bs=$MiB seek="$2" conv=notrunc,sparse status=none || fail "dd $1"; }
put "$SPL" "$a2_start"
put "$w/boot.img" "$boot_start"
put "$w/root.img" "$root_start"
bmaptool -q create -o "${out%.img}.bmap" "$out" || fail "bmaptool create"
echo "image: $out, $total MiB (a2 ${a2_size} MiB, FAT ${boot_size} MiB, ext4 ${root_size} MiB: ${used} MiB used)${RBF:+, bitstream $(basename "$RBF")}"
