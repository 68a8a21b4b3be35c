#!/bin/sh
# The program node-sim traces in the boot test: the image's modprobe loads the image's fpgamr
# module (its probe reads the RTL's identity registers), then the image's own fpgamr-doctor (from
# the jni-fpga jar deploy/ansible installed, with the image's libfpgamr.so) checks every native layer, the DMA
# round trip on 4096 values (a batch of 2^18 would take minutes of simulated time under TCG).
modprobe fpgamr || exit 1
for d in /sys/class/uio/uio*; do
	[ "$(cat "$d/name" 2>/dev/null)" = fpgamr-md5 ] && uio=/dev/${d##*/}
done
LD_LIBRARY_PATH=/opt/fpgamr/native exec /mnt/fpgamr-doctor \
	--device "uio:${uio:-none},timeout_ms=120000" --values 4096
