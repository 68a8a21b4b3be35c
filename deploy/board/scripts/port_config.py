#!/usr/bin/env python3
"""The DE10-Nano's qts/sdram_config.h with the design's FPGA-to-SDRAM port.

usage: port_config.py MD5ACC_JSON UPSTREAM_SDRAM_CONFIG_H OUT_H

Copies the board's upstream sdram_config.h (Terasic's DDR3 settings, which
boot the board) and rewrites only the port fields of the SDRAM controller's
multi-port front end, for the one AXI port of the design's bus width
(md5acc.json "design".data_w) at FPGA-to-SDRAM port 0, as Platform Designer
gives it (hdl/quartus/soc_system.tcl: F2SDRAM_Type AXI-3, F2SDRAM_Width).

The front end has 10 command ports (0-5 the FPGA's, 6-9 the HPS's own: L3
and MPU, read and write), 6 read and 6 write data FIFOs of 64 bits (0-3 the
FPGA's, 4-5 the HPS's). An AXI port takes two command ports, one per
direction (command port 0 reads, 1 writes), and data_w / 64 FIFOs each way
(Cyclone V HPS TRM, SDRAM controller, "fpgaportrst": read data ports at bits
3:0, write data ports at 7:4, command ports at 13:8). The register fields:
cportwidth 2 bits per command port (log2 of its width / 32), cportrdwr 2
bits per command port (1 write, 2 read), cportrmap / cportwmap 3 bits per
command port (its first FIFO), rfifocmap / wfifocmap 4 bits per FIFO (its
command port). The HPS's command ports and FIFOs keep the upstream values;
the FPGA's unused command ports are cleared.
"""
import json
import os
import re
import sys

CMD_PORTS_FPGA = 6
FIFOS_FPGA = 4
FIFO_BITS = 64
READ_CPORT, WRITE_CPORT = 0, 1
RDWR_WRITE, RDWR_READ = 1, 2

PREFIX = "CFG_HPS_SDR_CTRLCFG_"
FIELDS = ("CPORTWIDTH_CPORTWIDTH", "CPORTWMAP_CPORTWMAP", "CPORTRMAP_CPORTRMAP",
          "RFIFOCMAP_RFIFOCMAP", "WFIFOCMAP_WFIFOCMAP", "CPORTRDWR_CPORTRDWR",
          "FPGAPORTRST")


def put(reg, index, bits, value):
    """reg with field index (bits wide) set to value"""
    mask = (1 << bits) - 1
    return (reg & ~(mask << (index * bits))) | ((value & mask) << (index * bits))


def port_fields(upstream, data_w):
    """the port registers for one AXI port of data_w bits, HPS fields from upstream"""
    if data_w not in (64, 128, 256):
        raise ValueError("design.data_w %d: an FPGA-to-SDRAM AXI port is 64, 128 or 256 bits" % data_w)
    fifos = data_w // FIFO_BITS
    width_code = (data_w // 32).bit_length() - 1
    r = dict(upstream)
    for cport in range(CMD_PORTS_FPGA):
        r["CPORTWIDTH_CPORTWIDTH"] = put(r["CPORTWIDTH_CPORTWIDTH"], cport, 2, 0)
        r["CPORTRDWR_CPORTRDWR"] = put(r["CPORTRDWR_CPORTRDWR"], cport, 2, 0)
        r["CPORTRMAP_CPORTRMAP"] = put(r["CPORTRMAP_CPORTRMAP"], cport, 3, 0)
        r["CPORTWMAP_CPORTWMAP"] = put(r["CPORTWMAP_CPORTWMAP"], cport, 3, 0)
    for cport, rdwr in ((READ_CPORT, RDWR_READ), (WRITE_CPORT, RDWR_WRITE)):
        r["CPORTWIDTH_CPORTWIDTH"] = put(r["CPORTWIDTH_CPORTWIDTH"], cport, 2, width_code)
        r["CPORTRDWR_CPORTRDWR"] = put(r["CPORTRDWR_CPORTRDWR"], cport, 2, rdwr)
    for fifo in range(FIFOS_FPGA):
        used = fifo < fifos
        r["RFIFOCMAP_RFIFOCMAP"] = put(r["RFIFOCMAP_RFIFOCMAP"], fifo, 4, READ_CPORT if used else 0)
        r["WFIFOCMAP_WFIFOCMAP"] = put(r["WFIFOCMAP_WFIFOCMAP"], fifo, 4, WRITE_CPORT if used else 0)
    data_mask = (1 << fifos) - 1
    r["FPGAPORTRST"] = data_mask | (data_mask << 4) | (1 << (8 + READ_CPORT)) | (1 << (8 + WRITE_CPORT))
    return r


def main(argv):
    if len(argv) != 4:
        print("usage: port_config.py MD5ACC_JSON UPSTREAM_SDRAM_CONFIG_H OUT_H", file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            data_w = json.load(f)["design"]["data_w"]
        with open(argv[2]) as f:
            text = f.read()
    except (OSError, ValueError, KeyError) as e:
        print("port_config.py: %s" % e, file=sys.stderr)
        return 2
    upstream = {}
    for name in FIELDS:
        m = re.search(r"^#define\s+%s%s\s+(0x[0-9A-Fa-f]+|\d+)\s*$" % (PREFIX, name), text, re.M)
        if not m:
            print("port_config.py: %s: no #define %s%s" % (argv[2], PREFIX, name), file=sys.stderr)
            return 1
        upstream[name] = int(m.group(1), 0)
    try:
        fields = port_fields(upstream, data_w)
    except ValueError as e:
        print("port_config.py: %s" % e, file=sys.stderr)
        return 1
    for name in FIELDS:
        text = re.sub(r"^(#define\s+%s%s\s+).*$" % (PREFIX, name),
                      lambda m: "%s0x%X" % (m.group(1), fields[name]), text, flags=re.M)
    header = ("/* The board's upstream sdram_config.h with the FPGA-to-SDRAM port of\n"
              " * hdl/regmap/md5acc.json (one %d-bit AXI port), written by\n"
              " * deploy/board/scripts/port_config.py. */\n" % data_w)
    with open(argv[3] + ".tmp", "w") as f:
        f.write(header + text)
    os.replace(argv[3] + ".tmp", argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
