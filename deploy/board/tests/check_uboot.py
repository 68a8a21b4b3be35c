#!/usr/bin/env python3
"""Checks the built SPL and boot partition image against hand-typed references.

usage: check_uboot.py OUT    (OUT: build.sh uboot's folder)

1. The FPGA-to-SDRAM port fields compiled into the SPL (its sdram_config table,
   read from the ELF through its symbol table, not from the generated header)
   equal the Cyclone V SDRAM controller's encoding of one 256-bit AXI port.
2. Each of the four 64 KiB SPL copies of u-boot-with-spl.sfp, which the boot
   ROM tries in turn, has a valid boot header (Debian's dumpimage verifies its
   checksum and CRC), and U-Boot's image follows them.
"""
import os
import re
import subprocess
import sys

CROSS = "arm-linux-gnueabihf-"

# U-Boot 2023.01 arch/arm/mach-socfpga/include/mach/sdram_gen5.h, struct
# socfpga_sdram_config: u32 fields in this order from ctrl_cfg (index 0)
FIELD_INDEX = {"cport_width": 15, "cport_wmap": 16, "cport_rmap": 17, "rfifo_cmap": 18,
               "wfifo_cmap": 19, "cport_rdwr": 20, "fpgaport_rst": 22}

# One 256-bit AXI port at FPGA-to-SDRAM port 0. Cyclone V HPS Technical Reference
# Manual (683126), SDRAM controller registers at 0xFFC25000:
#   fpgaportrst (0x5080) portrstn[13:0]: read data ports 0-3 at bits 3:0, write data
#     ports 0-3 at bits 7:4, command ports 0-5 at bits 13:8. An AXI port takes a read
#     and a write command port; 256 bits take four 64-bit data ports each way:
#     bits 0-3, 4-7, 8, 9 = 0x3FF (hdl/README.md's value; the board's upstream
#     qts/sdram_config.h has 0x1FF, command port 1 held in reset: one command port,
#     an Avalon-MM port's, not an AXI port's two).
# The FIFO and command-port maps, field by field (10 command ports: 0-5 the FPGA's,
# 6-9 the HPS's; 6 read and 6 write FIFOs: 0-3 the FPGA's, 4-5 the HPS's), with the
# HPS's fields as the board's upstream qts/sdram_config.h has them (U-Boot 2023.01:
# CPORTWIDTH 0x44555, CPORTWMAP 0x2C011000, CPORTRMAP 0xB00088, RFIFOCMAP 0x760210,
# WFIFOCMAP 0x980543, CPORTRDWR 0x5A56A):
#   cportwidth, 2 bits per command port, log2(width / 32): ports 0, 1 = 3 (256 bits),
#     2-5 = 0, HPS 6-9 = 0, 1, 0, 1                                     -> 0x4400F
#   cportwmap, 3 bits per command port, its write FIFO: port 1 -> 0, HPS 8 -> 4, 9 -> 5
#                                                                       -> 0x2C000000
#   cportrmap, 3 bits per command port, its read FIFO: port 0 -> 0, HPS 6 -> 4, 7 -> 5
#                                                                       -> 0xB00000
#   rfifocmap, 4 bits per read FIFO, its command port: 0-3 -> 0, 4 -> 6, 5 -> 7
#                                                                       -> 0x760000
#   wfifocmap, 4 bits per write FIFO, its command port: 0-3 -> 1, 4 -> 8, 5 -> 9
#                                                                       -> 0x981111
#   cportrdwr, 2 bits per command port, 2 read / 1 write: 0 read, 1 write, 2-5 = 0,
#     HPS 6, 7 read, 8, 9 write                                         -> 0x5A006
EXPECTED = {"cport_width": 0x4400F, "cport_wmap": 0x2C000000, "cport_rmap": 0xB00000,
            "rfifo_cmap": 0x760000, "wfifo_cmap": 0x981111, "cport_rdwr": 0x5A006,
            "fpgaport_rst": 0x3FF}

