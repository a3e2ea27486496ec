#!/usr/bin/env python3
"""Checks that output/latest.json names a bundle whose manifest and files exist, parse and
match their SHA-256 digests and sizes. Exit 0 when all is well."""
import datetime
import hashlib
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "output")
latest = json.loads((out / "latest.json").read_text(encoding="utf-8"))
bundle = out / latest["bundle"]
manifest_bytes = (bundle / "manifest.json").read_bytes()
assert hashlib.sha256(manifest_bytes).hexdigest() == latest["manifestSHA256"], "manifest digest differs"
manifest = json.loads(manifest_bytes)
for entry in manifest["files"]:
    data = (bundle / entry["path"]).read_bytes()
    assert len(data) == entry["bytes"], f"{entry['path']}: size differs"
    assert hashlib.sha256(data).hexdigest() == entry["sha256"], f"{entry['path']}: digest differs"
    if entry["path"].endswith(".json"):
        json.loads(data)
branches = json.loads((bundle / "branches.json").read_text(encoding="utf-8"))["branches"]
assert branches, "no branches"
counts = {}
for branch in branches:
    counts[branch["brand"]] = counts.get(branch["brand"], 0) + 1
print(f"bundle {latest['version']}: {len(branches)} branches", counts)
window = json.loads((bundle / "branches.json").read_text(encoding="utf-8"))["window"]
for branch in branches:
    closing = branch["closing"]
    known = closing["knownThrough"]
    if known is not None and known < window["through"]:
        # Every day of the window after knownThrough is unknown, never open.
        first = max(
            (datetime.date.fromisoformat(known) + datetime.timedelta(days=1)).isoformat(), window["from"])
        assert any(r["from"] <= first and window["through"] <= r["through"] for r in closing["unknownRanges"]), (
            f"{branch['id']}: days after knownThrough {known} are not all unknown")
