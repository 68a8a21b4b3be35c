# Platform Designer system for the DE10-Nano, built with
#   qsys-script --script=soc_system.tcl [--cmd="set NPIPE 4; set DATA_W 128"]
# HPS (Cyclone V hard processor system) with:
#   - the lightweight HPS-to-FPGA bridge -> md5acc registers at REGS_OFFSET in its window
#     (CPU address 0xff200000 + REGS_OFFSET, the overlay's reg)
#   - FPGA-to-SDRAM port 0, AXI DATA_W bits -> md5acc DMA master (DDR, not coherent;
#     the kernel driver syncs caches); no HPS-to-FPGA nor FPGA-to-HPS bridge (the
#     overlay enables exactly the two bridges used)
#   - f2h_irq0 bit F2H_IRQ -> GIC SPI 40 + F2H_IRQ (the overlay's interrupt)
#   - the board's HPS peripherals (SD/MMC, UART0, EMAC1, USB1, I2C0/1, SPIM1) on their HPS
#     pins (the hps_io conduit, to de10nano_top's HPS_* ports) and the board's DDR3
# One clock domain for the accelerator and both ports: pll_0 makes CLOCK_MHZ from the
# board's REF_CLOCK_MHZ FPGA_CLK1_50; fpgamr_md5acc.sdc constrains it. The accelerator's
# reset comes from reset_sync_0 only: h2f_reset or the PLL out of lock, released in step
# with the PLL's clock. Every value above is in md5acc_params.tcl, generated from
# hdl/regmap/md5acc.json (hdl/scripts/platform_gen.py).
package require -exact qsys 16.1
source [file join [file dirname [info script]] md5acc_params.tcl]
# DATA_W 256 (default, the widest F2SDRAM port): min(NPIPE, 2) digests per
# clock on the hash path (hdl/README.md); 128: one
if {$DATA_W > 256} { error "DATA_W $DATA_W: the HPS FPGA-to-SDRAM ports are at most 256 bits wide" }
# the system first: Platform Designer's project properties belong to an open system
create_system soc_system
set_project_property DEVICE_FAMILY {Cyclone V}
set_project_property DEVICE {5CSEBA6U23I7}

add_instance clk_0 clock_source
set_instance_parameter_value clk_0 clockFrequency [expr {$REF_CLOCK_MHZ * 1000000.0}]
set_instance_parameter_value clk_0 resetSynchronousEdges DEASSERT

# Every hps_0 parameter below is one altera_hps defines, with the DE10-Nano's values where
# the board fixes them: hdl/scripts/ref/altera_hps.tsv lists the names, units and values with
# their sources, and hdl/scripts/quartus_sources.py checks this file against it.
add_instance hps_0 altera_hps
# bridges and ports
set_instance_parameter_value hps_0 F2S_Width 0
set_instance_parameter_value hps_0 S2F_Width 0
set_instance_parameter_value hps_0 LWH2F_Enable true
set_instance_parameter_value hps_0 F2SDRAM_Type {AXI-3}
set_instance_parameter_value hps_0 F2SDRAM_Width [list $DATA_W]
set_instance_parameter_value hps_0 F2SINTERRUPT_Enable true
set_instance_parameter_value hps_0 S2FCLK_USER0CLK_Enable false
set_instance_parameter_value hps_0 S2FINTERRUPT_UART_Enable false

# The board's HPS peripherals on the HPS pins, multiplexed as the board's upstream U-Boot
# (board/terasic/de10-nano/qts/pinmux_config.h) does: the SPL built from this system's
# handoff muxes the SD card it boots from, the console, Ethernet and USB
# (hdl/scripts/ref/de10nano_pinmux.tsv)
set_instance_parameter_value hps_0 EMAC1_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 EMAC1_Mode {RGMII}
set_instance_parameter_value hps_0 SDIO_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 SDIO_Mode {4-bit Data}
set_instance_parameter_value hps_0 USB1_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 USB1_Mode {SDR}
set_instance_parameter_value hps_0 UART0_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 UART0_Mode {No Flow Control}
set_instance_parameter_value hps_0 I2C0_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 I2C0_Mode {I2C}
set_instance_parameter_value hps_0 I2C1_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 I2C1_Mode {I2C}
set_instance_parameter_value hps_0 SPIM1_PinMuxing {HPS I/O Set 0}
set_instance_parameter_value hps_0 SPIM1_Mode {Single Slave Select}

