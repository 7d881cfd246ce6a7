#!/usr/bin/env python3
"""Reduces Kubernetes' OpenAPI v2 spec to the field tree schedsim checks input
against (tools/schedsim/known_fields.json), as the API server's strict field
validation would.

Regenerate after moving to another Kubernetes release:
  go mod download k8s.io/kubernetes@v1.36.3
  python3 scripts/gen_known_fields.py \\
    "$(go env GOMODCACHE)/k8s.io/kubernetes@v1.36.3/api/openapi-spec/swagger.json" \\
    > tools/schedsim/known_fields.json

Output: {"source": ..., "kinds": [[apiVersion, kind, type], ...],
"types": {type: {field: shape}}}, where a shape is "" (a scalar, or a value
whose inside is not checked: quantities, int-or-string, times, raw or
x-kubernetes-preserve-unknown-fields values), a type name, "[" + shape (an
array of it) or "{" + shape (a map of it). Type names drop "io.k8s.".
"""
import json
import sys


def short(ref):
    name = ref.rsplit("/", 1)[-1]
    return name[len("io.k8s."):] if name.startswith("io.k8s.") else name


def main(path, version):
    defs = json.load(open(path))["definitions"]
    types = {}

    def opaque(d):
        return "properties" not in d or d.get("x-kubernetes-preserve-unknown-fields")

    def shape(prop):
        if "$ref" in prop:
            name = prop["$ref"].rsplit("/", 1)[-1]
            if opaque(defs[name]):
                return ""
            visit(name)
            return short(name)
        if prop.get("type") == "array":
            return "[" + shape(prop.get("items", {}))
        if prop.get("type") == "object" and "additionalProperties" in prop:
            return "{" + shape(prop["additionalProperties"])
        return ""

    def visit(name):
        if short(name) in types:
            return
        fields = types[short(name)] = {}
        for field, prop in sorted(defs[name]["properties"].items()):
            fields[field] = shape(prop)

    kinds = []
    for name, d in sorted(defs.items()):
        for gvk in d.get("x-kubernetes-group-version-kind", []):
            kind = gvk["kind"]
            if kind.endswith("List") or opaque(d) or name.startswith("io.k8s.apimachinery"):
                continue  # Lists are flattened; meta kinds (Status, WatchEvent) are no input
            api_version = (gvk["group"] + "/" if gvk["group"] else "") + gvk["version"]
            visit(name)
            kinds.append([api_version, kind, short(name)])
    out = {"source": f"k8s.io/kubernetes@{version} api/openapi-spec/swagger.json",
           "kinds": sorted(kinds), "types": dict(sorted(types.items()))}
    json.dump(out, sys.stdout, separators=(",", ":"), sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    spec = sys.argv[1]
    main(spec, "v1.36.3" if "@" not in spec else spec.split("@", 1)[1].split("/", 1)[0])
