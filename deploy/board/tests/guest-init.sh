#!/bin/sh
# The boot test's /init, from the test disk (label fpgamr-test, mounted at /mnt by the command line
# boottest.sh gives): PID 1 on the image's own root, which the image's kernel and initramfs mounted
# read-only. Loads kernel/'s test device (fpgamr_sim.ko, the FPGA side of the bus) and, under
# node-sim (the Verilated RTL serving the register window), the image's DKMS-built fpgamr module
# with the image's modprobe, then runs the image's own fpgamr-doctor: its native layers, one line
# each. Reports on the console and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
T=/mnt
kver=$(sed -n 's/.*fpgamr_kver=\([^ ]*\).*/\1/p' /proc/cmdline)
mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1

. $T/expect.sh

echo "FPGAMR-IMAGE-BOOT-START $(uname -r) $(uname -m)"
expect "the image's kernel runs: $kver" test "$(uname -r)" = "$kver"
root=$(findmnt -no SOURCE /)
expect "the root is the image's partition 3 ($root), label fpgamr-root" \
	test "$(blkid -s LABEL -o value "$root")" = fpgamr-root -a "${root##*[!0-9]}" = 3
expect "the fpgamr module is the image's DKMS build" \
	sh -c "modinfo -n fpgamr | grep -qx '/lib/modules/$kver/updates/dkms/fpgamr.ko'"
expect "insmod the test device (kernel/test/fpgamr_sim.ko)" insmod $T/fpgamr_sim.ko
{ $T/node-sim -- /bin/sh $T/node-doctor.sh; echo $? > /tmp/doctor.rc; } 2>&1 | tee /tmp/doctor.log | sed 's/^/  /'
expect "node-sim and the image's doctor exit 0" test "$(cat /tmp/doctor.rc)" = 0
expect "modprobe fpgamr (the image's modprobe, its depmod) bound the node" \
	test -e /sys/bus/platform/drivers/fpgamr-md5/ff200000.md5acc
expect "doctor: module loaded" grep -q "^ok: module: fpgamr.ko loaded" /tmp/doctor.log
# the board's layers, read from the node model's FPGA manager and reset manager pages
expect "doctor: the FPGA in user mode" grep -q "^ok: fpga: FPGA in user mode" /tmp/doctor.log
expect "doctor: the lightweight bridge out of reset" grep -q "^ok: bridge: lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x00000000)" /tmp/doctor.log
expect "doctor: the FPGA-to-SDRAM port enabled, as wide as the design's bus" grep -q "^ok: port: FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, " /tmp/doctor.log
expect "doctor: the device-tree node" grep -q '^ok: devicetree: node /.*, compatible "fpgamr,md5-accel-1.0"$' /tmp/doctor.log
expect "doctor: the UIO and DMA nodes" grep -q "^ok: device: /dev/uio[0-9]* (fpgamr-md5) and /dev/fpgamr-dma[0-9]*" /tmp/doctor.log
expect "doctor: register map 3" grep -q "^ok: regmap: 3\.[0-9]*, this driver's 3\." /tmp/doctor.log
expect "doctor: the design, from the RTL" grep -q "^ok: design: [1-9][0-9]* pipelines*, " /tmp/doctor.log
expect "doctor: the interrupt delivered" grep -q "^ok: interrupt: " /tmp/doctor.log
expect "doctor: the DMA round trip equals the CPU kernel" \
	grep -q "^ok: dma: 4096 values hashed by the device through its DMA (.*), every digest equal to the CPU kernel's" /tmp/doctor.log
expect "doctor: ten layers, every one ok, none FAIL" \
	test "$(grep -c '^ok: ' /tmp/doctor.log)" = 10 -a "$(grep -c '^FAIL: ' /tmp/doctor.log)" = 0
expect "no BUG, WARNING or Oops in the kernel log" \
	sh -c '! dmesg | grep -E "BUG:|WARNING:|Oops|Call Trace"'

echo "FPGAMR-IMAGE-BOOT: $P passed, $F failed"
if [ $F -eq 0 ]; then
	echo "FPGAMR-IMAGE-BOOT-RESULT: PASS"
else
	dmesg | tail -n 40
	echo "FPGAMR-IMAGE-BOOT-RESULT: FAIL"
fi
echo "FPGAMR-IMAGE-BOOT-END"
echo o > /proc/sysrq-trigger
sleep 60