# DE10-Nano DDR3: 1 GiB on 32 bits, 400 MHz
set_instance_parameter_value hps_0 HPS_PROTOCOL {DDR3}
set_instance_parameter_value hps_0 MEM_VENDOR {Other}
set_instance_parameter_value hps_0 MEM_CLK_FREQ 400.0
set_instance_parameter_value hps_0 MEM_DQ_WIDTH 32
set_instance_parameter_value hps_0 MEM_ROW_ADDR_WIDTH 15
set_instance_parameter_value hps_0 MEM_COL_ADDR_WIDTH 10
set_instance_parameter_value hps_0 MEM_BANKADDR_WIDTH 3
# mode registers: drive strength, termination, latencies (clocks)
set_instance_parameter_value hps_0 MEM_DRV_STR {RZQ/6}
set_instance_parameter_value hps_0 MEM_RTT_NOM {RZQ/6}
set_instance_parameter_value hps_0 MEM_RTT_WR {Dynamic ODT off}
set_instance_parameter_value hps_0 MEM_TCL 7
set_instance_parameter_value hps_0 MEM_WTCL 7
# controller timings (units in the names)
set_instance_parameter_value hps_0 MEM_TINIT_US 500
set_instance_parameter_value hps_0 MEM_TMRD_CK 4
set_instance_parameter_value hps_0 MEM_TRAS_NS 35.0
set_instance_parameter_value hps_0 MEM_TRCD_NS 13.75
set_instance_parameter_value hps_0 MEM_TRP_NS 13.75
set_instance_parameter_value hps_0 MEM_TREFI_US 7.8
set_instance_parameter_value hps_0 MEM_TRFC_NS 300.0
set_instance_parameter_value hps_0 MEM_TWR_NS 15.0
set_instance_parameter_value hps_0 MEM_TWTR 4
set_instance_parameter_value hps_0 MEM_TFAW_NS 37.5
set_instance_parameter_value hps_0 MEM_TRRD_NS 7.5
set_instance_parameter_value hps_0 MEM_TRTP_NS 7.5
# device timings: ps, or fractions of tCK for TQH, TDQSS, TDQSH, TQSH, TDSH, TDSS
set_instance_parameter_value hps_0 TIMING_TIS 175
set_instance_parameter_value hps_0 TIMING_TIH 250
set_instance_parameter_value hps_0 TIMING_TDS 50
set_instance_parameter_value hps_0 TIMING_TDH 125
set_instance_parameter_value hps_0 TIMING_TDQSQ 120
set_instance_parameter_value hps_0 TIMING_TQHS 300
set_instance_parameter_value hps_0 TIMING_TQH 0.38
set_instance_parameter_value hps_0 TIMING_TDQSCK 400
set_instance_parameter_value hps_0 TIMING_TDQSCKDS 450
set_instance_parameter_value hps_0 TIMING_TDQSCKDM 900
set_instance_parameter_value hps_0 TIMING_TDQSCKDL 1200
set_instance_parameter_value hps_0 TIMING_TDQSS 0.25
set_instance_parameter_value hps_0 TIMING_TDQSH 0.35
set_instance_parameter_value hps_0 TIMING_TQSH 0.38
set_instance_parameter_value hps_0 TIMING_TDSH 0.2
set_instance_parameter_value hps_0 TIMING_TDSS 0.2
# board skews (ns)
set_instance_parameter_value hps_0 TIMING_BOARD_MAX_CK_DELAY 0.6
set_instance_parameter_value hps_0 TIMING_BOARD_MAX_DQS_DELAY 0.6
set_instance_parameter_value hps_0 TIMING_BOARD_SKEW_CKDQS_DIMM_MIN -0.01
set_instance_parameter_value hps_0 TIMING_BOARD_SKEW_CKDQS_DIMM_MAX 0.01
set_instance_parameter_value hps_0 TIMING_BOARD_SKEW_BETWEEN_DIMMS 0.05
set_instance_parameter_value hps_0 TIMING_BOARD_SKEW_WITHIN_DQS 0.02
set_instance_parameter_value hps_0 TIMING_BOARD_SKEW_BETWEEN_DQS 0.02
set_instance_parameter_value hps_0 TIMING_BOARD_DQ_TO_DQS_SKEW 0.0
set_instance_parameter_value hps_0 TIMING_BOARD_AC_SKEW 0.02
set_instance_parameter_value hps_0 TIMING_BOARD_AC_TO_CK_SKEW 0.0

