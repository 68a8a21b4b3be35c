#!/usr/bin/env bash
# check-image.sh IMG: the SD image read back from its file, against what the Cyclone V boot ROM,
# U-Boot and the board need (one line per check; exit 1 on any failure).
#
#   the partition table (sfdisk --json): 1 = type a2, 2 = FAT32 (c) and bootable, 3 = Linux (83)
#   and last; partition 1 holds SPL (the u-boot-with-spl.sfp given) byte for byte;
#   each of the four 64 KiB SPL copies the boot ROM may read carries the preloader header the
#   boot ROM checks: validation word 0x31305341 at 0x40, header version 0, a program length
#   inside its 64 KiB, and the header checksum at 0x4A, the 16-bit sum of the bytes 0x40..0x49
#   (Intel, "Cyclone V Hard Processor System Technical Reference Manual", appendix "Booting and
#   Configuration", section "Preloader Image Format"; the same layout as U-Boot's
#   tools/socfpgaimage.c); and dumpimage -T socfpgaimage -l (u-boot-tools) accepts it, CRC included;
#   the FAT partition: label FPGAMR-BOOT, boot.scr a U-Boot script image (dumpimage -l);
#   the root: ext4 labelled fpgamr-root (blkid), the pinned kernel and its initrd, extlinux.conf
#   naming them, the DE10-Nano DTB (equal to DTB) and the root; the fpgamr module from the image's
#   DKMS; no SSH host keys, no authorized keys, machine-id "uninitialized", the first-boot unit on.
#
#   SPL, DTB: the files the image was built from;  KVER: the pinned armmp release
set -uo pipefail
img=${1:?usage: check-image.sh IMG}
: "${SPL:?}" "${DTB:?}" "${KVER:?}"
work=$(dirname "$img")/check
rm -rf "$work" && mkdir -p "$work"
P=0 F=0
ok() { P=$((P + 1)); echo "ok - $*"; }
nok() { F=$((F + 1)); echo "not ok - $*"; }
expect() { local d=$1; shift; if "$@" >/dev/null 2>&1; then ok "$d"; else nok "$d"; fi; }
[ -f "$img" ] || { echo "check-image: no $img (make -C deploy/board image)" >&2; exit 1; }
t0=$SECONDS

