#!/usr/bin/env python3
"""The README's schedsim example on the shared corpus gives the output the
README shows (skipped when ../shared/corpus is absent).

    readme_test.py SCHEDSIM SOURCE_ROOT
"""

import os
import re
import subprocess
import sys
import unittest

import simlib

ROOT = None


class Readme(unittest.TestCase):
    def test_example(self):
        if not os.path.isdir(os.path.join(ROOT, "..", "shared", "corpus")):
            self.skipTest("no ../shared/corpus beside the checkout")
        with open(os.path.join(ROOT, "README.md")) as f:
            text = f.read()
        block = re.search(r"```console\n\$ build/tools/schedsim ((?:.*\\\n)*.*)\n([\s\S]*?)```", text)
        args = block.group(1).replace("\\\n", " ").split()
        shown = [line for line in block.group(2).splitlines()
                 if not line.startswith(("schedsim: ", "...", "    "))]
        p = subprocess.run([os.path.abspath(simlib.SCHEDSIM), *args], capture_output=True,
                           text=True, cwd=ROOT, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(), shown)
        self.assertIn('spec.nodeName: node "pvx508.wdf.sap.corp" is not in the input', p.stderr)


if __name__ == "__main__":
    simlib.SCHEDSIM, ROOT = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
