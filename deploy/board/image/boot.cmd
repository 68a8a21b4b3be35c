# fpgamr's DE10-Nano boot script, made into boot.scr by mkimage -T script (assemble.sh). U-Boot's
# distro boot finds it on the card's bootable partition (2, FAT); it programs the FPGA from the
# .rbf beside it, takes the bridges and the FPGA-to-SDRAM port out of reset with the values the
# SPL's handoff holds (socfpga's "bridge enable"), and boots the root's extlinux.conf (partition 3,
# written by Debian's u-boot-menu at each kernel install). Without an .rbf the board boots with its
# FPGA unprogrammed, and says so here and in fpgamr doctor.
setenv fpgamr_rbf fpgamr-md5acc.rbf
if load ${devtype} ${devnum}:2 ${loadaddr} ${fpgamr_rbf}; then
	if fpga load 0 ${loadaddr} ${filesize}; then
		bridge enable
		echo "fpgamr: ${fpgamr_rbf} loaded; bridges and the FPGA-to-SDRAM port out of reset"
	else
		echo "fpgamr: fpga load of ${fpgamr_rbf} failed (SW10/MSEL as shipped?): the FPGA is not programmed"
	fi
else
	echo "fpgamr: no ${fpgamr_rbf} on the boot partition: the FPGA is not programmed (deploy/board/README.md)"
fi
sysboot ${devtype} ${devnum}:3 any ${pxefile_addr_r} /boot/extlinux/extlinux.conf