add_instance md5acc_0 md5acc
set_instance_parameter_value md5acc_0 NPIPE $NPIPE
set_instance_parameter_value md5acc_0 DATA_W $DATA_W
set_instance_parameter_value md5acc_0 CLOCK_KHZ [expr {$CLOCK_MHZ * 1000}]
add_instance reset_sync_0 reset_sync

# clocks and resets: the PLL's output clocks the accelerator and both ports; the board's
# KEY[0] resets the PLL (through clk_0); the accelerator leaves reset through reset_sync_0
# once the PLL has locked and the HPS has released h2f_reset (its one connection)
add_instance pll_0 altera_pll
set_instance_parameter_value pll_0 gui_reference_clock_frequency [expr {double($REF_CLOCK_MHZ)}]
set_instance_parameter_value pll_0 gui_number_of_clocks 1
set_instance_parameter_value pll_0 gui_output_clock_frequency0 $CLOCK_MHZ
set_instance_parameter_value pll_0 gui_use_locked true
add_connection clk_0.clk pll_0.refclk
add_connection clk_0.clk_reset pll_0.reset
add_connection pll_0.outclk0 hps_0.h2f_lw_axi_clock
add_connection pll_0.outclk0 hps_0.f2h_sdram0_clock
add_connection pll_0.outclk0 md5acc_0.clock
add_connection pll_0.outclk0 reset_sync_0.clock
add_connection hps_0.h2f_reset reset_sync_0.arst
add_connection pll_0.locked reset_sync_0.locked
add_connection reset_sync_0.reset_out md5acc_0.reset

# registers on the lightweight bridge (CPU address 0xff200000 + REGS_OFFSET)
add_connection hps_0.h2f_lw_axi_master md5acc_0.s_axil
set_connection_parameter_value hps_0.h2f_lw_axi_master/md5acc_0.s_axil baseAddress $REGS_OFFSET
# DMA into SDRAM through F2SDRAM port 0
add_connection md5acc_0.m_axi hps_0.f2h_sdram0_data
set_connection_parameter_value md5acc_0.m_axi/hps_0.f2h_sdram0_data baseAddress {0x0000}
# interrupt: f2h_irq0 bit F2H_IRQ
add_connection hps_0.f2h_irq0 md5acc_0.irq
set_connection_parameter_value hps_0.f2h_irq0/md5acc_0.irq irqNumber $F2H_IRQ

# exported interfaces (names used by de10nano_top.v)
add_interface clk clock sink
set_interface_property clk EXPORT_OF clk_0.clk_in
add_interface reset reset sink
set_interface_property reset EXPORT_OF clk_0.clk_in_reset
add_interface memory conduit end
set_interface_property memory EXPORT_OF hps_0.memory
add_interface hps_io conduit end
set_interface_property hps_io EXPORT_OF hps_0.hps_io
add_interface md5acc_busy conduit end
set_interface_property md5acc_busy EXPORT_OF md5acc_0.busy

save_system soc_system.qsys
