#!/usr/bin/env bash
# One scheduled ingestion: run the pipeline, validate what is published, and diff it against
# the bundle that was current before the run. For cron and systemd (docs/scheduling.md).
#
# Usage: scripts/scheduled-run.sh OUTPUT_DIR [run options …]
#   MART_HOLIDAY  the binary (default: mart-holiday on PATH)
#   DIFF_FORMAT   text (default), json or markdown; the diff goes to OUTPUT_DIR/diff.<ext>
#   KEEP          bundles and raw archives to keep (default 30; older ones are removed)
# Exit status: 0 a valid bundle is current (some brands may be stale: see report.json);
#              1 the run published nothing, the bundle is invalid, or the diff failed.
set -euo pipefail

output=${1:?usage: scheduled-run.sh OUTPUT_DIR [run options …]}
shift
bin=${MART_HOLIDAY:-mart-holiday}
format=${DIFF_FORMAT:-text}
keep=${KEEP:-30}
mkdir -p "$output"

# One run at a time per output directory.
exec 9>"$output/.scheduled-run.lock"
flock -n 9 || { echo "another scheduled run holds $output/.scheduled-run.lock" >&2; exit 1; }

bundle_of() { sed -n 's/.*"bundle":"\([^"]*\)".*/\1/p' "$1/latest.json" 2>/dev/null || true; }
previous=$(bundle_of "$output")
# A diff describes one run: the last one's must not outlive it.
rm -f "$output"/diff.txt "$output"/diff.json "$output"/diff.md

status=0
"$bin" run --output "$output" --keep "$keep" "$@" || status=$?
case $status in
  0) ;;
  2) echo "published, but some brands are stale (kept from an earlier bundle): see $output/report.json" >&2 ;;
  *) echo "run failed (exit $status); the previous bundle stays current" >&2; exit 1 ;;
esac

"$bin" validate "$output"

current=$(bundle_of "$output")
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
  case $format in json) ext=json ;; markdown) ext=md ;; *) ext=txt ;; esac
  diff_status=0
  "$bin" diff "$output/$previous" "$output" --format "$format" >"$output/diff.$ext" || diff_status=$?
  case $diff_status in
    0) echo "no changes since $previous" ;;
    1) echo "changes since $previous: $output/diff.$ext" ;;
    *) echo "diff against $previous failed" >&2; exit 1 ;;
  esac
fi
