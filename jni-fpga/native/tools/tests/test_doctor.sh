#!/bin/bash
# test_doctor.sh BUILD_DIR: fpgamr-doctor against the simulated device (BUILD_DIR/libfpgamr-vsim-p4.so),
# one layer broken at a time through the device's injected faults (fpgamr_vsim.h: regmap=, irq_lost,
# dma_stall, dma_error) and a sysfs root without the module; then, with no --device, a DE10-Nano's sysfs
# layout (a fixture directory: the root compatible of U-Boot's and Linux's socfpga_cyclone5_de10_nano
# DTS, fpgamr.ko's driver attributes holding the lines kernel/fpgamr-port.h writes, checked there by
# test/port_state.c) in each broken state, and an x86 machine's; each case checks the doctor's lines
# and exit code.
# About 10 s here (the two timeouts are 1 s each).
set -u
B=$(cd "$1" && pwd)
DOCTOR=$B/fpgamr-doctor
T=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$T"' EXIT
export FPGAMR_VSIM_DIR=$B TMPDIR=$T
# this release's register map, from the generated header (the doctor's lines print it)
H=$(dirname "$0")/../../include/fpgamr_regs.h
MAJ=$(sed -n 's/^#define FPGAMR_REGMAP_MAJOR \([0-9]*\)u$/\1/p' "$H")
MIN=$(sed -n 's/^#define FPGAMR_REGMAP_MINOR \([0-9]*\)u$/\1/p' "$H")
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
has healthy "ok: regmap: $MAJ.$MIN, this driver's $MAJ.$MIN (DESIGN_ID \"MD5A\")"
starts healthy "ok: design: 4 pipelines, 256-bit bus, 85 MHz clock, messages of 1..8 bytes (DESIGN_PARAMS 0x"
starts healthy "ok: interrupt: a 64-value search job ended by its interrupt after "
starts healthy "ok: dma: 4096 values hashed by the device through its DMA ("
grep -q "^ok: dma: .*every digest equal to the CPU kernel's (.*)$" "$T/healthy.out" || { echo "FAILED healthy: dma line"; fails=$((fails + 1)); }

# a design of another register map
run regmap 1 --device vsim:pipelines=4,regmap=2.7 --values 4096
lines regmap 7
has regmap "FAIL: regmap: the device's register map is 2.7, this driver's is $MAJ.$MIN: the design and the software come from different releases; load the design built with this release (hdl/), or install the software of the design's"
has regmap "skip: design: not checked: the register map fails"
has regmap "skip: dma: not checked: the register map fails"
# the same major, a lower minor: 3.0's ABORT can leave a search running for ever (issue 39)
run oldminor 1 --device vsim:pipelines=4,regmap=$MAJ.$((MIN - 1)) --values 4096
lines oldminor 7
has oldminor "FAIL: regmap: the device's register map is $MAJ.$((MIN - 1)), this driver's is $MAJ.$MIN: the design and the software come from different releases; load the design built with this release (hdl/), or install the software of the design's"

# a simulated device its driver left wedged (state=: the vsim bus's counterpart of fpgamr.ko's sysfs `state`)
echo "wedged: the device did not stop its job within 5000 ms (JOBS_STARTED 0x00000001 of 0x00000001, STATUS 0x00000011)" > "$T/state"
run wedged 1 --device vsim:pipelines=4,state=$T/state --values 4096
lines wedged 7
has wedged "FAIL: device: the simulated device is wedged: the device did not stop its job within 5000 ms (JOBS_STARTED 0x00000001 of 0x00000001, STATUS 0x00000011) ($T/state): it takes no job until its model is loaded again (the NodeManager's recovery does it)"
has wedged "skip: regmap: not checked: the device is wedged"
echo idle > "$T/state"
run unwedged 0 --device vsim:pipelines=4,state=$T/state --values 4096

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

