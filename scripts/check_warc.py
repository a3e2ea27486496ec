#!/usr/bin/env python3
"""Checks a WARC file a run wrote, with warcio (the reader of pywb and ReplayWeb.page).

usage: check_warc.py FILE.warc.gz

Passes (exit 0, one summary line) when warcio reads every record and verifies every block and
payload digest; the file is one gzip member per record; the first record is `warcinfo`; every
`response` record holds an HTTP response and is concurrent to a `request` record holding an HTTP
request for the same target. Otherwise prints what failed and exits 1.
"""
import sys
import zlib

from warcio.archiveiterator import ArchiveIterator


def gzip_members(path):
    """The number of gzip members in the file (each must end where the next begins)."""
    data = open(path, "rb").read()
    count = 0
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        inflater.decompress(data)
        if not inflater.eof:
            raise ValueError("the gzip member at the end is cut short")
        data = inflater.unused_data
        count += 1
    return count


def check(path):
    problems = []
    records = []
    with open(path, "rb") as stream:
        iterator = ArchiveIterator(stream, check_digests=True)
        for record in iterator:
            headers = record.rec_headers
            kind = headers.get_header("WARC-Type")
            while record.content_stream().read(1 << 20):
                pass
            record_id = headers.get_header("WARC-Record-ID") or ""
            if not (record_id.startswith("<urn:uuid:") and record_id.endswith(">")):
                problems.append(f"{kind} record has the WARC-Record-ID {record_id!r}, not <urn:uuid:…>")
            if headers.protocol != "WARC/1.1":
                problems.append(f"{record_id}: version {headers.protocol}, not WARC/1.1")
            if not headers.get_header("WARC-Date"):
                problems.append(f"{record_id}: no WARC-Date")
            if not headers.get_header("WARC-Block-Digest"):
                problems.append(f"{record_id}: no WARC-Block-Digest")
            if kind == "response" and not headers.get_header("WARC-Payload-Digest"):
                problems.append(f"{record_id}: no WARC-Payload-Digest")
            if record.digest_checker.passed is not True:
                problems.append(f"{record_id}: digests not verified: {record.digest_checker.problems}")
            records.append((kind, record_id, headers, record.http_headers))
    if not records or records[0][0] != "warcinfo":
        problems.append("the first record is not warcinfo")
    by_id = {record_id: (kind, headers, http) for kind, record_id, headers, http in records}
    responses = [r for r in records if r[0] == "response"]
    for _, record_id, headers, http in responses:
        if http is None or not http.protocol.startswith("HTTP/"):
            problems.append(f"{record_id}: the response record holds no HTTP response")
        request = by_id.get(headers.get_header("WARC-Concurrent-To") or "")
        if request is None or request[0] != "request":
            problems.append(f"{record_id}: WARC-Concurrent-To names no request record")
        elif request[1].get_header("WARC-Target-URI") != headers.get_header("WARC-Target-URI"):
            problems.append(f"{record_id}: its request record is for another target")
        elif request[2] is None:
            problems.append(f"{record_id}: its request record holds no HTTP request")
    members = gzip_members(path)
    if members != len(records):
        problems.append(f"{members} gzip members for {len(records)} records: each record must be its own member")
    if problems:
        print(f"{path}: " + "\n  ".join(problems))
        return 1
    requests = sum(1 for r in records if r[0] == "request")
    print(f"{path}: {len(records)} records (1 warcinfo, {requests} requests, {len(responses)} responses), every digest verified")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(check(sys.argv[1]))
