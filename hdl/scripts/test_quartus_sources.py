"""quartus_sources.py: the tree passes; a copy of it broken one way at a time fails with the
line naming what is wrong (a file or module named twice, a file or module missing, a search
path, h2f_reset on a second path, a reset without the PLL's lock, an overlay bridge the
system does not use, an overlay address or interrupt the system does not have, a clock
written by hand)."""
import json
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
        return quartus_sources.check(self.tmp, quick=True)

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

    def test_overlay_address_and_irq(self):
        self.edit("quartus/md5acc_params.tcl", "set REGS_OFFSET 0x0", "set REGS_OFFSET 0x1000")
        self.edit("quartus/md5acc_params.tcl", "set F2H_IRQ 0", "set F2H_IRQ 2")
        self.assertProblem("overlay: reg", "0xff201000")
        self.assertProblem("overlay: interrupts", "bit 2 (SPI 42")

    def test_clock_written_by_hand(self):
        self.edit("quartus/soc_system.tcl", "gui_output_clock_frequency0 $CLOCK_MHZ",
                  "gui_output_clock_frequency0 100")
        with open(os.path.join(HDL, "regmap", "md5acc.json")) as f:
            mhz = json.load(f)["design"]["clock_mhz"]
        self.assertProblem("pll_0 gui_output_clock_frequency0 is 100", "says %d" % mhz)

    def test_board_top_port_not_exported(self):
        self.edit("quartus/de10nano_top.v", ".reset_reset_n               (KEY[0]),",
                  ".reset_reset_n               (KEY[0]),\n        .hps_h2f_reset_reset_n (),")
        self.assertProblem("port hps_h2f_reset_reset_n of soc_system")


if __name__ == "__main__":
    unittest.main()
