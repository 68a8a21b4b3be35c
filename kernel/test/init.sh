#!/bin/busybox sh
# /init of the boot tests' initramfs (test/boottest.sh), on x86-64 and on
# armhf: load fpgamr.ko in its configurations against the device that the
# test module fpgamr_sim.ko serves, run fpgamr_test against each, the fuzzer,
# and on ARM the whole node (node-sim running node-search); report on the
# console and power off.  "/init node-run" is the program node-sim runs.
#
# From the kernel command line (boottest.sh): fpgamr_seed (fuzzer); x86-64:
# fpgamr_regs (the register window memmap= kept); armhf: fpgamr_bits,
# fpgamr_batch, fpgamr_target, fpgamr_miss, fpgamr_value (the node's search).
export PATH=/bin

uio_node() {
	for d in /sys/class/uio/uio*; do
		[ "$(cat "$d/name" 2>/dev/null)" = fpgamr-md5 ] && echo "/dev/${d##*/}"
	done
}
irq_count() { awk '/fpgamr-md5/ { n = $2 } END { print n + 0 }' /proc/interrupts; }

# the program node-sim traces: bind the driver (the device model answers
# its probe), then search as an FPGA map does, holding the device at first.
# A simulated batch takes seconds here, not 5 ms: the driver's wait
# for an interrupt (2 s for a board) is given 10 minutes.
if [ "${1:-}" = node-run ]; then
	insmod /fpgamr.ko || exit 1
	irq_count > /tmp/irq.before
	exec node-search --hold /tmp/held \
		"uio:$(uio_node),timeout_ms=600000,batch=$fpgamr_batch" \
		"$fpgamr_bits" "$fpgamr_target" "$fpgamr_miss"
fi

# the program node-sim traces for the kill test: one hash batch of 2^18
# values into a DMA buffer (seconds of simulated device time), killed
# mid-batch by the test
if [ "${1:-}" = node-hash ]; then
	exec node-search --hash /tmp/hash.started \
		"uio:$(uio_node),timeout_ms=600000" 262144
fi

# the program node-sim traces for the stalled DMA (node-sim --stall-dma):
# one hash batch whose memory never answers; the driver gives it 4 s
if [ "${1:-}" = node-stall ]; then
	exec node-search --hash /tmp/stall.started \
		"uio:$(uio_node),timeout_ms=4000" 4096
fi

# the program node-sim traces for the failing DMA (node-sim --refuse-dst):
# one hash batch whose digests' memory answers DECERR
if [ "${1:-}" = node-derr ]; then
	exec node-search --hash /tmp/derr.started "uio:$(uio_node)" 4096
fi

# the program node-sim traces for the jammed device (issue 39): a job that
# jams the device on purpose (fpgamr_test jam), SIGKILLed by the test once
# its ring is full; the device's state when it is dead; then the next job on
# the same device (the same RTL: one node-sim), a search of the 2^12 values
# for the MD5 of 0x00000abc (a few seconds of the model's time)
if [ "${1:-}" = node-jam ]; then
	/fpgamr_test jam /tmp/jam.full &
	echo $! > /tmp/jam.pid
	wait $!
	echo "node-jam: the jammer's exit status $?"
	cat /sys/class/misc/fpgamr-dma*/device/state > /tmp/jam.state
	exec node-search "uio:$(uio_node),timeout_ms=600000" 12 \
		4f41bccf90f3b3e5b1f0be33b50eb855
fi

# the program node-sim traces for the doctor (jni-fpga/native/tools): every
# layer of the node's accelerator, the DMA round trip on 4096 values (a
# simulated batch of 2^18 would take minutes here)
if [ "${1:-}" = node-doctor ]; then
	exec fpgamr-doctor --device "uio:$(uio_node),timeout_ms=120000" --values 4096
fi

/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1

