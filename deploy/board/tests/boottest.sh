#!/usr/bin/env bash
# boottest.sh IMG: the image's own kernel and initramfs boot in QEMU with the image as a virtio
# disk, mount its root (LABEL=fpgamr-root, as extlinux.conf says), and the image's DKMS-built
# fpgamr module loads there against kernel/'s node model; the image's fpgamr-doctor checks its
# native layers (tests/guest-init.sh as PID 1: no systemd, no JVM under TCG).
#
# QEMU models no Cyclone V: the machine is QEMU's `virt` (Cortex-A15) with kernel/test's device
# tree (build/armhf/node.dtb: the virt machine's own, the DE10-Nano's labels, the accelerator's
# node and a CMA pool), kernel/test's fpgamr_sim.ko as the FPGA side of the bus and node-sim (the
# Verilated hdl/rtl) serving the register window: the same pieces as `make -C kernel
# boottest-armhf`. U-Boot, the SPL, boot.scr and the board's DTB are not run here.
#
#   KVER   the image's armmp release;  KARM  kernel/build/armhf (node.dtb, fpgamr_sim.ko, node-sim)
#   FPGAMR_BOOT_TIMEOUT  seconds before the guest counts as hung (default 900)
set -euo pipefail
img=${1:?usage: boottest.sh IMG}
: "${KVER:?}" "${KARM:?}"
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$img")/boottest
timeout=${FPGAMR_BOOT_TIMEOUT:-900}
die() { echo "image boottest: $*" >&2; exit 1; }
[ -f "$img" ] || die "no $img (make -C deploy/board image)"
for f in node.dtb tree/test/fpgamr_sim.ko node-sim; do
  [ -f "$KARM/$f" ] || die "no $KARM/$f (make -C kernel armhf progs-armhf)"
done
rm -rf "$out" && mkdir -p "$out/disk"

# the kernel and initramfs, read from the image's root partition
start=$(sfdisk --json "$img" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]["partitions"][2]; print(p["start"], p["size"])')
read -r s n <<<"$start"
dd if="$img" of="$out/root.img" bs=1M iflag=skip_bytes,count_bytes skip=$((s * 512)) count=$((n * 512)) conv=sparse status=none
for f in "vmlinuz-$KVER" "initrd.img-$KVER"; do
  debugfs -R "dump /boot/$f $out/$f" "$out/root.img" >/dev/null 2>&1
  [ -s "$out/$f" ] || die "the image has no /boot/$f"
done
# the image's own doctor: bin/fpgamr runs it from the jni-fpga jar the play installed
jar=$(debugfs -R "ls -p /opt/fpgamr/jni-fpga/target" "$out/root.img" 2>/dev/null | tr / '\n' | grep -x 'jni-fpga-.*[0-9]\.jar' | head -n 1)
[ -n "$jar" ] || die "the image has no /opt/fpgamr/jni-fpga/target/jni-fpga-*.jar"
debugfs -R "dump /opt/fpgamr/jni-fpga/target/$jar $out/$jar" "$out/root.img" >/dev/null 2>&1
unzip -p "$out/$jar" native/linux-armhf/fpgamr-doctor >"$out/disk/fpgamr-doctor" && [ -s "$out/disk/fpgamr-doctor" ] ||
  die "the image's $jar has no native/linux-armhf/fpgamr-doctor"
chmod 755 "$out/disk/fpgamr-doctor"
rm -f "$out/root.img"

# the test disk: this init, the image's doctor, kernel/'s test device and node model
cp "$here/guest-init.sh" "$out/disk/init"
cp "$here/../../../kernel/test/expect.sh" "$out/disk/"
cp "$here/node-doctor.sh" "$KARM/tree/test/fpgamr_sim.ko" "$KARM/node-sim" "$out/disk/"
mkfs.ext4 -q -L fpgamr-test -d "$out/disk" "$out/test.img" 64M

t0=$SECONDS
rc=0
timeout --foreground "$timeout" qemu-system-arm -M virt -cpu cortex-a15 -m 3G -smp 2 \
  -dtb "$KARM/node.dtb" -kernel "$out/vmlinuz-$KVER" -initrd "$out/initrd.img-$KVER" \
  -drive "file=$img,if=none,id=card,format=raw,snapshot=on" -device virtio-blk-device,drive=card \
  -drive "file=$out/test.img,if=none,id=test,format=raw,readonly=on" -device virtio-blk-device,drive=test \
  -append "root=LABEL=fpgamr-root ro rootwait console=ttyAMA0 panic=-1 fpgamr_kver=$KVER init=/bin/sh -- -c \"mount -o ro -L fpgamr-test /mnt && exec /mnt/init\"" \
  -nographic -no-reboot -monitor none -nic none </dev/null >"$out/console.log" 2>&1 || rc=$?
secs=$((SECONDS - t0))
tr -d '\r' <"$out/console.log" >"$out/console.txt"
sed -n '/FPGAMR-IMAGE-BOOT-START/,/FPGAMR-IMAGE-BOOT-END/p' "$out/console.txt"
echo "image boottest: $KVER from the image under qemu-system-arm -M virt (TCG), ${secs} s"
[ $rc -ne 124 ] || { tail -n 40 "$out/console.txt"; die "timed out after ${timeout} s"; }
grep -q '^FPGAMR-IMAGE-BOOT-END' "$out/console.txt" || { tail -n 60 "$out/console.txt"; die "the guest stopped before the end marker (qemu exit $rc)"; }
grep -q '^FPGAMR-IMAGE-BOOT-RESULT: PASS' "$out/console.txt" || die "FAIL"
echo "image boottest: PASS"
