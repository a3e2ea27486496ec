#!/usr/bin/env bash
# One scheduled ingestion: run the pipeline, validate what is published, and diff it against
# the bundle that was current before the run. For cron and systemd (docs/scheduling.md).
#
# Usage: scripts/scheduled-run.sh OUTPUT_DIR [run options …]
#   MART_HOLIDAY  the binary (default: mart-holiday on PATH)
#   STATE_DIR     the run's state directory (default: OUTPUT_DIR-state beside it): caches, raw
#                 archives, the locks and this script's diff.<ext>; never inside OUTPUT_DIR
#   DIFF_FORMAT   text (default), json or markdown; the diff goes to STATE_DIR/diff.<ext>
#   DIFF_MAX_BYTES  the most bytes of a markdown diff (diff --max-bytes; default 60000)
#   KEEP          bundles and raw archives to keep (default 30; older ones are removed)
#   ALLOW_STALE   1: a brand kept from an earlier bundle (stale) or missing is no failure (exit 0)
# Exit status: 0 a valid bundle is current, every brand fresh (or ALLOW_STALE=1);
#              2 a valid bundle is current, but some brands are stale or missing (see
#                report.json): validated and diffed all the same;
#              1 the run published nothing or left current/ or a report unwritten, the bundle
#                is invalid, or the diff failed.
set -euo pipefail

output=${1:?usage: scheduled-run.sh OUTPUT_DIR [run options …]}
shift
output=${output%/}
state=${STATE_DIR:-$output-state}
bin=${MART_HOLIDAY:-mart-holiday}
format=${DIFF_FORMAT:-text}
keep=${KEEP:-30}
mkdir -p "$output" "$state"

# One run at a time per output directory.
exec 9>"$state/scheduled-run.lock"
flock -n 9 || { echo "another scheduled run holds $state/scheduled-run.lock" >&2; exit 1; }

bundle_of() { sed -n 's/.*"bundle":"\([^"]*\)".*/\1/p' "$1/latest.json" 2>/dev/null || true; }
previous=$(bundle_of "$output")
# A diff describes one run: the last one's must not outlive it.
rm -f "$state"/diff.txt "$state"/diff.json "$state"/diff.md
# The run's --keep may remove the previous bundle (KEEP=1 always does): compare against a copy.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$previous" ] && [ -d "$output/$previous" ]; then
  cp -R "$output/$previous" "$work/previous"
fi

status=0
"$bin" run --output "$output" --state "$state" --keep "$keep" "$@" || status=$?
stale=0
case $status in
  0) ;;
  2)
    echo "published, but some brands are stale (kept from an earlier bundle) or missing: see $output/report.json" >&2
    [ "${ALLOW_STALE:-0}" = 1 ] || stale=2
    ;;
  *) echo "run failed (exit $status): see $output/report.json (a bundle may be published but current/ or a report unfinished; the next run finishes it)" >&2; exit 1 ;;
esac

"$bin" validate "$output"

current=$(bundle_of "$output")
if [ -n "$previous" ] && [ "$previous" != "$current" ] && [ -d "$work/previous" ]; then
  case $format in json) ext=json ;; markdown) ext=md ;; *) ext=txt ;; esac
  diff_status=0
  limit=()
  [ -z "${DIFF_MAX_BYTES:-}" ] || limit=(--max-bytes "$DIFF_MAX_BYTES")
  "$bin" diff "$work/previous" "$output" --format "$format" ${limit[@]+"${limit[@]}"} >"$state/diff.$ext" || diff_status=$?
  case $diff_status in
    0) echo "no changes since $previous" ;;
    1) echo "changes since $previous: $state/diff.$ext" ;;
    *) echo "diff against $previous failed" >&2; exit 1 ;;
  esac
fi
exit $stale
