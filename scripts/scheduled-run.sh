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
#   STALE_DAYS    a brand stale for this many days or more escalates to exit 3, ALLOW_STALE=1
#                 or not (default 7; 0 never escalates)
#   SITE_DIR      when set, the public site of the validated bundle is written there after the
#                 run (`mart-holiday site`, docs/site.md); SITE_BASE_URL, when set, is its
#                 --base-url (canonical links and sitemap.xml)
# With --log-format json among the run options, every line this script writes on stdout and
# stderr is one JSON object (time, level, message and fields), like the run's own.
# Exit status: 0 a valid bundle is current, every brand fresh (or ALLOW_STALE=1);
#              2 a valid bundle is current, but some brands are stale or missing (see
#                report.json): validated and diffed all the same;
#              3 as 2, and a brand has been stale for STALE_DAYS days or more: its site needs
#                a look, its users see data that old;
#              1 the run published nothing or left current/ or a report unwritten, the bundle
#                is invalid, the diff failed (then no diff.<ext> is left; 3 still wins), or the
#                site (SITE_DIR) could not be written.
# A markdown diff always fits DIFF_MAX_BYTES from a few hundred bytes up: it gives up detail,
# then lists, down to the counts and the stale brands, and says what it left out.
set -euo pipefail

output=${1:?usage: scheduled-run.sh OUTPUT_DIR [run options …]}
shift
output=${output%/}
state=${STATE_DIR:-$output-state}
bin=${MART_HOLIDAY:-mart-holiday}
format=${DIFF_FORMAT:-text}
keep=${KEEP:-30}
stale_days=${STALE_DAYS:-7}

json=0
previous_arg=
for arg in "$@"; do
  if [ "$arg" = --log-format=json ] || { [ "$previous_arg" = --log-format ] && [ "$arg" = json ]; }; then json=1; fi
  previous_arg=$arg
done

# A JSON string of $1: backslashes, quotes and control characters escaped.
json_string() {
  local text=$1 out= char code i
  for ((i = 0; i < ${#text}; i++)); do
    char=${text:i:1}
    case $char in
      '\') out+='\\' ;;
      '"') out+='\"' ;;
      $'\n') out+='\n' ;;
      $'\t') out+='\t' ;;
      $'\r') out+='\r' ;;
      [[:cntrl:]]) printf -v code '\\u%04x' "'$char"; out+=$code ;;
      *) out+=$char ;;
    esac
  done
  printf '"%s"' "$out"
}

# say LEVEL MESSAGE [KEY VALUE …]: one line, on stderr for warnings and errors, as text or as
# a JSON object (a VALUE of digits stays a number).
say() {
  local level=$1 message=$2 line
  shift 2
  if [ "$json" = 1 ]; then
    line="{\"level\":$(json_string "$level"),\"message\":$(json_string "$message"),\"source\":\"scheduled-run\",\"time\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\""
    while [ $# -ge 2 ]; do
      case $2 in '' | *[!0-9]*) line+=",$(json_string "$1"):$(json_string "$2")" ;; *) line+=",$(json_string "$1"):$2" ;; esac
      shift 2
    done
    line+="}"
  else
    case $level in error | warning) line="$level: $message" ;; *) line=$message ;; esac
  fi
  case $level in error | warning) printf '%s\n' "$line" >&2 ;; *) printf '%s\n' "$line" ;; esac
}

# relay OUT COMMAND …: runs COMMAND with its stdout to the file OUT (- for this script's stdout).
# Under --log-format json, what it writes as plain text becomes JSON objects: its stdout lines
# (when OUT is -) info, its stderr lines warnings or errors; JSON lines pass through as they are.
relay() {
  local out=$1 status=0 line
  shift
  if [ "$json" != 1 ]; then
    if [ "$out" = - ]; then "$@" || status=$?; else "$@" >"$out" || status=$?; fi
    return "$status"
  fi
  [ "$out" != - ] || out=$work/stdout
  "$@" >"$out" 2>"$work/stderr" || status=$?
  if [ "$out" = "$work/stdout" ]; then
    while IFS= read -r line; do
      case $line in '{'*) printf '%s\n' "$line" ;; '') ;; *) say info "$line" ;; esac
    done <"$out"
  fi
  while IFS= read -r line; do
    case $line in
      '{'*) printf '%s\n' "$line" >&2 ;;
      warning:*) say warning "${line#warning: }" ;;
      '') ;;
      *) say error "${line#error: }" ;;
    esac
  done <"$work/stderr"
  return "$status"
}