. /expect.sh
expect_fail() { d=$1; shift; if "$@" 2>/dev/null; then nok "$d"; else ok "$d"; fi; }
attr() { cat /sys/class/misc/fpgamr-dma*/device/"$1" 2>/dev/null; }
logged() { dmesg | grep -q "$1"; }
# a node-search's output in LOG: exactly one preimage, DIGEST's, of HEX;
# exactly VALUES values searched in BATCHES batches
expect_found() {
	expect "the search finds exactly one preimage" \
		test "$(grep -c ':\$HEX\[' "$1")" = 1
	expect "it is the target's: $2:\$HEX[$3]" grep -qx "$2:\\\$HEX\\[$3\\]" "$1"
	expect "values searched: exactly $4, in $5 batches" \
		grep -q "^node-search: values $4 of $4, batches $5," "$1"
}
run_test() {
	rm -f /tmp/fpgamr_counts
	/fpgamr_test "$@"
	set -- $(cat /tmp/fpgamr_counts 2>/dev/null || echo 0 1)
	P=$((P + $1))
	F=$((F + $2))
}

# x86-64 has no device tree: fpgamr_sim.ko adds the device (regs=); on ARM
# the device tree has it, and fpgamr.ko probes it as soon as it loads
if [ -d /sys/firmware/devicetree/base ]; then
	DT=1
	SIM=
else
	DT=
	SIM="regs=$fpgamr_regs"
fi

echo "FPGAMR-BOOTTEST-START $(uname -r) $(uname -m)"
expect "insmod uio" insmod /lib/modules/uio.ko

# no bitstream: the window holds no design, the driver creates nothing
expect "insmod fpgamr (no accelerator)" insmod /fpgamr.ko
run_test none
# (on ARM the FPGA manager's page reads 0 until fpgamr_sim.ko writes it:
# the FPGA powered off, so the probe refuses before any register read)
[ -n "$DT" ] && expect "the device-tree probe of an FPGA not in user mode is refused and logged" \
	logged "FPGA not in user mode: powered off (FPGA manager stat 0x00000000, mode 0, msel 0x00)"
expect "rmmod fpgamr" rmmod fpgamr

expect_fail "insmod max_buf_bytes=0 is refused" insmod /fpgamr.ko max_buf_bytes=0
expect_fail "insmod coherent=2 is refused" insmod /fpgamr.ko coherent=2
expect_fail "insmod max_dev_bytes=0 is refused" insmod /fpgamr.ko max_dev_bytes=0
expect_fail "insmod max_user_bytes=0 is refused" insmod /fpgamr.ko max_user_bytes=0

# a design id that is not ours: probe refuses, nothing appears
expect "insmod fpgamr_sim, wrong design id" \
	insmod /fpgamr_sim.ko $SIM design_id=0x12345678
expect "insmod fpgamr" insmod /fpgamr.ko
run_test none
expect "wrong design id is logged" logged "DESIGN_ID is 0x12345678, not 0x4d443541"
expect "rmmod fpgamr" rmmod fpgamr
expect "rmmod fpgamr_sim" rmmod fpgamr_sim

# streaming (non-coherent) DMA
expect "insmod fpgamr_sim" insmod /fpgamr_sim.ko $SIM
expect "insmod fpgamr" insmod /fpgamr.ko max_buf_bytes=8388608
if [ -n "$DT" ]; then
	expect "fpgamr.ko bound to the device-tree node" \
		test -e /sys/bus/platform/drivers/fpgamr-md5/ff200000.md5acc
	expect "with the node's memory-region" \
		logged "assigned reserved memory node fpgamr-cma@50000000"
fi
run_test main
expect "API 2's ALLOC is refused with one kernel line" \
	logged "ALLOC of fpgamr API 2 refused (ENOTTY) from fpgamr_test\[[0-9]*\]: this driver speaks API 3, which gives user space no bus address; rebuild the caller against its <linux/fpgamr.h>"

