#!/bin/sh
# The boot tests: build an initramfs with busybox, uio.ko, fpgamr.ko, the
# test module fpgamr_sim.ko and the test programs, boot Debian's kernel in
# QEMU (TCG), and read the verdict of test/init.sh from the serial console.
#
#   boottest.sh x86_64   linux-image-amd64 in qemu-system-x86_64; no device
#                        tree: fpgamr_sim.ko adds the device, its register
#                        window the page memmap= keeps from the kernel
#   boottest.sh armhf    Debian's armmp kernel in qemu-system-arm -M virt
#                        (cortex-a15, 2 CPUs, 3 GiB) with the device tree below; the
#                        ARM guest also runs the whole node (node-sim,
#                        node-search) on a target drawn here
#   boottest.sh armhf dtb   only write that device tree, build/armhf/node.dtb:
#                        the virt machine's own (qemu -machine dumpdtb),
#                        test/virt-board.dtsi, the FPGA overlay of hdl/dts as
#                        it is, test/memory-region.dtso
#
#   KVER    kernel version (x86_64: scripts/kver.sh; armhf: build/armhf/kver)
#   BUILD   build directory (see ../Makefile)
#   FPGAMR_BOOT_TIMEOUT  seconds before the guest counts as hung
#                        (x86_64 200, armhf 900: the node's 8-pipeline model
#                        under TCG on a loaded machine)
#   FPGAMR_FUZZ_SEED     seed of the fuzzer (default: random, printed)
#   FPGAMR_QEMU_ACCEL    x86_64 only: tcg (default) or kvm (if /dev/kvm
#                        works; falls back to tcg if the guest does not start)
set -eu

cd "$(dirname "$0")/.."
ARCH=${1:?usage: boottest.sh x86_64|armhf [dtb]}
BUILD=${BUILD:-$PWD/build}
OUT=$BUILD/$ARCH
ROOT=$OUT/initramfs
INITRD=$OUT/initramfs.cpio.gz
LOG=$OUT/boottest.log
X86_REGS=0x1fe00000	# below the top of the x86 guest's 512 MiB
ARM_QEMU="qemu-system-arm -M virt -cpu cortex-a15 -m 3G -smp 2"
NODE_BITS=19		# the node's search: 2^19 values in four batches of
NODE_BATCH=131072	# 2^17 (the 8-pipeline model runs about 1,000 cycles/s)

die() { echo "kernel boottest ($ARCH): $*" >&2; exit 1; }

arm_dtb() {
	dt=$OUT/dt
	mkdir -p "$dt"
	$ARM_QEMU -machine dumpdtb="$dt/virt.dtb" -nographic >/dev/null 2>&1 ||
		die "qemu-system-arm could not dump the virt machine's tree"
	dtc -q -I dtb -O dts -o "$dt/virt.dts" "$dt/virt.dtb"
	printf '/include/ "%s"\n/include/ "%s"\n' "$dt/virt.dts" \
		"$PWD/test/virt-board.dtsi" > "$dt/board.dts"
	dtc -q -@ -I dts -O dtb -o "$dt/board.dtb" "$dt/board.dts"
	dtc -q -@ -I dts -O dtb -o "$dt/fpgamr-md5acc.dtbo" \
		../hdl/dts/fpgamr-md5acc.dtso
	dtc -q -@ -I dts -O dtb -o "$dt/memory-region.dtbo" \
		test/memory-region.dtso
	fdtoverlay -i "$dt/board.dtb" -o "$OUT/node.dtb" \
		"$dt/fpgamr-md5acc.dtbo" "$dt/memory-region.dtbo"
	echo "kernel boottest: device tree $OUT/node.dtb"
}

case $ARCH in
x86_64)
	KVER=${KVER:-$(sh scripts/kver.sh)}
	KERNEL=/boot/vmlinuz-$KVER
	MODDIR=/lib/modules/$KVER
	BUSYBOX=$(command -v busybox || true)
	TIMEOUT=${FPGAMR_BOOT_TIMEOUT:-200}
	;;
