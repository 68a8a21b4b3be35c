"""cached.sh: a route or estimate made once per set of inputs (make -C hdl test)"""
import os
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cached.sh')
# the command: counts its runs in runs.txt, makes the target and its log from the input
MAKE = 'echo run >> runs.txt; tr a-z A-Z < in.v > out.json; echo routed > out.log'


class Cached(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.cache = os.path.join(self.dir, 'cache')
        self.write('in.v', 'module a;\n')

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), 'w') as f:
            f.write(text)

    def read(self, name):
        with open(os.path.join(self.dir, name)) as f:
            return f.read()

    def run_cached(self, command=MAKE, cache=None):
        env = dict(os.environ, FPGAMR_CACHE=cache or self.cache)
        return subprocess.run([SCRIPT, 'out.json', 'in.v', 'out.log', 'true', '--', 'bash', '-c', command],
                              cwd=self.dir, env=env, capture_output=True, text=True)

    def runs(self):
        return self.read('runs.txt').count('run')

    def test_the_same_inputs_are_made_once_then_copied_with_their_log(self):
        self.assertEqual(0, self.run_cached().returncode)
        for name in ('out.json', 'out.log'):
            os.remove(os.path.join(self.dir, name))
        r = self.run_cached()
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertEqual(1, self.runs())
        self.assertEqual('MODULE A;\n', self.read('out.json'))
        self.assertEqual('routed\n', self.read('out.log'))
        self.assertIn('out.json: from the cache', r.stdout)

    def test_a_changed_input_or_command_is_made_again_and_replaces_the_entry(self):
        self.run_cached()
        self.write('in.v', 'module b;\n')
        self.run_cached()
        self.assertEqual(2, self.runs())
        self.assertEqual('MODULE B;\n', self.read('out.json'))
        self.run_cached(MAKE + ' # another option')
        self.assertEqual(3, self.runs())
        self.assertEqual(1, len(os.listdir(os.path.join(self.cache, 'hdl'))), 'one entry per target')

    def test_a_failed_command_stores_nothing_and_fails(self):
        r = self.run_cached('echo run >> runs.txt; exit 3')
        self.assertEqual(3, r.returncode)
        self.assertFalse(os.path.exists(os.path.join(self.cache, 'hdl')) and os.listdir(os.path.join(self.cache, 'hdl')))
        self.assertEqual(0, self.run_cached().returncode)
        self.assertEqual(2, self.runs())

    def test_a_cache_that_cannot_be_written_only_runs_the_command(self):
        self.write('cache-file', '')
        r = self.run_cached(cache=os.path.join(self.dir, 'cache-file'))
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertEqual('MODULE A;\n', self.read('out.json'))
        self.assertIn('not cached', r.stdout)

    def test_usage_errors_exit_2(self):
        r = subprocess.run([SCRIPT, 'out.json', 'in.v'], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(2, r.returncode)
        self.assertIn('usage: cached.sh', r.stderr)


if __name__ == '__main__':
    unittest.main()
