#!/usr/bin/env python3
"""Build step: writes a C++ source defining `const char NAME[]` with a text
file's bytes, so schedsim carries its data files (known_fields.json)."""
import sys

src, name, out = sys.argv[1:4]
data = open(src, "rb").read()
with open(out, "w") as f:
    f.write(f"// Generated from {src.rsplit('/', 1)[-1]} by embed.py; do not edit.\n")
    f.write(f"extern const char {name}[];\nconst char {name}[] = {{\n")
    for i in range(0, len(data), 24):
        f.write(",".join(str(b) for b in data[i:i + 24]) + ",\n")
    f.write("0};\n")
