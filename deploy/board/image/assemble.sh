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
#   SPL   u-boot-with-spl.sfp;  RBF  the bitstream ("" for none);  HERE  deploy/board/image
set -euo pipefail
in=${1:?usage: assemble.sh ROOT.tar.zst OUT.img}
out=${2:?usage: assemble.sh ROOT.tar.zst OUT.img}
: "${SPL:?}" "${HERE:?}"
RBF=${RBF:-}
fail() { echo "image: $*" >&2; exit 1; }
MiB=1048576
a2_start=1 a2_size=4 boot_size=64
boot_start=$((a2_start + a2_size))
root_start=$((boot_start + boot_size))

spl_bytes=$(stat -c %s "$SPL")
[ "$spl_bytes" -gt 262144 ] && [ "$spl_bytes" -le $((a2_size * MiB)) ] ||
  fail "$SPL is $spl_bytes bytes: a u-boot-with-spl.sfp holds four 64 KiB SPL copies and U-Boot, at most $a2_size MiB"

w=$(mktemp -d "$(dirname "$out")/assemble.XXXXXX")
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