# Cyclone V HPS TRM, "Booting and Configuration", the preloader image: four copies at
# 64 KiB steps, each with its header at 0x40 whose validation word is 0x31305341
SPL_COPIES, SPL_COPY_BYTES, HEADER_AT, VALIDATION = 4, 0x10000, 0x40, 0x31305341
# U-Boot's legacy image header magic (include/image.h IH_MAGIC), after the copies
IH_MAGIC = 0x27051956


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def spl_fields(elf):
    """the sdram_config table's words, read from the ELF"""
    syms = [line.split() for line in run(CROSS + "nm", "-S", elf).splitlines()]
    hit = [s for s in syms if len(s) == 4 and s[3] == "sdram_config"]
    if len(hit) != 1:
        raise SystemExit("FAIL %s: %d symbols sdram_config (one expected)" % (elf, len(hit)))
    addr, size = int(hit[0][0], 16), int(hit[0][1], 16)
    dump = run(CROSS + "objdump", "-s", "--start-address=0x%x" % addr,
               "--stop-address=0x%x" % (addr + size), elf)
    words = []
    for line in dump.splitlines():
        m = re.match(r"^ ([0-9a-f]{4,8}) ((?:[0-9a-f]{2,8} ){1,4})", line)
        if m:
            for w in m.group(2).split():
                words += [int.from_bytes(bytes.fromhex(w[i:i + 8]), "little") for i in range(0, len(w), 8)]
    return words


def check_port(out):
    words = spl_fields(os.path.join(out, "u-boot-spl"))
    bad = 0
    for name, want in EXPECTED.items():
        got = words[FIELD_INDEX[name]]
        ok = got == want
        bad += not ok
        print("%s SPL sdram_config.%-12s 0x%08X (expected 0x%08X)" % ("ok  " if ok else "FAIL", name, got, want))
    return bad


def check_sfp(out):
    sfp = os.path.join(out, "u-boot-with-spl.sfp")
    with open(sfp, "rb") as f:
        data = f.read()
    bad = 0
    copies = [data[i * SPL_COPY_BYTES:(i + 1) * SPL_COPY_BYTES] for i in range(SPL_COPIES)]
    for i, copy in enumerate(copies):
        word = int.from_bytes(copy[HEADER_AT:HEADER_AT + 4], "little")
        part = os.path.join(out, "work", "spl-copy%d.bin" % i)
        os.makedirs(os.path.dirname(part), exist_ok=True)
        with open(part, "wb") as f:
            f.write(copy)
        p = subprocess.run(["dumpimage", "-l", "-T", "socfpgaimage", part], capture_output=True, text=True)
        listed = p.returncode == 0 and "Validation word" in p.stdout
        ok = word == VALIDATION and listed
        bad += not ok
        print("%s SPL copy %d at 0x%05x: validation word 0x%08X, dumpimage %s" % (
            "ok  " if ok else "FAIL", i, i * SPL_COPY_BYTES, word,
            " ".join(p.stdout.split()) if listed else "refused it: " + " ".join((p.stdout + p.stderr).split())))
    rest = data[SPL_COPIES * SPL_COPY_BYTES:]
    magic = int.from_bytes(rest[:4], "big")
    ok = magic == IH_MAGIC and all(c == copies[0] for c in copies)
    bad += not ok
    print("%s U-Boot image at 0x%05x: magic 0x%08X (expected 0x%08X), the four SPL copies %s" % (
        "ok  " if ok else "FAIL", SPL_COPIES * SPL_COPY_BYTES, magic, IH_MAGIC,
        "identical" if all(c == copies[0] for c in copies) else "differ"))
    return bad


def main(argv):
    if len(argv) != 2:
        print("usage: check_uboot.py OUT", file=sys.stderr)
        return 2
    bad = check_port(argv[1]) + check_sfp(argv[1])
    print("board uboot: %d checks failed" % bad if bad else "board uboot: all checks passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
