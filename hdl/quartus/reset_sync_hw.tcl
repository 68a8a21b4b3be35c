# Platform Designer component: reset_sync (reset_sync.v), the fabric's reset. It takes the
# HPS's h2f_reset (asynchronous) and the PLL's locked, and gives the accelerator a reset
# released in step with its clock: the one path of h2f_reset into the fabric (soc_system.tcl).
package require -exact qsys 16.1

set_module_property NAME reset_sync
set_module_property DISPLAY_NAME "fpgamr fabric reset synchroniser"
set_module_property VERSION 1.0
set_module_property GROUP "fpgamr"
set_module_property AUTHOR "fpgamr"
set_module_property EDITABLE false

add_parameter STAGES INTEGER 3 "synchroniser registers"
set_parameter_property STAGES HDL_PARAMETER true
set_parameter_property STAGES ALLOWED_RANGES 2:8

add_fileset synth QUARTUS_SYNTH "" ""
set_fileset_property synth TOP_LEVEL reset_sync
add_fileset_file reset_sync.v VERILOG PATH reset_sync.v

add_interface clock clock end
set_interface_property clock clockRate 0
add_interface_port clock clk clk Input 1

# asynchronous in both edges: Platform Designer inserts no synchroniser of its own
add_interface arst reset end
set_interface_property arst synchronousEdges NONE
add_interface_port arst arst_n reset_n Input 1

add_interface locked conduit end
add_interface_port locked locked export Input 1

add_interface reset_out reset start
set_interface_property reset_out associatedClock clock
set_interface_property reset_out synchronousEdges DEASSERT
add_interface_port reset_out rst reset Output 1
