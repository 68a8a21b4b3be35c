# Platform Designer component: md5acc_top (hdl/rtl). AXI4-Lite slave for the
# registers, AXI4 master for the DMA, level interrupt sender, busy conduit.
package require -exact qsys 16.1
# the design's defaults and files (md5acc_params.tcl, generated from hdl/regmap/md5acc.json
# and hdl/rtl/sources.mk by hdl/scripts/platform_gen.py)
source [file join [file dirname [info script]] md5acc_params.tcl]

set_module_property NAME md5acc
set_module_property DISPLAY_NAME "fpgamr MD5 accelerator"
set_module_property VERSION 1.0
set_module_property GROUP "fpgamr"
set_module_property AUTHOR "fpgamr"
set_module_property EDITABLE false

add_parameter NPIPE INTEGER $NPIPE "MD5 pipelines"
set_parameter_property NPIPE HDL_PARAMETER true
set_parameter_property NPIPE ALLOWED_RANGES {1 2 4 8 16}
# AXI4 master data width; the hash path does min(NPIPE, DATA_W/128) digests
# per clock. The HPS FPGA-to-SDRAM ports are at most 256 bits wide.
add_parameter DATA_W INTEGER $DATA_W "AXI4 master data width (bits)"
set_parameter_property DATA_W HDL_PARAMETER true
set_parameter_property DATA_W ALLOWED_RANGES {128 256 512}
# the design clock, read back in CLOCK_KHZ: the system sets it to its PLL's output
add_parameter CLOCK_KHZ INTEGER [expr {$CLOCK_MHZ * 1000}] "design clock (kHz)"
set_parameter_property CLOCK_KHZ HDL_PARAMETER true

add_fileset synth QUARTUS_SYNTH "" ""
set_fileset_property synth TOP_LEVEL md5acc_top
# the files of hdl/rtl/sources.mk (MD5ACC_INC, MD5ACC_RTL), named here only: the project
# (fpgamr_md5acc.qsf) reaches them through the system's .qip
foreach f $MD5ACC_FILES {
    if {[string match *.vh $f]} { set t VERILOG_INCLUDE } else { set t VERILOG }
    add_fileset_file [file tail $f] $t PATH $f
}

add_interface clock clock end
set_interface_property clock clockRate 0
add_interface_port clock clk clk Input 1

add_interface reset reset end
set_interface_property reset associatedClock clock
# released in step with the clock by reset_sync (soc_system.tcl)
set_interface_property reset synchronousEdges DEASSERT
add_interface_port reset rst reset Input 1

add_interface s_axil axi4lite end
set_interface_property s_axil associatedClock clock
set_interface_property s_axil associatedReset reset
set_interface_property s_axil readAcceptanceCapability 1
set_interface_property s_axil writeAcceptanceCapability 1
foreach {port role dir width} {
    s_axil_awaddr awaddr Input 13   s_axil_awprot awprot Input 3
    s_axil_awvalid awvalid Input 1  s_axil_awready awready Output 1
    s_axil_wdata wdata Input 32     s_axil_wstrb wstrb Input 4
    s_axil_wvalid wvalid Input 1    s_axil_wready wready Output 1
    s_axil_bresp bresp Output 2     s_axil_bvalid bvalid Output 1
    s_axil_bready bready Input 1    s_axil_araddr araddr Input 13
    s_axil_arprot arprot Input 3    s_axil_arvalid arvalid Input 1
    s_axil_arready arready Output 1 s_axil_rdata rdata Output 32
    s_axil_rresp rresp Output 2     s_axil_rvalid rvalid Output 1
    s_axil_rready rready Input 1 } {
    add_interface_port s_axil $port $role $dir $width
}

add_interface m_axi axi4 start
set_interface_property m_axi associatedClock clock
set_interface_property m_axi associatedReset reset
set_interface_property m_axi readIssuingCapability 64
set_interface_property m_axi writeIssuingCapability 8
foreach {port role dir width} {
    m_axi_awid awid Output 1        m_axi_awaddr awaddr Output 32
    m_axi_awlen awlen Output 8      m_axi_awsize awsize Output 3
    m_axi_awburst awburst Output 2  m_axi_awlock awlock Output 1
    m_axi_awcache awcache Output 4  m_axi_awprot awprot Output 3
    m_axi_awvalid awvalid Output 1  m_axi_awready awready Input 1
    m_axi_wdata wdata Output 128    m_axi_wstrb wstrb Output 16
    m_axi_wlast wlast Output 1      m_axi_wvalid wvalid Output 1
    m_axi_wready wready Input 1     m_axi_bid bid Input 1
    m_axi_bresp bresp Input 2       m_axi_bvalid bvalid Input 1
    m_axi_bready bready Output 1    m_axi_arid arid Output 1
    m_axi_araddr araddr Output 32   m_axi_arlen arlen Output 8
    m_axi_arsize arsize Output 3    m_axi_arburst arburst Output 2
    m_axi_arlock arlock Output 1    m_axi_arcache arcache Output 4
    m_axi_arprot arprot Output 3    m_axi_arvalid arvalid Output 1
    m_axi_arready arready Input 1   m_axi_rid rid Input 1
    m_axi_rdata rdata Input 128     m_axi_rresp rresp Input 2
    m_axi_rlast rlast Input 1       m_axi_rvalid rvalid Input 1
    m_axi_rready rready Output 1 } {
    add_interface_port m_axi $port $role $dir $width
}
# the data ports follow DATA_W (the widths above are the default's)
set_port_property m_axi_wdata WIDTH_EXPR DATA_W
set_port_property m_axi_wstrb WIDTH_EXPR {DATA_W / 8}
set_port_property m_axi_rdata WIDTH_EXPR DATA_W
foreach p {m_axi_wdata m_axi_wstrb m_axi_rdata} { set_port_property $p VHDL_TYPE STD_LOGIC_VECTOR }

add_interface irq interrupt end
set_interface_property irq associatedAddressablePoint s_axil
set_interface_property irq associatedClock clock
set_interface_property irq associatedReset reset
add_interface_port irq irq irq Output 1

add_interface busy conduit end
add_interface_port busy busy busy Output 1
