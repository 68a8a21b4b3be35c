"""quartus_sources.py: the tree passes; a copy of it broken one way at a time fails with the
line naming what is wrong (a file or module named twice, a file or module missing, a search
path, h2f_reset on a second path, a reset without the PLL's lock, an overlay bridge the
system does not use; an HPS parameter altera_hps does not define, a DDR3 value not the
DE10-Nano's or missing, a board peripheral unmuxed, another on HPS pins, the HPS pins not
exported, the project's properties before its system, the HPS SDRAM pin script under
quartus_sh; a reference's timing that disagrees with U-Boot's clock count)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quartus_sources  # noqa: E402

HDL = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class QuartusSourcesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="quartus-sources-")
        for d in ("quartus", "rtl", "dts", "regmap"):
            shutil.copytree(os.path.join(HDL, d), os.path.join(self.tmp, d),
                            ignore=shutil.ignore_patterns("db", "output_files", "soc_system", "*.qsys"))
        # the references too, so that a test can break one
        shutil.copytree(quartus_sources.REF, os.path.join(self.tmp, "ref"))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, rel, old, new):
        path = os.path.join(self.tmp, rel)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text, "%s no longer holds %r: the test's edit must follow it" % (rel, old))
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def problems(self):
        return quartus_sources.check(self.tmp, quick=True, ref=os.path.join(self.tmp, "ref"))

    def assertLine(self, line, part=None):
        """`line` among the problems of the whole check, or of one part of it (no Verilator run)."""
        found = part() if part else self.problems()
        self.assertIn(line, found)

    def hps(self):
        path = os.path.join(self.tmp, "quartus", "soc_system.tcl")
        found = quartus_sources.Problems()
        quartus_sources.check_hps(found, quartus_sources.System(path, quartus_sources.tcl_records(path)),
                                  os.path.join(self.tmp, "ref"))
        return found

    def flow(self):
        found = quartus_sources.Problems()
        quartus_sources.check_flow(found, os.path.join(self.tmp, "quartus"))
        return found

    def assertProblem(self, *words):
        found = self.problems()
        self.assertTrue(any(all(w in p for w in words) for p in found),
                        "no problem naming %s among %s" % (words, found))

    def test_tree_is_consistent(self):
        self.assertEqual(self.problems(), [])

    def test_command_exit_codes(self):
        ok = subprocess.run([sys.executable, os.path.join(HDL, "scripts", "quartus_sources.py"), "--hdl", self.tmp,
                             "--quick"], capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stdout + ok.stderr)
        self.edit("quartus/fpgamr_md5acc.qsf", "set_global_assignment -name VERILOG_FILE de10nano_top.v\n",
                  "set_global_assignment -name VERILOG_FILE de10nano_top.v\n"
                  "set_global_assignment -name VERILOG_FILE de10nano_top.v\n")
        bad = subprocess.run([sys.executable, os.path.join(HDL, "scripts", "quartus_sources.py"), "--hdl", self.tmp,
                              "--quick"], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        self.assertEqual(bad.stdout.splitlines(),
                         ["quartus project: quartus/de10nano_top.v named twice: in fpgamr_md5acc.qsf and in "
                          "fpgamr_md5acc.qsf"])

    def test_rtl_file_in_qsf_and_component(self):
        # the tree's old mistake: the .qsf lists the RTL the component's .qip also brings
        self.edit("quartus/fpgamr_md5acc.qsf", "set_global_assignment -name VERILOG_FILE de10nano_top.v\n",
                  "set_global_assignment -name VERILOG_FILE de10nano_top.v\n"
                  "set_global_assignment -name VERILOG_FILE ../rtl/md5_core.v\n")
        self.assertProblem("rtl/md5_core.v named twice", "fpgamr_md5acc.qsf", "md5acc_hw.tcl (md5acc_0 in soc_system.tcl)")

    def test_module_defined_twice(self):
        shutil.copy(os.path.join(self.tmp, "rtl", "skid_buffer.v"), os.path.join(self.tmp, "quartus", "board_skid.v"))
        self.edit("quartus/fpgamr_md5acc.qsf", "set_global_assignment -name VERILOG_FILE de10nano_top.v\n",
                  "set_global_assignment -name VERILOG_FILE de10nano_top.v\n"
                  "set_global_assignment -name VERILOG_FILE board_skid.v\n")
        self.assertProblem("verilator", "Duplicate declaration of module: 'skid_buffer'")

    def test_module_missing(self):
        self.edit("quartus/md5acc_params.tcl", " ../rtl/sync_fifo.v", "")
        self.assertProblem("verilator (top md5acc_top)", "sync_fifo")

    def test_include_missing(self):
        self.edit("quartus/md5acc_params.tcl", "../rtl/md5_consts.vh ", "")
        self.assertProblem("verilator (top md5acc_top)", "md5_consts.vh")

    def test_file_missing(self):
        self.edit("quartus/fpgamr_md5acc.qsf", "VERILOG_FILE de10nano_top.v", "VERILOG_FILE de10_top.v")
        self.assertProblem("fpgamr_md5acc.qsf: de10_top.v is missing")

    def test_search_path(self):
        self.edit("quartus/fpgamr_md5acc.qsf", "set_global_assignment -name VERILOG_FILE de10nano_top.v\n",
                  "set_global_assignment -name SEARCH_PATH ../rtl\n"
                  "set_global_assignment -name VERILOG_FILE de10nano_top.v\n")
        self.assertProblem("SEARCH_PATH ../rtl")

    def test_h2f_reset_twice(self):
        self.edit("quartus/soc_system.tcl", "add_connection hps_0.h2f_reset reset_sync_0.arst\n",
                  "add_connection hps_0.h2f_reset reset_sync_0.arst\n"
                  "add_connection hps_0.h2f_reset clk_0.clk_in_reset\n")
        self.assertProblem("h2f_reset must reach the fabric once", "clk_0.clk_in_reset")

    def test_reset_without_lock(self):
        self.edit("quartus/soc_system.tcl", "add_connection pll_0.locked reset_sync_0.locked\n", "")
        self.assertProblem("pll_0.locked does not hold reset_sync_0")

    def test_accelerator_reset_bypasses_synchroniser(self):
        self.edit("quartus/soc_system.tcl", "add_connection reset_sync_0.reset_out md5acc_0.reset",
                  "add_connection clk_0.clk_reset md5acc_0.reset")
        self.assertProblem("md5acc_0.reset must come from reset_sync_0.reset_out only", "clk_0.clk_reset")

    def test_unused_bridge_in_overlay(self):
        self.edit("dts/fpgamr-md5acc.dtso", "<&fpga_bridge0>, <&fpga_bridge3>",
                  "<&fpga_bridge0>, <&fpga_bridge1>, <&fpga_bridge3>")
        self.assertProblem("overlay: fpga-bridges fpga_bridge0, fpga_bridge1, fpga_bridge3",
                           "the system uses fpga_bridge0, fpga_bridge3")

    def test_hps_parameter_named_otherwise(self):
        # the tree's old mistake: the DDR3 timings under names altera_hps does not have
        self.edit("quartus/soc_system.tcl", "hps_0 TIMING_TIS 175", "hps_0 MEM_TIS 175")
        found = self.hps()
        self.assertIn("soc_system.tcl: hps_0 MEM_TIS: no such altera_hps parameter (scripts/ref/altera_hps.tsv)",
                      found)
        self.assertIn("soc_system.tcl: hps_0 TIMING_TIS is not set; the DE10-Nano's is 175 ps "
                      "(address/command setup to CK)", found)

    def test_ddr3_value_not_the_boards(self):
        self.edit("quartus/soc_system.tcl", "hps_0 MEM_TRFC_NS 300.0", "hps_0 MEM_TRFC_NS 260.0")
        self.assertLine("soc_system.tcl: hps_0 MEM_TRFC_NS is 260.0; the DE10-Nano's is 300.0 ns "
                        "(refresh cycle time (DRAMTIMING1_TRFC; longer than JEDEC's 260 ns for 4 Gbit))", self.hps)

    def test_ddr3_value_missing(self):
        self.edit("quartus/soc_system.tcl", "set_instance_parameter_value hps_0 MEM_RTT_WR {Dynamic ODT off}\n", "")
        self.assertLine("soc_system.tcl: hps_0 MEM_RTT_WR is not set; the DE10-Nano's is Dynamic ODT off "
                        "(dynamic on-die termination during writes)", self.hps)

    def test_board_peripheral_unmuxed(self):
        self.edit("quartus/soc_system.tcl", "set_instance_parameter_value hps_0 SDIO_PinMuxing {HPS I/O Set 0}\n", "")
        self.assertLine("soc_system.tcl: hps_0 SDIO_PinMuxing is unset; the DE10-Nano wires SDIO to "
                        "{HPS I/O Set 0} {4-bit Data} (pin mux FLASHIO0,2,3,9,10,11 = 3: SDMMC CMD, D0, D1, CCLK, "
                        "D2, D3 (the micro SD slot, the boot card))", self.hps)

    def test_board_peripheral_other_mode(self):
        self.edit("quartus/soc_system.tcl", "UART0_Mode {No Flow Control}", "UART0_Mode {Full}")
        self.assertLine("soc_system.tcl: hps_0 UART0_Mode is {Full}; the DE10-Nano wires UART0 to "
                        "{HPS I/O Set 0} {No Flow Control} (pin mux GENERALIO1,2 = 1: UART0 RX, TX "
                        "(the FT232R USB-UART: the console at 115200))", self.hps)

    def test_peripheral_the_board_does_not_wire(self):
        self.edit("quartus/soc_system.tcl", "set_instance_parameter_value hps_0 SDIO_Mode {4-bit Data}\n",
                  "set_instance_parameter_value hps_0 SDIO_Mode {4-bit Data}\n"
                  "set_instance_parameter_value hps_0 QSPI_PinMuxing {HPS I/O Set 0}\n")
        self.assertLine("soc_system.tcl: hps_0 QSPI_PinMuxing {HPS I/O Set 0}: the DE10-Nano wires no QSPI to "
                        "HPS pins (scripts/ref/de10nano_pinmux.tsv)", self.hps)

    def test_hps_pins_not_exported(self):
        self.edit("quartus/soc_system.tcl", "add_interface hps_io conduit end\n"
                  "set_interface_property hps_io EXPORT_OF hps_0.hps_io\n", "")
        self.assertLine("soc_system.tcl: hps_0.hps_io is not exported: the HPS peripherals' pins would reach no "
                        "board pin", self.hps)

    def test_project_property_before_system(self):
        self.edit("quartus/soc_system.tcl", "create_system soc_system\n", "")
        self.edit("quartus/soc_system.tcl", "set_project_property DEVICE {5CSEBA6U23I7}\n",
                  "set_project_property DEVICE {5CSEBA6U23I7}\ncreate_system soc_system\n")
        self.assertLine("soc_system.tcl: set_project_property before create_system (no system is open yet)", self.hps)

    def test_pin_script_under_quartus_sh(self):
        # the tree's old mistake: the generated script refuses quartus_sh
        self.edit("quartus/Makefile", "quartus_sta -t soc_system/synthesis/submodules/hps_sdram_p0_pin_assignments.tcl",
                  "quartus_sh -t soc_system/synthesis/submodules/hps_sdram_p0_pin_assignments.tcl")
        self.assertLine("quartus/Makefile: hps_sdram_p0_pin_assignments.tcl runs as `quartus_sh -t`; it must run "
                        "under quartus_sta -t (it reads the analysed netlist)", self.flow)

    def test_pin_script_before_analysis(self):
        self.edit("quartus/Makefile", "\tquartus_map $(PROJECT)\n", "")
        self.assertLine("quartus/Makefile: hps_sdram_p0_pin_assignments.tcl runs before quartus_map (it needs the "
                        "analysed netlist)", self.flow)

    def test_reference_against_uboot(self):
        # the reference's own timings are checked against U-Boot's clock counts for the board
        self.edit("ref/altera_hps.tsv", "MEM_TFAW_NS\tns\t37.5\t15", "MEM_TFAW_NS\tns\t30.0\t15")
        self.assertLine("scripts/ref/altera_hps.tsv: MEM_TFAW_NS 30.0 ns at 400 MHz is 12 clocks; U-Boot's "
                        "de10-nano sdram_config.h has 15", self.hps)

    def test_pin_assignment_to_no_port(self):
        self.edit("quartus/fpgamr_md5acc.qsf", "-to HPS_SD_DATA[3]\n", "-to HPS_SD_DATA[4]\n")
        self.assertLine("fpgamr_md5acc.qsf: set_instance_assignment -name IO_STANDARD \"3.3-V LVTTL\" -to "
                        "HPS_SD_DATA[4]: no such port of de10nano_top")

    def test_board_top_port_not_exported(self):
        self.edit("quartus/de10nano_top.v", ".reset_reset_n               (KEY[0]),",
                  ".reset_reset_n               (KEY[0]),\n        .hps_h2f_reset_reset_n (),")
        self.assertProblem("port hps_h2f_reset_reset_n of soc_system")


if __name__ == "__main__":
    unittest.main()
