#!/usr/bin/env python3
"""Checks an output directory with independent tools: every JSON file of every bundle (and
latest.json, report.json) against the JSON Schemas in schemas/ (jsonschema, draft 2020-12),
every .json.gz against the file it copies, and every .ics with a real iCalendar parser
(icalendar) plus the RFC 5545 line rules (CRLF, at most 75 octets).

Usage: check_bundle_schemas.py OUTPUT_DIR [--no-report]
       check_bundle_schemas.py --schema NAME FILE   (one file against schemas/NAME.schema.json)
Prints one line per problem on stderr and exits 1 when there is any; needs
`pip install -r scripts/requirements-test.txt`."""
import datetime
import gzip
import json
import pathlib
import sys

import icalendar
import jsonschema
import referencing

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"


def load_registry():
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], referencing.Resource.from_contents(schema)))
    return referencing.Registry().with_resources(resources)


REGISTRY = load_registry()
problems = []
checked = 0


def validator(name):
    schema = REGISTRY.contents(f"urn:mart-holiday:schema:{name}")
    return jsonschema.Draft202012Validator(
        schema, registry=REGISTRY, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


VALIDATORS = {
    name: validator(name)
    for name in ["latest", "manifest", "branches", "brand", "index", "closures", "districts", "report"]
}


def check_json(path, schema_name, data=None):
    global checked
    checked += 1
    try:
        document = json.loads(data if data is not None else path.read_bytes())
    except ValueError as error:
        problems.append(f"{path}: not JSON: {error}")
        return None
    for error in sorted(VALIDATORS[schema_name].iter_errors(document), key=lambda e: list(e.path)):
        location = "/".join(str(part) for part in error.path) or "(root)"
        problems.append(f"{path}: {location}: {error.message[:200]}")
    return document


def schema_for(relative):
    if relative.startswith("brands/"):
        return "brand"
    return {
        "manifest.json": "manifest",
        "branches.json": "branches",
        "index.json": "index",
        "closures.json": "closures",
        "districts.json": "districts",
    }.get(relative)


def calendar_days(branch):
    """The days a branch's calendar covers: its closing dates, except that a trading store
    announced to close for good has one event on that day, not one per day after it."""
    dates = branch["closing"]["dates"]
    status = branch.get("storeStatus") or {}
    closes_on = status.get("closesOn")
    if status.get("state") == "trading" and closes_on:
        return [day for day in dates if day <= closes_on]
    return dates


def check_calendar(path, expected_dates=None, tentative_dates=None):
    global checked
    checked += 1
    raw = path.read_bytes()
    if not raw.endswith(b"\r\n"):
        problems.append(f"{path}: does not end with CRLF")
    for number, line in enumerate(raw.split(b"\r\n")[:-1], start=1):
        if b"\n" in line or b"\r" in line:
            problems.append(f"{path}:{number}: bare line break")
        if len(line) > 75:
            problems.append(f"{path}:{number}: {len(line)} octets, more than 75")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"{path}:{number}: not UTF-8 (a fold split a character?)")
    try:
        calendar = icalendar.Calendar.from_ical(raw)
    except Exception as error:  # the parser's own exception types vary by version
        problems.append(f"{path}: icalendar cannot parse it: {error}")
        return
    events = [component for component in calendar.walk("VEVENT")]
    uids = [str(event.get("UID")) for event in events]
    if len(set(uids)) != len(uids):
        problems.append(f"{path}: duplicate UIDs")
    dates = []
    tentative = []
    for event in events:
        start = event.decoded("DTSTART")
        end = event.decoded("DTEND")
        if isinstance(start, datetime.datetime) or not isinstance(start, datetime.date):
            problems.append(f"{path}: {event.get('UID')}: DTSTART is not an all-day date")
            continue
        shut_event = str(event.get("UID")).endswith("-shut@mart-holiday")
        if end - start != datetime.timedelta(days=1) and not (shut_event and end > start):
            problems.append(f"{path}: {event.get('UID')}: does not last exactly one day")
        if not isinstance(event.decoded("DTSTAMP"), datetime.datetime):
            problems.append(f"{path}: {event.get('UID')}: DTSTAMP is not a date-time")
        # Expected days (closing.expected) are tentative events, kept apart from closing days.
        days = tentative if str(event.get("STATUS", "")).upper() == "TENTATIVE" else dates
        # A shut store's one event spans its shut days (DTEND exclusive).
        day = start
        while day < end or day == start:
            days.append(day.isoformat())
            day += datetime.timedelta(days=1)
    if expected_dates is not None and sorted(dates) != sorted(expected_dates):
        problems.append(f"{path}: events {sorted(dates)} differ from closing.dates {sorted(expected_dates)}")
    if tentative_dates is not None and sorted(tentative) != sorted(tentative_dates):
        problems.append(f"{path}: tentative events {sorted(tentative)} differ from closing.expected {sorted(tentative_dates)}")


def check_bundle(bundle):
    manifest = check_json(bundle / "manifest.json", "manifest")
    if manifest is None:
        return
    listed = {entry["path"] for entry in manifest.get("files", [])}
    branches = {}
    expected = {}
    for relative in sorted(listed):
        path = bundle / relative
        if not path.is_file():
            problems.append(f"{path}: listed in the manifest but missing")
            continue
        if relative.endswith(".json.gz"):
            original = bundle / relative[: -len(".gz")]
            if gzip.decompress(path.read_bytes()) != original.read_bytes():
                problems.append(f"{path}: does not decompress to {original.name}")
        elif relative.endswith(".json"):
            name = schema_for(relative)
            if name is None:
                problems.append(f"{path}: no schema for this file")
                continue
            document = check_json(path, name)
            if relative == "branches.json" and document is not None:
                branches = {b["id"]: calendar_days(b) for b in document.get("branches", [])}
                expected = {
                    b["id"]: (b["closing"].get("expected") or {}).get("dates", []) for b in document.get("branches", [])
                }
    for relative in sorted(listed):
        if relative.startswith("calendars/branches/") and relative.endswith(".ics"):
            branch_id = relative[len("calendars/branches/") : -len(".ics")]
            check_calendar(bundle / relative, branches.get(branch_id), expected.get(branch_id))
        elif relative.endswith(".ics"):
            check_calendar(bundle / relative)


def main():
    if sys.argv[1:2] == ["--schema"] and len(sys.argv) == 4:
        check_json(pathlib.Path(sys.argv[3]), sys.argv[2])
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"{sys.argv[3]}: {len(problems)} problems")
        sys.exit(1 if problems else 0)
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    output = pathlib.Path(arguments[0] if arguments else "output")
    check_json(output / "latest.json", "latest")
    if "--no-report" not in sys.argv and (output / "report.json").exists():
        check_json(output / "report.json", "report")
    bundles = sorted(p for p in (output / "bundles").iterdir() if p.is_dir() and not p.name.startswith("."))
    if not bundles:
        problems.append(f"{output}/bundles: no bundle")
    for bundle in bundles:
        check_bundle(bundle)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"schemas and calendars: {checked} files checked in {len(bundles)} bundles, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
