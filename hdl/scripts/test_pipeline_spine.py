"""pipeline_spine.py: the floorplan's geometry and its netlist edit (make -C hdl test)"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pipeline_spine as ps  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pipeline_spine.py')


def netlist(npipe, steps=ps.STEPS):
    """a Yosys JSON module with, per pipeline, the b nets and their flip-flops"""
    cells, nets, bit = {}, {}, 2
    for j in range(npipe):
        for i in range(1, steps + 1):
            bits = list(range(bit, bit + 32))
            bit += 32
            nets['u_acc.u_pipes.g_pipe[%d].u_core.b[%d]' % (j, i)] = {'bits': bits}
            for k, b in enumerate(bits):
                cells['u_acc.u_pipes.g_pipe[%d].u_core.b[%d]_DFF_Q_%d' % (j, i, k)] = {
                    'type': 'DFF', 'attributes': {}, 'connections': {'Q': [b], 'D': [b + 100000]}}
    cells['u_acc.other_DFF_Q'] = {'type': 'DFF', 'attributes': {}, 'connections': {'Q': [1], 'D': [0]}}
    return {'modules': {'pnr_harness': {'cells': cells, 'netnames': nets}}}


class Geometry(unittest.TestCase):
    def test_every_step_has_its_own_logic_tile_in_its_pipelines_region(self):
        for npipe in range(1, 9):
            places = ps.spine(npipe)
            self.assertEqual(len(places), npipe * ps.STEPS)
            self.assertEqual(len(set(places.values())), len(places))
            for (j, s), (x, y) in places.items():
                self.assertTrue(ps.X_FIRST <= x <= ps.X_LAST and ps.Y_FIRST <= y <= ps.Y_LAST)
                self.assertNotEqual(y % 9, 0)
                self.assertFalse(ps.BAND[0] <= y <= ps.BAND[1])
                self.assertEqual(y < ps.BAND[0], j % 2 == 0)
            for j in range(npipe):
                xs = {places[(j, s)][0] for s in range(ps.STEPS)}
                others = {places[(k, s)][0] for k in range(npipe) if k // 2 != j // 2 for s in range(ps.STEPS)}
                self.assertFalse(xs & others)

    def test_consecutive_steps_are_neighbours_and_both_ends_face_the_band(self):
        places = ps.spine(8)
        for j in range(8):
            for s in range(ps.STEPS - 1):
                (x0, y0), (x1, y1) = places[(j, s)], places[(j, s + 1)]
                self.assertLessEqual(abs(x1 - x0) + abs(y1 - y0), 7, (j, s))
            ys = [places[(j, s)][1] for s in range(ps.STEPS)]
            gap = [min(abs(y - ps.BAND[0]), abs(y - ps.BAND[1])) for y in ys]
            self.assertEqual(gap[0], min(gap))
            self.assertEqual(gap[-1], min(gap))

    def test_more_pipelines_than_columns_is_refused(self):
        with self.assertRaises(ValueError):
            ps.spine(10)


class Netlist(unittest.TestCase):
    def run_script(self, doc, npipe):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, 'in.json'), os.path.join(d, 'out.json')
            with open(src, 'w') as f:
                json.dump(doc, f)
            p = subprocess.run([sys.executable, SCRIPT, src, dst, str(npipe)], capture_output=True, text=True)
            out = None
            if os.path.exists(dst):
                with open(dst) as f:
                    out = json.load(f)
            return p, out

    def test_bit_16_of_each_steps_b_register_gets_the_spines_bel(self):
        p, out = self.run_script(netlist(2), 2)
        self.assertEqual(p.returncode, 0, p.stderr)
        cells = out['modules']['pnr_harness']['cells']
        pinned = {n: c['attributes']['BEL'] for n, c in cells.items() if 'BEL' in c['attributes']}
        self.assertEqual(len(pinned), 2 * ps.STEPS)
        x, y = ps.spine(2)[(1, 5)]
        self.assertEqual(pinned['u_acc.u_pipes.g_pipe[1].u_core.b[6]_DFF_Q_16'], 'X%dY%d/DFF0' % (x, y))

    def test_a_netlist_without_every_step_fails_and_writes_nothing(self):
        p, out = self.run_script(netlist(1, steps=63), 1)
        self.assertEqual(p.returncode, 1)
        self.assertIn('no b register for 1 steps (first: pipeline 0 step 63)', p.stderr)
        self.assertIsNone(out)
        p, out = self.run_script(netlist(1), 2)
        self.assertEqual(p.returncode, 1)
        self.assertIsNone(out)

    def test_bad_arguments_are_a_usage_error(self):
        p = subprocess.run([sys.executable, SCRIPT, 'a.json'], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr.strip().splitlines(), ['usage: pipeline_spine.py IN.json OUT.json NPIPE'])


if __name__ == '__main__':
    unittest.main()
