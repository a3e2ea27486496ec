#!/usr/bin/env bash
# Makes docs/report.png again: report.html of an output directory (default: output/, which
# scripts/bootstrap.sh fills from the recorded fixtures) in headless Chromium, 1280 pixels wide.
# Korean text needs a CJK font (Debian: fonts-noto-cjk).
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-output}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$profile" \
  --window-size=1280,1700 --virtual-time-budget=2000 --screenshot="$PWD/docs/report.png" \
  "file://$(cd "$output" && pwd)/report.html" 2>/dev/null
echo "docs/report.png from $output/report.html"