# the FPGA-to-SDRAM port, read before each job: fpgamr_sim.ko writes the
# SDRAM controller's and system manager's registers (the fixtures of
# test/port_state.c); a job on a port that could not carry its DMA is
# refused (ENOLINK) and logged, and the unmodified user-space driver says
# what the port is in one line
if [ -n "$DT" ]; then
	port=/sys/module/fpgamr_sim/parameters/fpga2sdram
	enabled="FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, up to 256 bits)"
	reset="FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x000003ff: 2 command, 4 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete"
	unconf="FPGA-to-SDRAM port not configured (handoff 0x00000000, fpgaportrst 0x00000000): the bootloader's SPL was not built from this design's handoff; DMA cannot complete"
	narrow="FPGA-to-SDRAM port 64 bits wide, the design's bus 256 bits (fpgaportrst 0x00003fff, handoff 0x00000311, cportwidth 0x00000000): the bootloader's SPL was built from another design's handoff; build it from this design's; DMA cannot complete"
	expect "the probe read the port: enabled" logged "$enabled"
	expect "sysfs fpga2sdram says so" test "$(attr fpga2sdram)" = "$enabled"
	for state in reset unconf narrow; do
		eval line=\$$state
		echo "$state" | sed 's/unconf/unconfigured/' > "$port"
		expect "port $state: sysfs fpga2sdram reads the registers again" \
			test "$(attr fpga2sdram)" = "$line"
		node-search "uio:$(uio_node)" 18 "$fpgamr_target" > /tmp/port.out 2>&1
		expect "port $state: the search fails (exit 1)" test $? = 1
		expect "... its one line naming the port" \
			grep -qxF "node-search: uio: the kernel refused the job: $line (see hdl/README.md, On a DE10-Nano)" /tmp/port.out
		expect "... and the kernel's" logged "job refused: $line"
	done
	# the port in reset: the bare doctor finds the bound accelerator and
	# fails on the port's line, its DMA layer not tried (fpgamr_sim.ko's
	# window says no clock, so the design layer fails too)
	echo reset > "$port"
	fpgamr-doctor > /tmp/port.out 2>&1
	expect "port reset: the bare doctor exits 1" test $? = 1
	expect "... on the port's line" \
		grep -qxF "FAIL: port: $reset (hdl/README.md, On a DE10-Nano)" /tmp/port.out
	expect "... the DMA layer not tried" grep -q "^skip: dma: not checked: " /tmp/port.out
	sed 's/^/  /' /tmp/port.out
	echo enabled > "$port"
	expect "port enabled again" test "$(attr fpga2sdram)" = "$enabled"

	# the FPGA and its lightweight bridge, read before the probe reads a
	# register: fpgamr_sim.ko writes the FPGA manager's stat and the reset
	# manager's brgmodrst (test/port_state.c's fixtures); the probe refuses
	# the node in one line, the driver's sysfs gives the same line bound or
	# not, and the bare doctor fails on it
	drv=/sys/bus/platform/drivers/fpgamr-md5
	hps=/sys/module/fpgamr_sim/parameters/hps
	user="FPGA in user mode (FPGA manager stat 0x00000054, msel 0x0a)"
	lwout="lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x00000000)"
	unprog="FPGA not in user mode: in its configuration phase (FPGA manager stat 0x00000052, mode 2, msel 0x0a): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)"
	lwreset="lightweight HPS-to-FPGA bridge in reset (brgmodrst 0x00000007): the accelerator's registers cannot be read; release it after loading the .rbf (U-Boot's 'bridge enable', hdl/README.md, On a DE10-Nano)"
	expect "the driver's fpga_manager: user mode" test "$(cat $drv/fpga_manager)" = "$user"
	expect "... lw_bridge: out of reset" test "$(cat $drv/lw_bridge)" = "$lwout"
	expect "... fpga2sdram: the port" test "$(cat $drv/fpga2sdram)" = "$enabled"
	expect "rmmod fpgamr" rmmod fpgamr
	for state in unprogrammed bridge-reset; do
		if [ $state = unprogrammed ]; then
			line=$unprog layer=fpga file=fpga_manager
		else
			line=$lwreset layer=bridge file=lw_bridge
		fi
		echo $state > "$hps"
		expect "$state: insmod fpgamr" insmod /fpgamr.ko
		expect "... the probe refuses the node" test ! -e $drv/ff200000.md5acc
		expect "... in one line" logged "fpgamr-md5 ff200000.md5acc: $line"
		expect "... the driver's $file says it" test "$(cat $drv/$file)" = "$line"
		fpgamr-doctor > /tmp/hps.out 2>&1
		expect "... the bare doctor exits 1" test $? = 1
		expect "... on that line" grep -qxF "FAIL: $layer: $line" /tmp/hps.out
		expect "... the node's device not checked" grep -qxF \
			"skip: device: not checked: fpgamr.ko does not bind the accelerator while the FPGA or its bridge is not ready" /tmp/hps.out
		expect "rmmod fpgamr" rmmod fpgamr
	done
	echo ready > "$hps"
	expect "FPGA ready again: insmod fpgamr" insmod /fpgamr.ko max_buf_bytes=8388608
	expect "... the probe binds the node" test -e $drv/ff200000.md5acc
