#!/usr/bin/env bash
# What a run writes, first and again: files created in the output directory and the user and
# system CPU of `mart-holiday run --replay` over a generated recording, for a first run, a rerun
# in which one store changed (a Costco store renamed in a copy of the recording) and a rerun with
# nothing changed, on the filesystem of $WORK (ext4 /tmp by default; WORK=/dev/shm/rerun for
# tmpfs).
#
#   bash Benchmarks/rerun.sh [branches]      # default 3000
#
# "Files created" counts the regular files of the output directory whose inode and modification
# time were not there before the run (a hard link to a file already there is not created; a new
# file given the inode of one removed during the run is).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

SCALE="${1:-3000}"
WORK="${WORK:-$(mktemp -d -t rerun.XXXXXX)}"
mkdir -p "$WORK"
BIN="${BIN:-.build/release/mart-holiday}"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time at $TIME: bash scripts/setup.sh installs it" >&2; exit 1; }
[ -x "$BIN" ] || swift build -c release --product mart-holiday >&2

echo "generating the sites for $SCALE branches in $WORK" >&2
"$BIN" bench --scale "$SCALE" --keep "$WORK/bench" >"$WORK/bench.txt"
RECORDING="$WORK/bench/$SCALE/recording"
CHANGED="$WORK/changed"
rm -rf "$CHANGED" "$WORK/output" "$WORK/state"
cp -r "$RECORDING" "$CHANGED"
python3 - "$CHANGED" <<'PY'
import pathlib, re, sys
for feed in sorted(pathlib.Path(sys.argv[1]).glob("www.costco.co.kr/*.body.json")):
    text = feed.read_text()
    renamed, count = re.subn(r'("displayName" ?: ?")([^"]*)"', r'\1\2 2"', text, count=1)
    if count:
        feed.write_text(renamed)
        sys.exit(0)
sys.exit("no Costco store to rename")
PY

inodes() { python3 - "$1" <<'PY'
import os, sys
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        status = os.lstat(os.path.join(folder, name))
        print(status.st_ino, status.st_mtime_ns)
PY
}

run() {
  local label=$1 recording=$2
  inodes "$WORK/output" 2>/dev/null | sort -u >"$WORK/before.txt" || true
  $TIME -f "%U %S %e" -o "$WORK/$label.time" "$BIN" run --replay "$recording" --output "$WORK/output" \
    --state "$WORK/state" >"$WORK/$label.log" 2>&1 || { cat "$WORK/$label.log" >&2; exit 1; }
  inodes "$WORK/output" | sort -u >"$WORK/after.txt"
  local created
  created=$(comm -13 "$WORK/before.txt" "$WORK/after.txt" | wc -l)
  read -r user system wall <"$WORK/$label.time"
  printf '%-22s %14s %8s %8s %8s\n' "$label" "$created" "$user" "$system" "$wall"
}

FS=$(df -T "$WORK" | awk 'NR == 2 { print $2 }')
echo "$SCALE branches, work directory on $FS ($WORK)"
printf '%-22s %14s %8s %8s %8s\n' run "files created" "user s" "sys s" "wall s"
run first "$RECORDING"
run "one store changed" "$CHANGED"
run unchanged "$CHANGED"