case $stale_days in '' | *[!0-9]*) say error "STALE_DAYS must be a whole number of days, not '$stale_days'"; exit 1 ;; esac
mkdir -p "$output" "$state"

# One run at a time per output directory.
exec 9>"$state/scheduled-run.lock"
flock -n 9 || { say error "another scheduled run holds $state/scheduled-run.lock"; exit 1; }

bundle_of() { sed -n 's/.*"bundle":"\([^"]*\)".*/\1/p' "$1/latest.json" 2>/dev/null || true; }
previous=$(bundle_of "$output")
# A diff describes one run: the last one's must not outlive it.
rm -f "$state"/diff.txt "$state"/diff.json "$state"/diff.md
# The run's --keep may remove the previous bundle (KEEP=1 always does): compare against a copy,
# an output directory of that bundle, its latest.json and the report.json of the run that made
# it, so that the diff tells the register's cross-checks this run found and that one did not.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$previous" ] && [ -d "$output/$previous" ]; then
  mkdir -p "$work/previous/$(dirname "$previous")"
  cp -R "$output/$previous" "$work/previous/$previous"
  cp "$output/latest.json" "$work/previous/latest.json"
  [ ! -f "$output/report.json" ] || cp "$output/report.json" "$work/previous/report.json"
fi

status=0
relay - "$bin" run --output "$output" --state "$state" --keep "$keep" "$@" || status=$?
stale=0
case $status in
  0) ;;
  2)
    say warning "published, but some brands are stale (kept from an earlier bundle) or missing: see $output/report.json"
    [ "${ALLOW_STALE:-0}" = 1 ] || stale=2
    # report.json is compact with sorted keys: a stale brand's entry reads …"slug":"…","staleSince":"…"…
    as_of=$(grep -oE '^\{"asOf":"[0-9-]+"' "$output/report.json" | grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2}' || true)
    if [ "$stale_days" -gt 0 ] && [ -n "$as_of" ]; then
      while IFS=, read -r slug since; do
        slug=${slug#\"slug\":\"}; slug=${slug%\"}
        since=${since#\"staleSince\":\"}; since=${since%\"}
        days=$(( ($(date -u -d "$as_of" +%s) - $(date -u -d "$since" +%s)) / 86400 ))
        if [ "$days" -ge "$stale_days" ]; then
          say error "$slug has been stale for $days days (since $since, STALE_DAYS=$stale_days): its users see data from $since; see $output/report.json and report.html for why" \
            brand "$slug" staleSince "$since" daysStale "$days"
          stale=3
        fi
      done < <(grep -oE '"slug":"[a-z0-9-]+","staleSince":"[0-9-]+"' "$output/report.json" || true)
    fi
    ;;
  *)
    say error "run failed (exit $status): see $output/report.json; a bundle may be published with current/ or a report unfinished, which the next run finishes once the cause its error: lines name is fixed (a full disk needs space freed first)"
    exit 1
    ;;
esac

relay - "$bin" validate "$output"

current=$(bundle_of "$output")
if [ -n "$previous" ] && [ "$previous" != "$current" ] && [ -d "$work/previous" ]; then
  case $format in json) ext=json ;; markdown) ext=md ;; *) ext=txt ;; esac
  diff_status=0
  limit=()
  [ -z "${DIFF_MAX_BYTES:-}" ] || limit=(--max-bytes "$DIFF_MAX_BYTES")
  relay "$state/diff.$ext" "$bin" diff "$work/previous" "$output" --format "$format" ${limit[@]+"${limit[@]}"} || diff_status=$?
  case $diff_status in
    0) say info "no changes since $previous" ;;
    1) say info "changes since $previous: $state/diff.$ext" diff "$state/diff.$ext" ;;
    *)
      # No empty or partial diff file outlives the failure; a stale brand's escalation (3)
      # still wins over it, so the days stale are never hidden behind a diff that failed.
      rm -f "$state/diff.$ext"
      say error "diff against $previous failed (exit $diff_status): see the error: line above"
      [ "$stale" = 3 ] && exit 3
      exit 1
      ;;
  esac
fi
if [ -n "${SITE_DIR:-}" ]; then
  base=()
  [ -z "${SITE_BASE_URL:-}" ] || base=(--base-url "$SITE_BASE_URL")
  relay - "$bin" site "$output" --to "$SITE_DIR" ${base[@]+"${base[@]}"} || { say error "the site could not be written to $SITE_DIR"; exit 1; }
fi
exit $stale