# the memory refuses the hash job's reads (the doctor's second job): DMA fails naming the failing burst's
# bus address, which the vsim bus reads on the kernel page it plays (register map 3.2; on a board the
# kernel's log has it)
run dmaerr 1 --device vsim:pipelines=4,fault=dma_error@2 --values 4096
lines dmaerr 7
starts dmaerr "ok: interrupt: a 64-value search job ended by its interrupt"
grep -q "^FAIL: dma: the hash job's DMA got a read response error at bus address 0x[0-9a-f]*[1-9a-f][0-9a-f]* after [0-9]* digests (STATUS 0x" "$T/dmaerr.out" || { echo "FAILED dmaerr: dma line"; cat "$T/dmaerr.out"; fails=$((fails + 1)); }

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

# no --device: a machine that is not a Cyclone V SoC has no accelerator to find
mkdir -p "$T/x86/sys/class"
run x86 0 --sysfs-root "$T/x86"
lines x86 1
has x86 "n/a: device: no FPGA accelerator on this node (no /sys/class/uio/uioN named fpgamr-md5, and not a Cyclone V SoC: the device tree's root is not compatible with \"altr,socfpga-cyclone5\"); name one with --device SPEC"

# no --device on a DE10-Nano: its device tree, the overlay's node, fpgamr.ko not loaded
B5=$T/de10/sys
mkdir -p "$B5/firmware/devicetree/base/soc/base-fpga-region/md5acc@ff200000"
printf 'terasic,de10-nano\0altr,socfpga-cyclone5\0altr,socfpga\0' > "$B5/firmware/devicetree/base/compatible"
printf 'fpgamr,md5-accel-1.0\0' > "$B5/firmware/devicetree/base/soc/base-fpga-region/md5acc@ff200000/compatible"
run board-nomodule 1 --sysfs-root "$T/de10"
lines board-nomodule 6
has board-nomodule "FAIL: module: fpgamr.ko is not loaded (no $B5/module/fpgamr): load it with 'modprobe fpgamr' (kernel/README.md, \"Load it on a node\")"
has board-nomodule "skip: fpga: not read: fpgamr.ko is not loaded, and the kernel has no entry in /sys/class/fpga_manager"
has board-nomodule "skip: bridge: not read: fpgamr.ko is not loaded, and the kernel has no lwhps2fpga in /sys/class/fpga_bridge"
has board-nomodule "skip: port: not read: fpgamr.ko, which reads the SDRAM controller, is not loaded"
has board-nomodule "ok: devicetree: node /soc/base-fpga-region/md5acc@ff200000, compatible \"fpgamr,md5-accel-1.0\""
has board-nomodule "skip: device: not checked: the module is not loaded"
# ... with the kernel's FPGA manager and bridge classes (a kernel with CONFIG_FPGA): read from there
mkdir -p "$B5/class/fpga_manager/fpga0" "$B5/class/fpga_bridge/br0" "$B5/class/fpga_bridge/br1"
echo "Altera SOCFPGA FPGA Manager" > "$B5/class/fpga_manager/fpga0/name"
echo "write init" > "$B5/class/fpga_manager/fpga0/state"
echo fpga2sdram > "$B5/class/fpga_bridge/br0/name"; echo enabled > "$B5/class/fpga_bridge/br0/state"
echo lwhps2fpga > "$B5/class/fpga_bridge/br1/name"; echo disabled > "$B5/class/fpga_bridge/br1/state"
run board-classes 1 --sysfs-root "$T/de10"
has board-classes "FAIL: fpga: FPGA not in user mode ($B5/class/fpga_manager/fpga0/state: write init): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)"
has board-classes "FAIL: bridge: lightweight HPS-to-FPGA bridge not enabled ($B5/class/fpga_bridge/br1/state: disabled): the accelerator's registers cannot be read; enable it (the design's overlay, hdl/README.md, On a DE10-Nano)"
echo operating > "$B5/class/fpga_manager/fpga0/state"; echo enabled > "$B5/class/fpga_bridge/br1/state"
run board-classes-ok 1 --sysfs-root "$T/de10"
has board-classes-ok "ok: fpga: FPGA in user mode ($B5/class/fpga_manager/fpga0/state: operating)"
has board-classes-ok "ok: bridge: lightweight HPS-to-FPGA bridge enabled ($B5/class/fpga_bridge/br1/state: enabled)"
rm -r "$B5/class/fpga_manager" "$B5/class/fpga_bridge"