armhf)
	[ "${2:-}" = dtb ] && { arm_dtb; exit 0; }
	KVER=${KVER:-$(cat "$OUT/kver")}
	KERNEL=$OUT/root/boot/vmlinuz-$KVER
	MODDIR=$OUT/root/lib/modules/$KVER
	BUSYBOX=$OUT/root/bin/busybox
	TIMEOUT=${FPGAMR_BOOT_TIMEOUT:-900}
	;;
*)
	die "unknown architecture (x86_64 or armhf)"
	;;
esac

[ -r "$KERNEL" ] || die "no $KERNEL"
for f in tree/fpgamr.ko tree/test/fpgamr_sim.ko fpgamr_test; do
	[ -f "$OUT/$f" ] || die "no $OUT/$f (make -C kernel boottest-$ARCH)"
done
[ -n "$BUSYBOX" ] && [ -x "$BUSYBOX" ] || die "no busybox (apt-get install busybox-static)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked' &&
	die "$BUSYBOX is dynamically linked (apt-get install busybox-static)"
UIO=$(find "$MODDIR" -name 'uio.ko*' | head -n 1)
[ -n "$UIO" ] || die "no uio.ko under $MODDIR"

rm -rf "$ROOT"
mkdir -p "$ROOT/bin" "$ROOT/lib/modules" "$ROOT/dev" "$ROOT/proc" \
	"$ROOT/sys" "$ROOT/tmp"
cp "$BUSYBOX" "$ROOT/bin/busybox"
cp test/init.sh "$ROOT/init"
cp test/expect.sh "$ROOT/expect.sh"
chmod 755 "$ROOT/init"
cp "$OUT/tree/fpgamr.ko" "$OUT/tree/test/fpgamr_sim.ko" "$OUT/fpgamr_test" "$ROOT/"
case $UIO in
*.xz) xz -dc "$UIO" > "$ROOT/lib/modules/uio.ko" ;;
*.zst) zstd -qdc "$UIO" > "$ROOT/lib/modules/uio.ko" ;;
*.gz) gzip -dc "$UIO" > "$ROOT/lib/modules/uio.ko" ;;
*) cp "$UIO" "$ROOT/lib/modules/uio.ko" ;;
esac

