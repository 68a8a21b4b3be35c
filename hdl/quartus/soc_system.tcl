# Platform Designer system for the DE10-Nano, built with
#   qsys-script --script=soc_system.tcl [--cmd="set NPIPE 4; set DATA_W 128"]
# HPS (Cyclone V hard processor system) with:
#   - the lightweight HPS-to-FPGA bridge -> md5acc registers at REGS_OFFSET in its window
#     (CPU address 0xff200000 + REGS_OFFSET, the overlay's reg)
#   - FPGA-to-SDRAM port 0, AXI DATA_W bits -> md5acc DMA master (DDR, not coherent;
#     the kernel driver syncs caches); no HPS-to-FPGA nor FPGA-to-HPS bridge (the
#     overlay enables exactly the two bridges used)
#   - f2h_irq0 bit F2H_IRQ -> GIC SPI 40 + F2H_IRQ (the overlay's interrupt)
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
set_project_property DEVICE_FAMILY {Cyclone V}
set_project_property DEVICE {5CSEBA6U23I7}
create_system soc_system

add_instance clk_0 clock_source
set_instance_parameter_value clk_0 clockFrequency [expr {$REF_CLOCK_MHZ * 1000000.0}]
set_instance_parameter_value clk_0 resetSynchronousEdges DEASSERT

add_instance hps_0 altera_hps
# bridges and ports
set_instance_parameter_value hps_0 F2S_Width 0
set_instance_parameter_value hps_0 S2F_Width 0
set_instance_parameter_value hps_0 LWH2F_Enable true
set_instance_parameter_value hps_0 F2SDRAM_Type {AXI-3}
set_instance_parameter_value hps_0 F2SDRAM_Width [list $DATA_W]
set_instance_parameter_value hps_0 F2SINTERRUPT_Enable true
set_instance_parameter_value hps_0 S2FCLK_USER0CLK_Enable false
set_instance_parameter_value hps_0 S2FINTERRUPT_UART0_Enable false
# DE10-Nano DDR3: 1 GB, 32 bits, 400 MHz (Terasic reference settings)
set_instance_parameter_value hps_0 MEM_CLK_FREQ 400.0
set_instance_parameter_value hps_0 MEM_VENDOR {Other}
set_instance_parameter_value hps_0 MEM_DQ_WIDTH 32
set_instance_parameter_value hps_0 MEM_ROW_ADDR_WIDTH 15
set_instance_parameter_value hps_0 MEM_COL_ADDR_WIDTH 10
set_instance_parameter_value hps_0 MEM_BANKADDR_WIDTH 3
set_instance_parameter_value hps_0 MEM_TCL 7
set_instance_parameter_value hps_0 MEM_WTCL 7
set_instance_parameter_value hps_0 MEM_DRV_STR {RZQ/6}
set_instance_parameter_value hps_0 MEM_RTT_NOM {RZQ/6}
set_instance_parameter_value hps_0 MEM_TIS 170
set_instance_parameter_value hps_0 MEM_TIH 120
set_instance_parameter_value hps_0 MEM_TDS 10
set_instance_parameter_value hps_0 MEM_TDH 45
set_instance_parameter_value hps_0 MEM_TDQSQ 100
set_instance_parameter_value hps_0 MEM_TQH 0.38
set_instance_parameter_value hps_0 MEM_TDQSCK 255
set_instance_parameter_value hps_0 MEM_TINIT_US 500
set_instance_parameter_value hps_0 MEM_TMRD_CK 4
set_instance_parameter_value hps_0 MEM_TRAS_NS 35.0
set_instance_parameter_value hps_0 MEM_TRCD_NS 13.75
set_instance_parameter_value hps_0 MEM_TRP_NS 13.75
set_instance_parameter_value hps_0 MEM_TREFI_US 7.8
set_instance_parameter_value hps_0 MEM_TRFC_NS 260.0
set_instance_parameter_value hps_0 MEM_TWR_NS 15.0
set_instance_parameter_value hps_0 MEM_TWTR 4
set_instance_parameter_value hps_0 MEM_TFAW_NS 30.0
set_instance_parameter_value hps_0 MEM_TRRD_NS 7.5
set_instance_parameter_value hps_0 MEM_TRTP_NS 7.5
set_instance_parameter_value hps_0 TIMING_BOARD_MAX_CK_DELAY 0.03
set_instance_parameter_value hps_0 TIMING_BOARD_MAX_DQS_DELAY 0.02

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
add_interface md5acc_busy conduit end
set_interface_property md5acc_busy EXPORT_OF md5acc_0.busy

save_system soc_system.qsys