fi

# one container, one device: the devices cgroup (v1) as YARN's devices
# module sets it up for a container (container-executor denies the devices
# of the plugin it was not given, "c MAJOR:MINOR rwm"), with the
# accelerator's DMA node among them beside its UIO node. A container given
# the accelerator opens both; one given none is refused both (EPERM).
# Budget: under a second of the guest's time.
maj_min() { cat "$1/dev"; }
uio_sys=/sys/class/uio/$(basename "$(uio_node)")
dma_sys=/sys/class/misc/$(attr dma_dev)
mkdir -p /sys/fs/cgroup && mount -t tmpfs cgroup /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/devices &&
	mount -t cgroup -o devices devices /sys/fs/cgroup/devices
expect "a devices cgroup (v1) hierarchy" test -e /sys/fs/cgroup/devices/devices.deny
G=/sys/fs/cgroup/devices/granted
N=/sys/fs/cgroup/devices/none
mkdir "$G" "$N"
for node in "$uio_sys" "$dma_sys"; do
	echo "c $(maj_min "$node") rwm" > "$N/devices.deny"
done
in_cgroup() { sh -c 'echo $$ > "$1/tasks" && shift && exec "$@"' sh "$@"; }
expect "the granted container opens the UIO node, then the DMA node" \
	in_cgroup "$G" /fpgamr_test open "$(uio_node)" "/dev/$(attr dma_dev)"
expect_fail "the other container is refused the UIO node" in_cgroup "$N" /fpgamr_test open "$(uio_node)"
expect_fail "... and the DMA node" in_cgroup "$N" /fpgamr_test open "/dev/$(attr dma_dev)"
expect "refused with EPERM" sh -c 'echo $$ > '"$N"'/tasks; /fpgamr_test open /dev/'"$(attr dma_dev)"' | grep -q EPERM'
# and where YARN's framework denies only the UIO node (the one node it
# knows per device), the driver denies the DMA node with it
echo "c $(maj_min "$uio_sys") rwm" > "$N/devices.allow"
echo "c $(maj_min "$dma_sys") rwm" > "$N/devices.allow"
echo "c $(maj_min "$uio_sys") rwm" > "$N/devices.deny"
expect_fail "a container denied only the UIO node cannot open the DMA node" \
	in_cgroup "$N" /fpgamr_test open "/dev/$(attr dma_dev)"
expect "refused by the driver with EACCES" sh -c 'echo $$ > '"$N"'/tasks; /fpgamr_test open /dev/'"$(attr dma_dev)"' | grep -q EACCES'
rmdir "$G" "$N"
umount /sys/fs/cgroup/devices
umount /sys/fs/cgroup

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
expect "insmod fpgamr coherent=1" insmod /fpgamr.ko coherent=1
run_test coherent
expect "rmmod fpgamr" rmmod fpgamr

# the DMA memory caps: per user (EDQUOT) and per device (ENOSPC)
expect "insmod fpgamr max_dev_bytes=1 MiB max_user_bytes=512 KiB" \
	insmod /fpgamr.ko max_dev_bytes=1048576 max_user_bytes=524288
run_test caps
expect "rmmod fpgamr" rmmod fpgamr

# hostile user space
expect "insmod fpgamr" insmod /fpgamr.ko max_buf_bytes=8388608
run_test fuzz 6000 "$fpgamr_seed"
expect "after the fuzz: buffers_in_use 0" test "$(attr buffers_in_use)" = 0
expect "after the fuzz: bytes_in_use 0" test "$(attr bytes_in_use)" = 0
expect "rmmod fpgamr" rmmod fpgamr