# fpgamr.ko loaded: its driver's attributes, one broken state at a time
mkdir -p "$B5/module/fpgamr" "$B5/bus/platform/drivers/fpgamr-md5"
echo live > "$B5/module/fpgamr/initstate"
echo 1.0.0 > "$B5/module/fpgamr/version"
D=$B5/bus/platform/drivers/fpgamr-md5
user="FPGA in user mode (FPGA manager stat 0x00000054, msel 0x0a)"
unprog="FPGA not in user mode: in its configuration phase (FPGA manager stat 0x00000052, mode 2, msel 0x0a): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)"
lwout="lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x00000000)"
lwreset="lightweight HPS-to-FPGA bridge in reset (brgmodrst 0x00000007): the accelerator's registers cannot be read; release it after loading the .rbf (U-Boot's 'bridge enable', hdl/README.md, On a DE10-Nano)"
enabled="FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, up to 256 bits)"
reset="FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x000003ff: 2 command, 4 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete"
board() { echo "$1" > "$D/fpga_manager"; echo "$2" > "$D/lw_bridge"; echo "$3" > "$D/fpga2sdram"; }
board "$unprog" "$lwreset" "$reset"
run board-unprogrammed 1 --sysfs-root "$T/de10"
lines board-unprogrammed 6
has board-unprogrammed "ok: module: fpgamr.ko loaded (version 1.0.0)"
has board-unprogrammed "FAIL: fpga: $unprog"
has board-unprogrammed "FAIL: bridge: $lwreset"
has board-unprogrammed "FAIL: port: $reset (hdl/README.md, On a DE10-Nano)"
has board-unprogrammed "skip: device: not checked: fpgamr.ko does not bind the accelerator while the FPGA or its bridge is not ready"
board "$user" "$lwreset" "$enabled"
run board-bridge 1 --sysfs-root "$T/de10"
has board-bridge "ok: fpga: $user"
has board-bridge "FAIL: bridge: $lwreset"
has board-bridge "ok: port: $enabled"
board "$user" "$lwout" "$reset"
run board-port 1 --sysfs-root "$T/de10"
has board-port "ok: bridge: $lwout"
has board-port "FAIL: port: $reset (hdl/README.md, On a DE10-Nano)"
# every board layer ok, but the node is not bound (its probe refused it)
board "$user" "$lwout" "$enabled"
run board-unbound 1 --sysfs-root "$T/de10"
lines board-unbound 6
has board-unbound "FAIL: device: the accelerator's node is not bound to fpgamr.ko (no device in $D): its probe refused it; 'dmesg | grep fpgamr' says why"
# ... and no node at all
rm -r "$B5/firmware/devicetree/base/soc/base-fpga-region/md5acc@ff200000"
run board-nonode 1 --sysfs-root "$T/de10"
starts board-nonode "FAIL: devicetree: no node compatible with \"fpgamr,md5-accel-1.0\" under $B5/firmware/devicetree/base: apply the design's overlay"
# with --device on a Cyclone V: the board's layers come first; the port read is the bound device's, which knows the design's width
mkdir -p "$B5/class/uio/uio0/device"
echo fpgamr-md5 > "$B5/class/uio/uio0/name"
width="FPGA-to-SDRAM port 64 bits wide, the design's bus 256 bits (fpgaportrst 0x00003fff, handoff 0x00000311, cportwidth 0x00044555): the bootloader's SPL was built from another design's handoff; build it from this design's; DMA cannot complete"
echo "$width" > "$B5/class/uio/uio0/device/fpga2sdram"
board "$user" "$lwreset" "$enabled"
run board-device 1 --device uio:/dev/uio0 --sysfs-root "$T/de10"
lines board-device 10
has board-device "FAIL: port: $width (hdl/README.md, On a DE10-Nano)"
has board-device "skip: device: not checked: the FPGA or its bridge is not ready"
has board-device "skip: dma: not checked: the FPGA or its bridge is not ready"

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
run badspec 2 --device pcie:0
run badvalues 2 --device vsim:pipelines=4 --values 0

echo "test_doctor: $n runs, $fails failure(s)"
[ "$fails" = 0 ]
