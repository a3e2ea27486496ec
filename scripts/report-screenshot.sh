#!/usr/bin/env bash
# Makes docs/report.png again: report.html of an output directory (default: output/, which
# scripts/bootstrap.sh fills from the recorded fixtures) in headless Chromium, 1280 pixels wide:
# the top of the page (the summary and the map), and below it the calendar with its busiest day
# opened (report.html#day-YYYY-MM-DD), so the picture shows a day's list as a reader sees it.
# Korean text needs a CJK font (Debian: fonts-noto-cjk; scripts/setup.sh installs it). When
# pngquant is installed, the picture is reduced to 256 colours to keep the repository small.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-output}
page="$(cd "$output" && pwd)/report.html"
[ -f "$page" ] || { echo "error: $page: no such file (run scripts/bootstrap.sh first)" >&2; exit 1; }
[ -n "$(fc-list :lang=ko family 2>/dev/null)" ] \
  || { echo "error: no Korean font: Hangul would be boxes (run scripts/setup.sh)" >&2; exit 1; }
# The day with the most closures: its cell is `<td id="day-…" … data-closed="N"`.
busiest=$(grep -o 'id="day-[0-9-]*" [^>]*data-closed="[0-9]*"' "$page" \
  | sed -E 's/id="(day-[0-9-]*)".*data-closed="([0-9]*)"/\2 \1/' | sort -n | tail -1 | cut -d' ' -f2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two frames of the same page, one over the other: its top, and its calendar at the busiest day.
cat > "$work/frames.html" <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body{margin:0}iframe{display:block;border:0;width:1280px}
</style></head><body>
<iframe src="file://$page" height="1095"></iframe>
<iframe src="file://$page#${busiest:-calendar}" height="650"></iframe>
</body></html>
EOF
chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1280,1800 --virtual-time-budget=3000 --screenshot="$PWD/docs/report.png" \
  "file://$work/frames.html" 2>/dev/null
if command -v pngquant >/dev/null 2>&1; then
  pngquant --force --skip-if-larger --quality=70-95 --output docs/report.png docs/report.png || true
fi
echo "docs/report.png from $output/report.html ($(wc -c < docs/report.png) bytes)"
