#!/bin/busybox sh
# /init of the boot-test initramfs: load fpgamr.ko in its configurations,
# run fpgamr_test against each, report on the console and power off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1

P=0
F=0
ok() { P=$((P + 1)); echo "ok - $*"; }
nok() { F=$((F + 1)); echo "not ok - $*"; }
expect() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
expect_fail() { d=$1; shift; if "$@" 2>/dev/null; then nok "$d"; else ok "$d"; fi; }
attr() { cat /sys/class/misc/fpgamr-dma*/device/"$1" 2>/dev/null; }
run_test() {
	rm -f /tmp/fpgamr_counts
	/fpgamr_test "$@"
	set -- $(cat /tmp/fpgamr_counts 2>/dev/null || echo 0 1)
	P=$((P + $1))
	F=$((F + $2))
}

echo "FPGAMR-BOOTTEST-START $(uname -r)"
expect "insmod uio" insmod /lib/modules/uio.ko

# off by default: the driver alone creates no device
expect "insmod fpgamr (defaults)" insmod /fpgamr.ko
run_test none
expect "rmmod fpgamr" rmmod fpgamr

expect_fail "insmod max_buf_bytes=0 is refused" insmod /fpgamr.ko max_buf_bytes=0
expect_fail "insmod coherent=2 is refused" insmod /fpgamr.ko coherent=2

# a design id that is not ours: probe refuses, nothing appears
expect "insmod test device, wrong design id" \
	insmod /fpgamr.ko test_device=1 test_design_id=0x12345678
run_test none
expect "wrong design id is logged" \
	sh -c 'dmesg | grep -q "DESIGN_ID is 0x12345678, not 0x4d443541"'
expect "rmmod fpgamr" rmmod fpgamr

# streaming (non-coherent) test device
expect "insmod test device" insmod /fpgamr.ko test_device=1 max_buf_bytes=8388608
run_test main
rm -f /tmp/hold.ready
/fpgamr_test hold /tmp/hold.ready &
HOLD=$!
i=0
while [ ! -e /tmp/hold.ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect "a holder maps a buffer (file closed)" test -e /tmp/hold.ready
expect "sysfs counts the holder's buffer" test "$(attr buffers_in_use)" = 1
expect_fail "rmmod is refused while a buffer is mapped" rmmod fpgamr
kill -9 $HOLD
wait $HOLD
expect "the killed holder's buffer is freed" test "$(attr buffers_in_use)" = 0
expect "and its bytes" test "$(attr bytes_in_use)" = 0
expect "rmmod fpgamr" rmmod fpgamr

# coherent (ACP) mode
expect "insmod test device coherent=1" insmod /fpgamr.ko test_device=1 coherent=1
run_test coherent
expect "rmmod fpgamr" rmmod fpgamr

# the device disappears while a process holds buffers
expect "insmod test device" insmod /fpgamr.ko test_device=1
run_test unplug
expect "removal with buffers in use is logged" \
	sh -c 'dmesg | grep -q "removed with 2 buffers still mapped or open"'
expect "rmmod fpgamr after the unplug" rmmod fpgamr
expect "rmmod uio" rmmod uio

expect "no BUG, WARNING or Oops in the kernel log" \
	sh -c '! dmesg | grep -E "BUG:|WARNING:|Oops|Call Trace|general protection"'

echo "FPGAMR-BOOTTEST: $P passed, $F failed"
if [ $F -eq 0 ]; then
	echo "FPGAMR-BOOTTEST-RESULT: PASS"
else
	dmesg | tail -n 60
	echo "FPGAMR-BOOTTEST-RESULT: FAIL"
fi
echo "FPGAMR-BOOTTEST-END"
sync
poweroff -f
