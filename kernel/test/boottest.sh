#!/bin/sh
# Boot Debian's linux-image-amd64 kernel in QEMU with an initramfs holding
# busybox, uio.ko, fpgamr.ko and fpgamr_test, and read the verdict from the
# guest's serial console.  TCG by default: the whole guest run takes under
# ten seconds, and KVM inside nested build machines has been seen to hang or
# abort (MSR 0x10a); FPGAMR_QEMU_ACCEL=kvm opts in where /dev/kvm works.
#
#   KVER    kernel version (default: scripts/kver.sh)
#   BUILD   build directory with mod/fpgamr.ko and fpgamr_test
#   FPGAMR_BOOT_TIMEOUT  seconds before the guest counts as hung (200)
#   FPGAMR_QEMU_ACCEL    tcg (default) or kvm (only if /dev/kvm exists;
#                        falls back to tcg if the guest does not start)
set -eu

cd "$(dirname "$0")/.."
KVER=${KVER:-$(sh scripts/kver.sh)}
BUILD=${BUILD:-$PWD/build}
TIMEOUT=${FPGAMR_BOOT_TIMEOUT:-200}
KERNEL=/boot/vmlinuz-$KVER
MODDIR=/lib/modules/$KVER
ROOT=$BUILD/initramfs
INITRD=$BUILD/initramfs.cpio.gz
LOG=$BUILD/boottest.log

die() { echo "kernel boottest: $*" >&2; exit 1; }

[ -r "$KERNEL" ] || die "no $KERNEL (apt-get install linux-image-amd64)"
[ -f "$BUILD/mod/fpgamr.ko" ] || die "no $BUILD/mod/fpgamr.ko (make module)"
[ -x "$BUILD/fpgamr_test" ] || die "no $BUILD/fpgamr_test (make test-prog)"
BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] || die "no busybox (apt-get install busybox-static)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked' &&
	die "$BUSYBOX is dynamically linked (apt-get install busybox-static)"
UIO=$(find "$MODDIR" -name 'uio.ko*' | head -n 1)
[ -n "$UIO" ] || die "no uio.ko under $MODDIR"

rm -rf "$ROOT"
mkdir -p "$ROOT/bin" "$ROOT/lib/modules" "$ROOT/dev" "$ROOT/proc" \
	"$ROOT/sys" "$ROOT/tmp"
cp "$BUSYBOX" "$ROOT/bin/busybox"
cp test/init.sh "$ROOT/init"
chmod 755 "$ROOT/init"
cp "$BUILD/mod/fpgamr.ko" "$BUILD/fpgamr_test" "$ROOT/"
case $UIO in
*.xz) xz -dc "$UIO" > "$ROOT/lib/modules/uio.ko" ;;
*.zst) zstd -qdc "$UIO" > "$ROOT/lib/modules/uio.ko" ;;
*.gz) gzip -dc "$UIO" > "$ROOT/lib/modules/uio.ko" ;;
*) cp "$UIO" "$ROOT/lib/modules/uio.ko" ;;
esac
mknod -m 600 "$ROOT/dev/console" c 5 1 2>/dev/null || true
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1) > "$INITRD"

ACCEL=${FPGAMR_QEMU_ACCEL:-tcg}
if [ "$ACCEL" = kvm ] && ! { [ -r /dev/kvm ] && [ -w /dev/kvm ]; }; then
	echo "kernel boottest: /dev/kvm not usable, using TCG"
	ACCEL=tcg
fi

boot() {
	case $1 in
	kvm) set -- -accel kvm -cpu host ;;
	*) set -- -accel tcg ;;
	esac
	timeout --foreground "$TIMEOUT" qemu-system-x86_64 "$@" \
		-m 512M -smp 1 -nographic -no-reboot -monitor none -nic none \
		-kernel "$KERNEL" -initrd "$INITRD" \
		-append "console=ttyS0 quiet panic=-1 oops=panic cma=64M" \
		</dev/null >"$LOG" 2>&1
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
echo "kernel boottest: $KVER under qemu ($ACCEL), ${secs}s"
if [ $rc -eq 124 ]; then
	tail -n 40 "$LOG.txt"
	die "timed out after ${TIMEOUT}s"
fi
grep -q '^FPGAMR-BOOTTEST-END' "$LOG.txt" || {
	tail -n 60 "$LOG.txt"
	die "guest stopped before the end marker (qemu exit $rc)"
}
summary=$(grep '^FPGAMR-BOOTTEST: ' "$LOG.txt" | sed 's/^FPGAMR-BOOTTEST: //')
echo "boottest: $summary"
grep -q '^FPGAMR-BOOTTEST-RESULT: PASS' "$LOG.txt" || die "FAIL"
echo "kernel boottest: PASS"
