#!/bin/bash
# test_doctor.sh BUILD_DIR: fpgamr-doctor against the simulated device (BUILD_DIR/libfpgamr-vsim-p4.so),
# one layer broken at a time through the device's injected faults (fpgamr_vsim.h: regmap=, irq_lost,
# dma_stall) and a sysfs root without the module; each case checks the doctor's lines and exit code.
# About 10 s here (the two timeouts are 1 s each).
set -u
B=$(cd "$1" && pwd)
DOCTOR=$B/fpgamr-doctor
T=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$T"' EXIT
export FPGAMR_VSIM_DIR=$B TMPDIR=$T
fails=0
n=0

# run NAME EXPECTED_EXIT ARGS...: the doctor's output in $T/NAME.out
run() {
    local name=$1 want=$2
    shift 2
    "$DOCTOR" "$@" > "$T/$name.out" 2> "$T/$name.err"
    local rc=$?
    n=$((n + 1))
    if [ "$rc" != "$want" ]; then
        echo "FAILED $name: exit $rc, want $want"
        cat "$T/$name.out" "$T/$name.err"
        fails=$((fails + 1))
    fi
}
# has NAME LINE: the output has exactly this line
has() {
    if ! grep -qxF -- "$2" "$T/$1.out"; then
        echo "FAILED $1: no line '$2' in:"
        cat "$T/$1.out"
        fails=$((fails + 1))
    fi
}
# starts NAME PREFIX: a line starts so
starts() {
    if ! grep -q "^$(printf '%s' "$2" | sed 's/[][\.*^$/]/\\&/g')" "$T/$1.out"; then
        echo "FAILED $1: no line starting '$2' in:"
        cat "$T/$1.out"
        fails=$((fails + 1))
    fi
}
# lines NAME N: exactly N lines (one per layer)
lines() {
    local got
    got=$(wc -l < "$T/$1.out")
    if [ "$got" != "$2" ]; then
        echo "FAILED $1: $got lines, want $2"
        fails=$((fails + 1))
    fi
}

# a healthy simulated device: every layer ok or n/a
run healthy 0 --device vsim:pipelines=4 --values 4096
lines healthy 7
has healthy "n/a: module: a simulated device (vsim) has no kernel module"
has healthy "n/a: devicetree: a simulated device has no device tree node"
has healthy "n/a: device: a simulated device (the Verilated design, 4 pipelines) has no device nodes"
has healthy "ok: regmap: 3.0, this driver's 3.0 (DESIGN_ID \"MD5A\")"
starts healthy "ok: design: 4 pipelines, 256-bit bus, 85 MHz clock, messages of 1..8 bytes (DESIGN_PARAMS 0x"
starts healthy "ok: interrupt: a 64-value search job ended by its interrupt after "
starts healthy "ok: dma: 4096 values hashed by the device through its DMA ("
grep -q "^ok: dma: .*every digest equal to the CPU kernel's (.*)$" "$T/healthy.out" || { echo "FAILED healthy: dma line"; fails=$((fails + 1)); }

# a design of another register map
run regmap 1 --device vsim:pipelines=4,regmap=2.7 --values 4096
lines regmap 7
has regmap "FAIL: regmap: the device's register map is 2.7, this driver's is 3.0: the design and the software come from different releases; load the design built with this release (hdl/), or install the software of the design's"
has regmap "skip: design: not checked: the register map fails"
has regmap "skip: dma: not checked: the register map fails"

# the interrupt never reaches the host: that layer fails, the DMA round trip is polled and passes
run irq 1 --device vsim:pipelines=4,fault=irq_lost@1,timeout_ms=1000 --values 4096
lines irq 7
has irq "FAIL: interrupt: the device finished a 64-value search (STATUS.DONE) but no interrupt reached this process in 1000 ms: the interrupt is not delivered (the node's 'interrupts' in the device tree, the FPGA-to-HPS IRQ; see /proc/interrupts)"
grep -q "^ok: dma: 4096 values hashed .*; its end polled, the interrupt failing$" "$T/irq.out" || { echo "FAILED irq: dma line"; cat "$T/irq.out"; fails=$((fails + 1)); }

# the memory answers nothing: the interrupt (a search without hits moves no data) passes, DMA fails
run stall 1 --device vsim:pipelines=4,fault=dma_stall@1,timeout_ms=1000 --values 4096
lines stall 7
starts stall "ok: interrupt: a 64-value search job ended by its interrupt"
starts stall "FAIL: dma: a 4096-value hash job did not end in 1000 ms (STATUS 0x00000001, "
grep -q "digests written): the device's DMA does not get through to memory: a simulated device has no FPGA-to-SDRAM port or bridges to read: the design or its memory did not answer$" "$T/stall.out" || { echo "FAILED stall: what was found"; fails=$((fails + 1)); }

# the board without the module: a sysfs root holding the overlay's node only
mkdir -p "$T/root/sys/firmware/devicetree/base/soc/md5acc@ff200000"
printf 'fpgamr,md5-accel-1.0\0' > "$T/root/sys/firmware/devicetree/base/soc/md5acc@ff200000/compatible"
printf 'okay\0' > "$T/root/sys/firmware/devicetree/base/soc/md5acc@ff200000/status"
run nomodule 1 --device uio:/dev/uio0 --sysfs-root "$T/root"
lines nomodule 7
has nomodule "FAIL: module: fpgamr.ko is not loaded (no $T/root/sys/module/fpgamr): load it with 'modprobe fpgamr' (kernel/README.md, \"Load it on a node\")"
has nomodule "ok: devicetree: node /soc/md5acc@ff200000, compatible \"fpgamr,md5-accel-1.0\""
has nomodule "skip: device: not checked: the module is not loaded"
has nomodule "skip: interrupt: not checked: the module is not loaded"
# ... and a device tree without the node
rm -r "$T/root/sys/firmware/devicetree/base/soc/md5acc@ff200000"
mkdir -p "$T/root/sys/module/fpgamr"
echo live > "$T/root/sys/module/fpgamr/initstate"
echo 0123456789ABCDEF0123456 > "$T/root/sys/module/fpgamr/srcversion"
run nonode 1 --device uio:/dev/uio0 --sysfs-root "$T/root"
has nonode "ok: module: fpgamr.ko loaded (srcversion 0123456789ABCDEF0123456)"
starts nonode "FAIL: devicetree: no node compatible with \"fpgamr,md5-accel-1.0\" under $T/root/sys/firmware/devicetree/base: apply the design's overlay"
starts nonode "FAIL: device: no UIO device uio0 ($T/root/sys/class/uio/uio0/name): fpgamr.ko did not bind the accelerator"

# a device held by a running job: busy, not a failure
flock "$T/held.lock" sleep 60 &
holder=$!
for _ in $(seq 200); do grep -q "FLOCK .* $holder " /proc/locks && break; sleep 0.05; done  # flock(1) holds it
run busy 0 --device "vsim:pipelines=4,lock=$T/held.lock"
lines busy 7
has busy "busy: regmap: held by process $holder (flock), a running job: not a failure; run the doctor when it ends"
has busy "busy: dma: held by process $holder (flock), a running job: not a failure; run the doctor when it ends"
kill "$holder"
holder=

# usage errors
run nodevice 2
run badspec 2 --device pcie:0
run badvalues 2 --device vsim:pipelines=4 --values 0

echo "test_doctor: $n runs, $fails failure(s)"
[ "$fails" = 0 ]
