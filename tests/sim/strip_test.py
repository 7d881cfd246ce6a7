#!/usr/bin/env python3
"""schedsim drops every annotation but those the engine's decoders read: its
list (tools/schedsim/strip.h, kEngineAnnotations) must be the decoders'
(the annotation-name constants in capi/decode_*.cc), so that a decoder
reading a new annotation fails this test until schedsim keeps it.

    strip_test.py SOURCE_ROOT
"""

import glob
import os
import re
import sys
import unittest

ROOT = None


class Annotations(unittest.TestCase):
    def test_kept_annotations_are_the_decoders(self):
        decoders = set()
        for path in glob.glob(os.path.join(ROOT, "capi", "decode_*.cc")):
            with open(path) as f:
                text = f.read()
            # constexpr const char* kAnnFoo = "..."; / k...Annotation = "..."
            decoders |= set(re.findall(
                r'constexpr const char\* k\w*(?:Ann|Annotation)\w* = "([^"]+)"', text))
        with open(os.path.join(ROOT, "tools", "schedsim", "strip.h")) as f:
            text = f.read()
        block = re.search(r"kEngineAnnotations\[\] = \{(.*?)\};", text, re.S).group(1)
        kept = set(re.findall(r'"([^"]+)"', block))
        self.assertTrue(decoders)
        self.assertEqual(kept, decoders)


if __name__ == "__main__":
    ROOT = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