# --- the partition table ---------------------------------------------------------------------
sfdisk --json "$img" >"$work/table.json" 2>/dev/null || { echo "check-image: sfdisk cannot read $img" >&2; exit 1; }
field() { python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["partitiontable"]["partitions"][int(sys.argv[2]) - 1]
print(p.get(sys.argv[3], ""))' "$work/table.json" "$1" "$2"; }
expect "an MBR (dos) partition table" test "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["partitiontable"]["label"])' "$work/table.json")" = dos
expect "three partitions" test "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["partitiontable"]["partitions"]))' "$work/table.json")" = 3
expect "partition 1 is type a2 (the boot ROM's preloader partition)" test "$(field 1 type)" = a2
expect "partition 2 is type c (FAT32, LBA)" test "$(field 2 type)" = c
expect "partition 2 is the bootable one (U-Boot's distro boot scans it)" test "$(field 2 bootable)" = True
expect "partition 3 is type 83 (Linux)" test "$(field 3 type)" = 83
expect "partition 3 is last on the card (first boot grows it)" \
  test "$(field 3 start)" -gt "$(field 2 start)" -a "$(field 2 start)" -gt "$(field 1 start)"
a2_off=$(($(field 1 start) * 512)) a2_len=$(($(field 1 size) * 512))
boot_off=$(($(field 2 start) * 512)) boot_len=$(($(field 2 size) * 512))
root_off=$(($(field 3 start) * 512)) root_len=$(($(field 3 size) * 512))
expect "partition 3 ends at the end of the image file" test $((root_off + root_len)) = "$(stat -c %s "$img")"

# --- the a2 partition: SPL + U-Boot ----------------------------------------------------------
spl_len=$(stat -c %s "$SPL")
dd if="$img" of="$work/a2.bin" bs=512 skip=$((a2_off / 512)) count=$((a2_len / 512)) status=none
expect "partition 1 holds $(basename "$SPL") byte for byte ($spl_len bytes)" cmp -n "$spl_len" "$work/a2.bin" "$SPL"
for i in 0 1 2 3; do
  dd if="$work/a2.bin" of="$work/spl$i.bin" bs=65536 skip="$i" count=1 status=none
  hdr=$(python3 - "$work/spl$i.bin" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
magic, version, flags, length, spare, checksum = struct.unpack_from("<IBBHHH", b, 0x40)
print("magic=%08x version=%d length=%d spare=%d checksum=%04x sum=%04x" % (
    magic, version, length, spare, checksum, sum(b[0x40:0x4A]) & 0xFFFF))
EOF
)
  magic= version= length=0 spare= checksum= sum=
  eval "$hdr"
  expect "SPL copy $i (offset $((i * 64))K): validation word 0x31305341" test "$magic" = 31305341
  expect "SPL copy $i: header version 0 (Cyclone V), spare 0" test "$version" = 0 -a "$spare" = 0
  expect "SPL copy $i: program length $((length * 4)) bytes, within its 64 KiB" test "$length" -gt 16 -a "$length" -le 16384
  expect "SPL copy $i: header checksum 0x$checksum = the sum of bytes 0x40..0x49" test "$checksum" = "$sum"
  expect "SPL copy $i: dumpimage -T socfpgaimage -l accepts it (header and CRC)" dumpimage -T socfpgaimage -l "$work/spl$i.bin"
done

# --- the FAT partition -------------------------------------------------------------------------
expect "partition 2: FAT labelled FPGAMR-BOOT (blkid)" \
  sh -c "blkid -p -O $boot_off -s LABEL -o value '$img' | grep -qx FPGAMR-BOOT"
mcopy -n -i "$img@@$boot_off" ::boot.scr "$work/boot.scr" 2>/dev/null
expect "partition 2 has boot.scr, a U-Boot script image (dumpimage -l)" \
  sh -c "dumpimage -l '$work/boot.scr' | grep -q 'Image Type:.*Script'"

# --- the root ------------------------------------------------------------------------------------
expect "partition 3: ext4 labelled fpgamr-root (blkid)" \
  sh -c "blkid -p -O $root_off -o export '$img' | grep -qx TYPE=ext4 && blkid -p -O $root_off -o export '$img' | grep -qx LABEL=fpgamr-root"
dd if="$img" of="$work/root.img" bs=1M iflag=skip_bytes,count_bytes skip=$root_off count=$root_len conv=sparse status=none
dbg() { debugfs -R "$1" "$work/root.img" 2>/dev/null; }
exists() { debugfs -R "stat $1" "$work/root.img" 2>&1 | grep -q '^Inode:'; }
expect "the root has /boot/vmlinuz-$KVER (the pinned armmp kernel)" exists "/boot/vmlinuz-$KVER"
expect "... and /boot/initrd.img-$KVER" exists "/boot/initrd.img-$KVER"
dbg "cat /boot/extlinux/extlinux.conf" >"$work/extlinux.conf"
expect "extlinux.conf (u-boot-menu) boots /boot/vmlinuz-$KVER" grep -q "^[[:space:]]*linux /boot/vmlinuz-$KVER\$" "$work/extlinux.conf"
expect "... with its initrd" grep -q "^[[:space:]]*initrd /boot/initrd.img-$KVER\$" "$work/extlinux.conf"
expect "... and the DE10-Nano's DTB beside it" grep -q "^[[:space:]]*fdt /usr/lib/linux-image-$KVER/socfpga_cyclone5_de10_nano.dtb\$" "$work/extlinux.conf"
expect "... root=LABEL=fpgamr-root, console on UART0 (ttyS0) at 115200" \
  grep -q "^[[:space:]]*append root=LABEL=fpgamr-root .*console=ttyS0,115200" "$work/extlinux.conf"
dbg "dump /usr/lib/linux-image-$KVER/socfpga_cyclone5_de10_nano.dtb $work/board.dtb" >/dev/null
expect "the DTB extlinux.conf names is the one given ($(basename "$DTB"))" cmp "$work/board.dtb" "$DTB"
dbg "ls -p /lib/modules/$KVER/updates/dkms" >"$work/dkms.ls"
expect "fpgamr.ko from the image's DKMS build for $KVER" grep -q '/fpgamr\.ko' "$work/dkms.ls"
dbg "ls -p /etc/ssh" >"$work/ssh.ls"
expect "no SSH host key in the image (first boot makes them)" sh -c "! grep -q ssh_host_ '$work/ssh.ls'"
expect "no authorized SSH key for root" sh -c "! debugfs -R 'stat /root/.ssh/authorized_keys' '$work/root.img' 2>&1 | grep -q '^Inode:'"
expect "machine-id 'uninitialized' (systemd's first boot)" sh -c "debugfs -R 'cat /etc/machine-id' '$work/root.img' 2>/dev/null | grep -qx uninitialized"
expect "fpgamr-firstboot.service is enabled" exists /etc/systemd/system/sysinit.target.wants/fpgamr-firstboot.service
expect "DHCP on the board's Ethernet (networkd)" exists /etc/systemd/network/20-wired.network
expect "the worker's fpgamr command is installed" exists /usr/local/bin/fpgamr

echo "check-image: $P passed, $F failed in $((SECONDS - t0)) s"
[ "$F" -eq 0 ]