seed=${FPGAMR_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
APPEND="quiet panic=-1 oops=panic fpgamr_seed=$seed"
if [ "$ARCH" = armhf ]; then
	for f in node-sim node-search native/libfpgamr.so native/fpgamr-doctor node.dtb; do
		[ -f "$OUT/$f" ] || die "no $OUT/$f (make -C kernel boottest-armhf)"
	done
	cp "$OUT/node-sim" "$OUT/node-search" "$OUT/native/fpgamr-doctor" "$ROOT/bin/"
	cp "$OUT/native/libfpgamr.so" "$ROOT/lib/"
	for l in ld-linux-armhf.so.3 libc.so.6 libm.so.6; do
		cp /usr/arm-linux-gnueabihf/lib/$l "$ROOT/lib/"
	done
	# the target: a value of the domain drawn now, given by its digest
	# only; and a digest whose preimage lies outside the domain
	value=$(($(od -An -N4 -tu4 /dev/urandom) % (1 << NODE_BITS)))
	miss=$(((1 << NODE_BITS) + $(od -An -N4 -tu4 /dev/urandom) % (1 << 30)))
	md5() { python3 -c 'import hashlib, sys
print(hashlib.md5(int(sys.argv[1]).to_bytes(4, "big")).hexdigest())' "$1"; }
	target=$(md5 "$value")
	APPEND="$APPEND console=ttyAMA0 fpgamr_bits=$NODE_BITS fpgamr_batch=$NODE_BATCH"
	APPEND="$APPEND fpgamr_target=$target fpgamr_miss=$(md5 "$miss")"
	APPEND="$APPEND fpgamr_value=$(printf %08x "$value")"
	echo "kernel boottest: node target $target (value $(printf %08x "$value")), fuzz seed $seed"
else
	# memmap= keeps the window's page from the kernel ('$': reserved)
	APPEND="$APPEND console=ttyS0 cma=64M memmap=8K\$$X86_REGS fpgamr_regs=$X86_REGS"
	echo "kernel boottest: fuzz seed $seed"
fi
mknod -m 600 "$ROOT/dev/console" c 5 1 2>/dev/null || true
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1) > "$INITRD"

ACCEL=${FPGAMR_QEMU_ACCEL:-tcg}
if [ "$ARCH" = x86_64 ] && [ "$ACCEL" = kvm ] &&
	! { [ -r /dev/kvm ] && [ -w /dev/kvm ]; }; then
	echo "kernel boottest: /dev/kvm not usable, using TCG"
	ACCEL=tcg
fi

boot() {
	if [ "$ARCH" = armhf ]; then
		set -- $ARM_QEMU -dtb "$OUT/node.dtb"
	elif [ "$1" = kvm ]; then
		set -- qemu-system-x86_64 -accel kvm -cpu host -m 512M -smp 2
	else
		set -- qemu-system-x86_64 -accel tcg -m 512M -smp 2
	fi
	timeout --foreground "$TIMEOUT" "$@" -nographic -no-reboot \
		-monitor none -nic none -kernel "$KERNEL" -initrd "$INITRD" \
		-append "$APPEND" </dev/null >"$LOG" 2>&1
}

start=$(date +%s)
rc=0
boot "$ACCEL" || rc=$?
if [ "$ACCEL" = kvm ] && ! grep -q FPGAMR-BOOTTEST-START "$LOG"; then
	echo "kernel boottest: KVM did not start the guest, using TCG"
	ACCEL=tcg
	rc=0
	boot tcg || rc=$?
fi
secs=$(($(date +%s) - start))

tr -d '\r' < "$LOG" > "$LOG.txt"
sed -n '/FPGAMR-BOOTTEST-START/,/FPGAMR-BOOTTEST-END/p' "$LOG.txt"
echo "kernel boottest: $ARCH $KVER under qemu ($ACCEL), ${secs}s"
if [ $rc -eq 124 ]; then
	tail -n 40 "$LOG.txt"
	die "timed out after ${TIMEOUT}s"
fi
grep -q '^FPGAMR-BOOTTEST-END' "$LOG.txt" || {
	tail -n 60 "$LOG.txt"
	die "guest stopped before the end marker (qemu exit $rc)"
}
summary=$(grep '^FPGAMR-BOOTTEST: ' "$LOG.txt" | sed 's/^FPGAMR-BOOTTEST: //')
echo "boottest ($ARCH): $summary"
grep -q '^FPGAMR-BOOTTEST-RESULT: PASS' "$LOG.txt" || die "FAIL"
# the ARM guest's recording of the real module's sysfs and registers: the
# plugin's health-check test reads the committed copy (FPGAMR_RECORD=1
# writes it after a change of the module or the register map)
if [ "$ARCH" = armhf ]; then
	REC=../yarn-fpga-resource/src/test/resources/io/fpgamr/yarn/armhf-guest-sysfs.txt
	sed -n 's/^FPGAMR-SYSFS //p' "$LOG.txt" > "$OUT/sysfs-record.txt"
	[ -s "$OUT/sysfs-record.txt" ] || die "the guest recorded no sysfs"
	[ -z "${FPGAMR_RECORD:-}" ] || cp "$OUT/sysfs-record.txt" "$REC"
	diff -u "$REC" "$OUT/sysfs-record.txt" ||
		die "the module's sysfs and registers differ from $REC (FPGAMR_RECORD=1 rewrites it)"
	echo "kernel boottest ($ARCH): the recorded sysfs matches $REC"
fi
echo "kernel boottest ($ARCH): PASS"
