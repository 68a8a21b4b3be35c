# Timing constraints: one 50 MHz domain for the accelerator, the lightweight
# HPS-to-FPGA bridge (register window) and the FPGA-to-SDRAM port (DMA).
create_clock -name clk50 -period 20.000 [get_ports {FPGA_CLK1_50}]
derive_pll_clocks
derive_clock_uncertainty
# asynchronous inputs/outputs without timing meaning
set_false_path -from [get_ports {KEY[*]}]
set_false_path -to [get_ports {LED[*]}]