# the whole node: device tree -> fpgamr.ko -> /dev/uioN + /dev/fpgamr-dmaK
# -> the unmodified user-space driver (libfpgamr.so) -> the Verilated RTL
if [ -n "$DT" ]; then
	batches=$(((1 << fpgamr_bits) / fpgamr_batch))
	rm -f /tmp/held
	node-sim -- /init node-run > /tmp/node.log 2>&1 &
	NODE=$!
	i=0
	while [ ! -e /tmp/held ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	expect "the search opened the accelerator" test -e /tmp/held
	node-search "uio:$(uio_node)" "$fpgamr_bits" "$fpgamr_target" \
		> /tmp/second.out 2>&1
	expect "a second opener of the held device fails (exit 1)" test $? = 1
	expect "... saying it is busy" grep -q "device busy" /tmp/second.out
	fpgamr-doctor --device "uio:$(uio_node)" > /tmp/busy.out 2>&1
	expect "the doctor on the held device exits 0" test $? = 0
	expect "... saying it is held by node-search, not failing" \
		grep -q "^busy: regmap: held by process [0-9]* (node-search), a running job: not a failure" /tmp/busy.out
	rm -f /tmp/held
	wait $NODE
	expect "node-sim and the search exit 0" test $? = 0
	sed 's/^/  /' /tmp/node.log
	expect_found /tmp/node.log "$fpgamr_target" "$fpgamr_value" $((1 << fpgamr_bits)) $batches
	expect "the RTL ran $batches jobs, none in error" \
		grep -q "^node-sim: jobs started $batches, done $batches, in error 0;" /tmp/node.log
	expect "no AXI protocol error, no job memory refused" \
		grep -q "AXI protocol errors 0; job memory refused 0$" /tmp/node.log
	expect "$batches interrupts raised, $batches read from the uio device" \
		grep -q "^node-sim: interrupts raised $batches (again at an unmask 0); interrupts read from /dev/uio[0-9]* $batches," /tmp/node.log
	expect "the kernel took $batches interrupts on the line" \
		test "$(($(irq_count) - $(cat /tmp/irq.before 2>/dev/null || echo 0)))" = "$batches"
	# the real module's view of the node's device, recorded for the
	# plugin's health-check test (boottest.sh compares it with the copy in
	# yarn-fpga-resource's test resources): sysfs as the module wrote it and
	# the identity registers the RTL answers
	u=/sys/class/uio/$(basename "$(uio_node)")
	echo "FPGAMR-SYSFS platform=$(basename "$(readlink -f "$u/device")")"
	for f in name dev maps/map0/name maps/map0/size; do
		echo "FPGAMR-SYSFS uio/$f=$(cat "$u/$f")"
	done
	for f in design_id regmap_version coherent uio_dev dma_dev state; do
		echo "FPGAMR-SYSFS device/$f=$(cat "$u/device/$f")"
	done
	/fpgamr_test regs
	expect "one SYNC_FOR_DEVICE per batch, SYNC_FOR_CPU for the hit, one SUBMIT per batch" \
		grep -q "SYNC_FOR_DEVICE $batches, SYNC_FOR_CPU [1-9][0-9]*, SUBMIT $batches, ABORT 0$" /tmp/node.log
	expect "the kernel started the $batches jobs on the kernel page, none aborted" \
		grep -q "^node-sim: kernel page: START $batches, ABORT 0; jobs aborted 0;" /tmp/node.log

	# a container killed mid-batch: the hash batch's process gets SIGKILL
	# while the RTL writes its digests; the kernel aborts the job and waits
	# for the device before the pages go back (about 20 s of the guest's
	# time budget: the model and the abort under TCG)
	rm -f /tmp/hash.started
	node-sim -- /init node-hash > /tmp/hash.log 2>&1 &
	NODE=$!
	i=0
	while ! grep -q "^node-sim: job 1 started (hash, 262144 values)" /tmp/hash.log && [ $i -lt 1200 ]; do
		sleep 0.1; i=$((i + 1))
	done
	expect "the hash batch started on the RTL" grep -q "job 1 started (hash" /tmp/hash.log
	kill -9 $(pidof node-search)
	wait $NODE
	expect "node-sim reports the program killed (exit 137)" test $? = 137
	sed 's/^/  /' /tmp/hash.log
	expect "the kernel aborted the running job on the kernel page" \
		grep -q "^node-sim: kernel page: START 1, ABORT 1; jobs aborted 1; AXI write beats [1-9]" /tmp/hash.log
	expect "no DMA memory freed while the RTL ran, no write after it" \
		grep -q "DMA memory freed while the device ran 0, AXI write beats after it 0$" /tmp/hash.log
	expect "the killed process's buffers are back" test "$(attr buffers_in_use)" = 0

	# a job that jams the device (issue 39): an all-ones filter (every
	# word of both arrays, the design's FILTER_IDX_BITS: every value hits),
	# a ring of 2 records, never a MATCH_ACK; SIGKILLed while the device
	# waits on its full ring, the kernel's ABORT (register map 3.1: it drops the pending
	# hits) brings the device back to idle, and the next job on it finds
	# exactly its own preimage (a 3.0 design stayed busy: the kernel's stop
	# timed out, the device wedged and the next job got EIO)
	rm -f /tmp/jam.full /tmp/jam.pid /tmp/jam.state
	node-sim -- /init node-jam > /tmp/jam.log 2>&1 &
	NODE=$!
	i=0
	# up to 10 min: the filter's 1,026 trapped stores took 0.2 s each at a
	# load average of 20
	while [ ! -e /tmp/jam.full ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i + 1)); done
	expect "the jammer's ring is full and the device waits (BUSY, MATCH_FULL, 2 records, none acknowledged)" \
		grep -qx "STATUS 0x11 MATCH_COUNT 2 MATCH_ACK 0" /tmp/jam.full
	expect "... sysfs state: running" test "$(attr state)" = running
	kill -9 "$(cat /tmp/jam.pid)"
	# the state once the jammer is dead, checked before node-sim ends: a
	# device that stays jammed (a 3.0 design) makes node-sim fail on it
	i=0
	while [ ! -s /tmp/jam.state ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	expect "once it was dead the device was idle (sysfs state: $(cat /tmp/jam.state 2>/dev/null))" \
		test "$(cat /tmp/jam.state 2>/dev/null)" = idle
	wait $NODE
	expect "node-sim and the next job exit 0" test $? = 0
	sed 's/^/  /' /tmp/jam.log
	expect "the jammer was SIGKILLed" grep -qx "node-jam: the jammer's exit status 137" /tmp/jam.log
	expect_found /tmp/jam.log 4f41bccf90f3b3e5b1f0be33b50eb855 00000abc 4096 1
	expect "the RTL ran the two jobs, none in error" \
		grep -q "^node-sim: jobs started 2, done 2, in error 0;" /tmp/jam.log
	expect "the kernel aborted the jammed one; no memory freed under the device" \
		grep -q "^node-sim: kernel page: START 2, ABORT 1; jobs aborted 1;.* DMA memory freed while the device ran 0, AXI write beats after it 0$" /tmp/jam.log
	expect "the device is idle, its buffers back" \
		test "$(attr state)" = idle -a "$(attr buffers_in_use)" = 0

	# the doctor on the node: the real module, device tree, nodes, the RTL's
	# registers, its interrupt and a DMA round trip (fpgamr-doctor's lines)
	# (after the killed batch: the line is still masked by its unacknowledged
	# interrupt, which the doctor unmasks)
	{ node-sim -- /init node-doctor; echo $? > /tmp/doctor.rc; } 2>&1 | tee /tmp/doctor.log | sed 's/^/  /'
	expect "node-sim and the doctor exit 0" test "$(cat /tmp/doctor.rc)" = 0
	expect "doctor: module loaded" grep -q "^ok: module: fpgamr.ko loaded" /tmp/doctor.log
	expect "doctor: the overlay's node" \
		grep -q "^ok: devicetree: node /.*, compatible \"fpgamr,md5-accel-1.0\"$" /tmp/doctor.log
	expect "doctor: the UIO and DMA nodes" \
		grep -qx "ok: device: $(uio_node) (fpgamr-md5) and /dev/$(attr dma_dev): read/write for this user, paired (FPGAMR_IOC_INFO)" /tmp/doctor.log
	expect "doctor: register map 3" grep -q "^ok: regmap: 3\.[0-9]*, this driver's 3\." /tmp/doctor.log
	expect "doctor: the design, from the RTL" \
		grep -q "^ok: design: [1-9][0-9]* pipelines*, [0-9]*-bit bus, [0-9.]* MHz clock, messages of 1..8 bytes (DESIGN_PARAMS $(/fpgamr_test regs | sed -n 's,^FPGAMR-SYSFS reg/DESIGN_PARAMS=,,p'))$" /tmp/doctor.log
	expect "doctor: the interrupt delivered" grep -q "^ok: interrupt: a 64-value search job ended by its interrupt" /tmp/doctor.log
	expect "doctor: the DMA round trip equals the CPU kernel (neon)" \
		grep -q "^ok: dma: 4096 values hashed by the device through its DMA (.*), every digest equal to the CPU kernel's (neon)$" /tmp/doctor.log
	expect "doctor: the FPGA, its bridge and the port, as the module reads them" \
		grep -qxF "ok: port: $enabled" /tmp/doctor.log
	expect "doctor: ten layers (a Cyclone V's), every one ok" test "$(grep -c '^ok: ' /tmp/doctor.log)" = 10
	# a DMA that never completes: the memory answers no handshake until
	# the kernel's ABORT; the driver's line names the path to memory as
	# found (the port enabled, this machine has no FPGA bridges)
	node-sim --stall-dma -- /init node-stall > /tmp/stall.log 2>&1
	expect "the stalled batch fails (exit 1)" test $? = 1
	sed 's/^/  /' /tmp/stall.log
	expect "... in one line naming the port and the bridges as found" \
		grep -qx "node-search: uio: no interrupt within 4000 ms (status 0x[0-9a-f]*); job aborted: $enabled, no FPGA bridges in sysfs (no /sys/class/fpga_bridge): the design did not answer" /tmp/stall.log
	expect "the kernel aborted it, no memory freed under the device" \
		grep -q "^node-sim: kernel page: START 1, ABORT [1-9][0-9]*; jobs aborted 1;.* DMA memory freed while the device ran 0, AXI write beats after it 0$" /tmp/stall.log
	expect "its buffers are back" test "$(attr buffers_in_use)" = 0

	# a DMA that fails (issue 39, register map 3.2): the RTL's digest
	# writes get DECERR; the driver's line names the error but no bus
	# address (ERR_ADDR is on the kernel page, the user page's 0x068 reads
	# 0), the kernel logs it when it retires the job
	node-sim --refuse-dst -- /init node-derr > /tmp/derr.log 2>&1
	expect "the refused batch fails (exit 1)" test $? = 1
	sed 's/^/  /' /tmp/derr.log
	expect "... in one line with no bus address" \
		grep -qx "node-search: uio: device error 2 (write response error) (its bus address: in the kernel's log, from fpgamr.ko) after [0-9]* values" /tmp/derr.log
	expect "the kernel logged the failing burst's bus address" \
		logged "job [0-9]* ended in DMA error 2 at bus address 0x[0-9a-f]*[1-9a-f]"
	expect "its buffers are back" test "$(attr buffers_in_use)" = 0

	node=$(uio_node)
	expect "rmmod fpgamr" rmmod fpgamr
	fpgamr-doctor --device "uio:$node" > /tmp/nomod.out 2>&1
	expect "the doctor without the module exits 1" test $? = 1
	expect "... its module line failing" \
		grep -q "^FAIL: module: fpgamr.ko is not loaded (no /sys/module/fpgamr): load it with 'modprobe fpgamr'" /tmp/nomod.out
	expect "the node's buffers are back" \
		sh -c '! dmesg | grep -q "removed with .* buffers"'
fi

# the device disappears while a process holds buffers
expect "insmod fpgamr" insmod /fpgamr.ko
run_test unplug
expect "removal with buffers in use is logged" \
	logged "removed with 2 buffers still mapped or open"
expect "rmmod fpgamr after the unplug" rmmod fpgamr
expect "rmmod fpgamr_sim" rmmod fpgamr_sim
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
