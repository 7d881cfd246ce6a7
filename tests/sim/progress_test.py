#!/usr/bin/env python3
"""schedsim on a long run (issue 16): under a pseudo-terminal the progress
line moves as slices of cycles complete; Ctrl-C (SIGINT) ends the run with a
partial result and exit status 130; on a pipe nothing is written to stderr
unless --progress asks.

    progress_test.py SCHEDSIM
"""

import json
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import simlib

# Enough pods that the run outlasts the wait for two progress counts (the line
# starts after 1 s) by several seconds even on a fast machine: with 30,000 the
# last slice was sometimes running when SIGINT came, and every pod was placed.
PODS = 90000


def cluster(path, nodes=300, pods=PODS):
    # Written as text: json.dump of this many dicts takes seconds.
    node = ('{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n%d"}, "status": '
            '{"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "500"}}}')
    pod = ('{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p%d"}, "spec": '
           '{"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "10m"}}}]}}')
    items = [node % i for i in range(nodes)] + [pod % i for i in range(pods)]
    with open(path, "w") as f:
        f.write('{"kind": "List", "items": [' + ",".join(items) + "]}")


class Progress(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.input = os.path.join(self.tmp.name, "c.json")
        cluster(self.input)

    def test_terminal_progress_then_ctrl_c(self):
        master, slave = pty.openpty()
        p = subprocess.Popen([simlib.SCHEDSIM, "--output", "json", self.input],
                             stdout=subprocess.PIPE, stderr=slave, text=True)
        os.close(slave)
        seen = b""
        deadline = time.monotonic() + 300
        # Wait for two different progress counts: the line moves during the run.
        counts = set()
        while len(counts) < 2 and time.monotonic() < deadline and p.poll() is None:
            if select.select([master], [], [], 1)[0]:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
                for part in seen.split(b"\r"):
                    if part.startswith(b"\x1b[Kscheduling: "):
                        counts.add(part.split(b"/")[0])
        self.assertGreaterEqual(len(counts), 2, seen[-500:])
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=120)
        os.close(master)
        self.assertEqual(p.returncode, 130)
        result = json.loads(out)
        self.assertTrue(result["summary"]["interrupted"])
        self.assertEqual(result["summary"]["pending"], PODS)
        self.assertGreater(result["summary"]["placed"], 0)
        self.assertLess(result["summary"]["placed"], PODS)
        self.assertIn({"message": "not scheduled: interrupted before its turn",
                       "pods": PODS - result["summary"]["placed"]},
                      result["unschedulableReasons"])

    def test_pipe_is_quiet_unless_asked(self):
        small = os.path.join(self.tmp.name, "s.json")
        cluster(small, nodes=3, pods=10)
        p = simlib.run("--output", "json", small)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        p = simlib.run("--output", "json", "--progress", small)
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stderr, r"^schedsim: 10 pods in [0-9.]+ s, \d+ pods/s\n$")


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
